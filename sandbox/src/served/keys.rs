//! A request body's keys as the answer spells them, so that what a client sent is what it
//! reads back: `To` as `to`, and a dotted form field inside the object it names.

use serde_json::{Map, Value};

use crate::server::resources::{FieldSchema, ServiceSchema, ShapeSchema, Ty};

/// The body's keys spelled as the answer's fields where they differ only in case and `_`
/// (Twilio takes `To` and answers `to`; `StatusCallback` and `status_callback`), or a list's
/// name in the singular (`Permission`, `permissions`), so what was sent is what is read back. A key with a dot whose first part names an object (or `json`)
/// field of the answer goes inside it, as the form's `dots` style nests (Twilio's
/// `Configuration.Url` is the answer's `configuration.url`).
pub(super) fn named_as_answered(schema: &ServiceSchema, answer: Option<&Ty>, body: Value) -> Value {
    let fields = match answer {
        Some(Ty::Named(name)) => schema.types.iter().find(|t| t.name == *name),
        _ => None,
    };
    // A union answers in its variants' names (Twilio's A2P campaign, `oneOf` two versions:
    // none of the form's fields was kept).
    let variants: Vec<Ty> = match fields.map(|t| t.shape) {
        Some(ShapeSchema::Untagged(types)) => types.to_vec(),
        Some(ShapeSchema::Union { variants, .. }) => variants
            .iter()
            .filter_map(|(_, ty)| ty.map(Ty::Named))
            .collect(),
        _ => Vec::new(),
    };
    if !variants.is_empty() {
        // Object variants only: a union that holds a union is not followed (nor itself).
        let object = |v: &&Ty| {
            matches!(v, Ty::Named(n)
                if schema.named(n).is_some_and(|t| matches!(t.shape, ShapeSchema::Object(_))))
        };
        let objects = variants.iter().filter(object);
        return objects.fold(body, |body, variant| {
            named_as_answered(schema, Some(variant), body)
        });
    }
    let (Some(ShapeSchema::Object(fields)), Value::Object(map)) = (fields.map(|t| t.shape), &body)
    else {
        return body;
    };
    let answered = |key: &str| -> Option<&FieldSchema> {
        fields
            .iter()
            .find(|f| f.name == key)
            .or_else(|| fields.iter().find(|f| fold(f.name) == fold(key)))
            // A list sent one value per repeated key, named in the singular (Twilio's
            // `Permission=a&Permission=b`, answered `permissions`: never kept).
            .or_else(|| {
                let plural = format!("{}s", fold(key));
                fields
                    .iter()
                    .find(|f| matches!(f.ty, Ty::List(_)) && fold(f.name) == plural)
                    .filter(|_| !fields.iter().any(|f| fold(f.name) == fold(key)))
            })
    };
    let mut out = Map::new();
    let mut nested: Vec<(&FieldSchema, &str, &str, &Value)> = Vec::new();
    for (key, value) in map {
        if let Some((outer, inner)) = key.split_once('.')
            && !fields.iter().any(|f| f.name == key)
            && let Some(f) = answered(outer)
            && (matches!(f.ty, Ty::Json) || schema.object_fields(&f.ty).is_some())
        {
            nested.push((f, key, inner, value));
            continue;
        }
        let named = answered(key).map_or_else(|| key.clone(), |f| f.name.to_owned());
        out.entry(named).or_insert_with(|| value.clone());
    }
    for (f, key, inner, value) in nested {
        let holder = out
            .entry(f.name.to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(holder) = holder else {
            // The body sent the field itself as something else too: the key stays as sent.
            out.entry(key.to_owned()).or_insert_with(|| value.clone());
            continue;
        };
        // A free-form object takes the answer's own spelling (Twilio answers in snake case),
        // one object for each further dot: `Bindings.Email.Address` is `bindings.email.address`.
        if matches!(f.ty, Ty::Json) {
            nest_free(holder, inner, value.clone());
            continue;
        }
        let one = Value::Object(Map::from_iter([(inner.to_owned(), value.clone())]));
        let Value::Object(one) = named_as_answered(schema, Some(&f.ty), one) else {
            continue;
        };
        for (k, v) in one {
            holder.entry(k).or_insert(v);
        }
    }
    Value::Object(out)
}

/// `value` put in the free-form object `holder` at the dotted key `key`, each part in snake
/// case, an object for each part but the last; where something else already holds a part,
/// the rest of the key stays as sent beside it (nothing is dropped).
fn nest_free(holder: &mut Map<String, Value>, key: &str, value: Value) {
    let Some((first, rest)) = key.split_once('.') else {
        holder.entry(snake(key)).or_insert(value);
        return;
    };
    match holder
        .entry(snake(first))
        .or_insert_with(|| Value::Object(Map::new()))
    {
        Value::Object(inner) => nest_free(inner, rest, value),
        _ => {
            holder.entry(key.to_owned()).or_insert(value);
        }
    }
}

/// A name folded for comparison: lower case, without `_`.
fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// `ProxyAddress` as `proxy_address` (a name already in snake case stays).
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::resources::tests::field;

    #[test]
    fn pascal_names_become_snake_case_and_snake_case_stays() {
        assert_eq!(snake("Url"), "url");
        assert_eq!(snake("ProxyAddress"), "proxy_address");
        assert_eq!(snake("proxy_address"), "proxy_address");
        assert_eq!(snake(""), "");
    }

    const HOOK: &[FieldSchema] = &[
        field("target", Ty::String, false),
        field("configuration", Ty::Json, false),
        field("permissions", Ty::List(&Ty::String), false),
    ];
    const SCHEMA: ServiceSchema = ServiceSchema {
        types: &[crate::server::resources::TypeSchema {
            name: "Hook",
            keeps_other_keys: false,
            shape: ShapeSchema::Object(HOOK),
        }],
        page: None,
    };

    #[test]
    fn dotted_keys_go_inside_the_object_they_name_unless_it_was_sent_as_something_else() {
        let answer = Ty::Named("Hook");
        let sent = serde_json::json!({"Target": "webhook", "Configuration.Url": "https://a.example",
            "Configuration.ProxyAddress": "+1555"});
        assert_eq!(
            named_as_answered(&SCHEMA, Some(&answer), sent),
            serde_json::json!({"target": "webhook",
                "configuration": {"url": "https://a.example", "proxy_address": "+1555"}})
        );
        // Nothing is dropped: a key that cannot go inside stays as it was sent.
        let both = serde_json::json!({"Configuration": "plain", "Configuration.Url": "u"});
        assert_eq!(
            named_as_answered(&SCHEMA, Some(&answer), both),
            serde_json::json!({"configuration": "plain", "Configuration.Url": "u"})
        );
    }

    #[test]
    fn every_dot_of_a_key_inside_a_free_form_object_is_an_object_of_its_own() {
        let answer = Ty::Named("Hook");
        let sent = serde_json::json!({"Configuration.Email.Address": "a@example.com",
            "Configuration.Email.Name": "Ann", "Configuration.Flows": "f"});
        assert_eq!(
            named_as_answered(&SCHEMA, Some(&answer), sent),
            serde_json::json!({"configuration":
                {"email": {"address": "a@example.com", "name": "Ann"}, "flows": "f"}})
        );
        let clash =
            serde_json::json!({"Configuration.Email": "e", "Configuration.Email.Name": "n"});
        assert_eq!(
            named_as_answered(&SCHEMA, Some(&answer), clash),
            serde_json::json!({"configuration": {"email": "e", "Email.Name": "n"}})
        );
    }

    #[test]
    fn a_list_sent_by_a_repeated_key_in_the_singular_is_the_answer_s_list() {
        // Twilio's roles: `Permission=sendMessage&Permission=leaveChannel`, answered
        // `permissions` (never kept).
        let answer = Ty::Named("Hook");
        let sent = serde_json::json!({"Permission": ["sendMessage", "leaveChannel"]});
        assert_eq!(
            named_as_answered(&SCHEMA, Some(&answer), sent),
            serde_json::json!({"permissions": ["sendMessage", "leaveChannel"]})
        );
    }

    const CAMPAIGN: &[FieldSchema] = &[field("description", Ty::String, false)];
    const CAMPAIGN_V2: &[FieldSchema] = &[field("message_flow", Ty::String, false)];
    const UNION: ServiceSchema = ServiceSchema {
        types: &[
            crate::server::resources::TypeSchema {
                name: "Campaign",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(CAMPAIGN),
            },
            crate::server::resources::TypeSchema {
                name: "CampaignV2",
                keeps_other_keys: false,
                shape: ShapeSchema::Object(CAMPAIGN_V2),
            },
            crate::server::resources::TypeSchema {
                name: "Either",
                keeps_other_keys: false,
                shape: ShapeSchema::Untagged(&[Ty::Named("Campaign"), Ty::Named("CampaignV2")]),
            },
        ],
        page: None,
    };

    #[test]
    fn a_union_answer_takes_the_body_in_its_variants_names() {
        // Twilio's A2P campaign answers `oneOf` two versions: the form's `Description` and
        // `MessageFlow` were kept as sent, and answered by neither.
        let sent = serde_json::json!({"Description": "d", "MessageFlow": "f"});
        assert_eq!(
            named_as_answered(&UNION, Some(&Ty::Named("Either")), sent),
            serde_json::json!({"description": "d", "message_flow": "f"})
        );
    }

    #[test]
    fn folded_names_ignore_case_and_underscores() {
        assert_eq!(fold("StatusCallback"), fold("status_callback"));
        assert_ne!(fold("To"), fold("From"));
    }
}
