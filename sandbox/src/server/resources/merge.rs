//! Changes to a held item: a `PATCH` body merged in.

use serde_json::{Map, Value};

/// `patch` merged into `target` field by field at the top: each field sent replaces the one
/// held, whole (an object too), and `null` removes it, but for a field the item always has
/// (`required`: Discord's message `content` kept, not made up again). Documents disagree below
/// the top (Front's `custom_fields` are replaced whole, Svix merges its endpoint headers as a
/// JSON merge patch does) and say so only in prose, so the sandbox keeps to what both agree on.
///
/// With `nested` (a form's fields, sent one by one: Twilio's `Bindings.Email.Name` after
/// `Bindings.Email.Address`), an object goes into the object held, at every depth.
///
/// A JSON:API resource object's `attributes` and `relationships` (an item with a `type` and
/// an `id` beside them: Klaviyo's profiles) take each member sent, the others kept, as JSON:API
/// requires of a partial update; replaced whole, a profile lost its email and name.
/// The changes of an update that sends them in an object of their own beside the item's name
/// (Rocket.Chat's `users.update {userId, data: {name}}`): that object's fields, where it is
/// the one object sent that the item has no field for and that holds some of the item's fields.
/// Merged as sent, they were kept under `data` and the user's name never changed.
pub(super) fn changes_inside(
    mut body: Map<String, Value>,
    held: &Map<String, Value>,
    named_by: Option<&str>,
) -> Map<String, Value> {
    let wrappers: Vec<String> = body
        .iter()
        .filter(|(key, _)| Some(key.as_str()) != named_by && !held.contains_key(*key))
        .filter(|(_, value)| {
            value
                .as_object()
                .is_some_and(|inner| inner.keys().any(|k| held.contains_key(k)))
        })
        .map(|(key, _)| key.clone())
        .collect();
    if let [only] = wrappers.as_slice()
        && let Some(Value::Object(inner)) = body.remove(only)
    {
        body.extend(inner);
    }
    body
}

pub(super) fn merge_patch(
    target: &mut Map<String, Value>,
    patch: Map<String, Value>,
    required: Vec<&str>,
    nested: bool,
) {
    let resource_object = target.contains_key("type") && target.contains_key("id");
    for (key, value) in patch {
        let members = resource_object && matches!(key.as_str(), "attributes" | "relationships");
        match (target.get_mut(&key), value) {
            (Some(Value::Object(held)), Value::Object(inner)) if nested => {
                merge_patch(held, inner, Vec::new(), true);
            }
            (Some(Value::Object(held)), Value::Object(inner)) if members => {
                merge_patch(held, inner, Vec::new(), false);
            }
            (_, Value::Null) if required.contains(&key.as_str()) => {}
            (_, Value::Null) => {
                target.remove(&key);
            }
            (_, value) => {
                target.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_patch_replaces_each_top_level_field_it_sends_and_null_removes_all_but_required_ones() {
        let Value::Object(mut held) = json!({
            "name": "a",
            "custom_fields": {"tier": "gold", "region": "eu"},
            "tags": ["x", "y"],
            "kept": 1,
        }) else {
            unreachable!()
        };
        let Value::Object(patch) = json!({
            "custom_fields": {"tier": "silver"},
            "tags": ["z"],
            "name": null,
            "kept": null,
        }) else {
            unreachable!()
        };
        merge_patch(&mut held, patch, vec!["kept"], false);
        assert_eq!(
            Value::Object(held),
            json!({"custom_fields": {"tier": "silver"}, "tags": ["z"], "kept": 1})
        );
    }

    #[test]
    fn a_json_api_resource_s_attributes_take_each_member_sent() {
        let Value::Object(mut held) = json!({
            "type": "profile",
            "id": "01H",
            "attributes": {"email": "ada@example.org", "first_name": "Ada", "properties": {"a": 1}},
        }) else {
            unreachable!()
        };
        let Value::Object(patch) = json!({
            "type": "profile",
            "id": "01H",
            "attributes": {"first_name": "Augusta", "properties": {"b": 2}},
        }) else {
            unreachable!()
        };
        merge_patch(&mut held, patch, Vec::new(), false);
        assert_eq!(
            held["attributes"],
            json!({"email": "ada@example.org", "first_name": "Augusta", "properties": {"b": 2}})
        );
    }

    #[test]
    fn a_form_s_nested_fields_go_into_the_objects_held() {
        let Value::Object(mut held) = json!({
            "bindings": {"email": {"address": "a@example.com"}},
            "timers": {"closed": "P1D"},
        }) else {
            unreachable!()
        };
        let Value::Object(patch) = json!({
            "bindings": {"email": {"name": "Ann"}},
            "timers": {"inactive": "PT5M"},
        }) else {
            unreachable!()
        };
        merge_patch(&mut held, patch, Vec::new(), true);
        assert_eq!(
            Value::Object(held),
            json!({
                "bindings": {"email": {"address": "a@example.com", "name": "Ann"}},
                "timers": {"closed": "P1D", "inactive": "PT5M"},
            })
        );
    }
}
