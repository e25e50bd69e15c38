//! `oneOf`/`anyOf` as spec unions: tagged by a discriminator (or by a `const` property the
//! variants share), untagged when only their shapes tell them apart.

#[allow(clippy::wildcard_imports)] // the schema converter's imports and helpers
use super::*;

impl Converter<'_> {
    pub(super) fn alternatives(
        &mut self,
        key: &str,
        members: &[Value],
        s: &Value,
        ptr: &str,
        hint: &str,
        depth: usize,
    ) -> Result<String, String> {
        if let Some(tag) = s
            .get("discriminator")
            .and_then(|d| d.get("propertyName").or(Some(d)))
            .and_then(Value::as_str)
        {
            match self.union(hint, tag, members, s, ptr, depth) {
                Ok(name) => return Ok(name),
                Err(reason) => {
                    self.approximate(
                        ptr,
                        &format!(
                            "{key} with a discriminator not mappable ({reason}); typed as json"
                        ),
                    );
                    return Ok("json".into());
                }
            }
        }
        if members.is_empty() {
            return Ok("json".into());
        }
        // Discord's numeric enums: `type: integer, oneOf: [{title: DEFAULT, const: 0}, ...]`.
        if let Some(scalar) = const_scalars(self.doc, members) {
            self.approximate(
                ptr,
                &format!(
                    "{key} of {} `const` values typed as {scalar}; the values are not checked",
                    members.len()
                ),
            );
            return Ok(scalar.into());
        }
        let mut types = BTreeSet::new();
        for (i, m) in members.iter().enumerate() {
            // Probe without keeping inline types: alternatives that are all the same scalar
            // (or all strings) collapse to it.
            let (m, _) = unwrap_nullable(m);
            let simple = match m.get("type").and_then(Value::as_str) {
                Some(t @ ("string" | "integer" | "number" | "boolean"))
                    if m.get("enum").is_none() || t == "string" =>
                {
                    Some(
                        if t == "string"
                            && m.get("format").and_then(Value::as_str) == Some("date-time")
                        {
                            "datetime".to_owned()
                        } else {
                            t.to_owned()
                        },
                    )
                }
                _ => None,
            };
            match simple {
                Some(t) => {
                    types.insert(t);
                }
                None => {
                    if let Some(r) = m.get("$ref").and_then(Value::as_str) {
                        types.insert(
                            self.reference(r, &format!("{ptr}/{key}/{i}"), hint, depth + 1)
                                .unwrap_or_else(|_| "json".into()),
                        );
                    } else {
                        types.insert(format!("inline{i}"));
                    }
                }
            }
        }
        if types.len() == 1 {
            if let Some(t) = types
                .into_iter()
                .next()
                .filter(|t| !t.starts_with("inline"))
            {
                return Ok(t);
            }
            return self.ty(&members[0], &format!("{ptr}/{key}/0"), hint, depth + 1);
        }
        if types.iter().all(|t| t == "string" || t == "datetime") {
            return Ok("string".into());
        }
        self.untagged(key, members, s, ptr, hint, depth)
    }

    /// A `oneOf`/`anyOf` without a discriminator: an untagged union, its variants in the order
    /// written. A client reads an object as the object variant naming most of its keys
    /// (`tidings_runtime::union::fit_order`), so the order matters only between equals
    /// (OpenAPI's `oneOf` asks for exactly one match; the spec cannot say that, so it is
    /// reported).
    pub(super) fn untagged(
        &mut self,
        key: &str,
        members: &[Value],
        s: &Value,
        ptr: &str,
        hint: &str,
        depth: usize,
    ) -> Result<String, String> {
        let name = self.inline_name(hint);
        self.types.insert(name.clone(), TypeOut::Pending);
        let mut variants = Vec::new();
        let mut keys = BTreeSet::new();
        let hints = member_hints(&name, members);
        for (i, m) in members.iter().enumerate() {
            let mptr = format!("{ptr}/{key}/{i}");
            let ty = match self.ty(m, &mptr, &hints[i], depth + 1) {
                Ok(t) => t,
                Err(reason) => {
                    self.skip(&mptr, "union variant type not mappable", Some(&reason));
                    continue;
                }
            };
            // Named for what tells it apart from its siblings: `sms_inbound`, not
            // `inbound_message_sms_inbound`, for `InboundMessageSmsInbound` of `InboundMessage`.
            let own = ty
                .strip_prefix(name.as_str())
                .filter(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
                .unwrap_or(&ty);
            let base = crate::names::snake(&own.replace(['<', '>'], " "));
            let base = if base.is_empty() {
                "variant".to_owned()
            } else {
                base
            };
            let mut tag = base.clone();
            let mut n = 2;
            while !keys.insert(tag.clone()) {
                tag = format!("{base}_{n}");
                n += 1;
            }
            variants.push(VariantOut {
                tag,
                ty: Some(ty),
                name: None,
            });
        }
        if variants.is_empty() {
            self.types.shift_remove(&name);
            self.approximate(
                ptr,
                &format!("{key} with no mappable member; typed as json"),
            );
            return Ok("json".into());
        }
        self.approximate(
            ptr,
            &format!(
                "{key} without a discriminator: an untagged union, read as the variant that fits best (an object: the one naming most of its keys)"
            ),
        );
        self.types.insert(
            name.clone(),
            TypeOut::Union {
                doc: description(s),
                untagged: true,
                tag: String::new(),
                content: None,
                variants,
                pointer: ptr.to_owned(),
            },
        );
        Ok(name)
    }

    /// The variant of a union whose member is the union's base: an object of the base's
    /// fields, named after the member's component (memoized, so other references share it),
    /// or after the variant when the member is the base itself.
    fn base_fields(
        &mut self,
        union: &str,
        member: &Value,
        resolved: &Value,
        variant_hint: &str,
        ptr: &str,
        depth: usize,
    ) -> Result<String, String> {
        // The base itself in its own mapping: its fields under the variant's name.
        let raw = member
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(component_of)
            .filter(|r| self.component_name(r) != union);
        let hint = raw
            .as_deref()
            .map(|r| self.component_name(r))
            .unwrap_or_else(|| variant_hint.to_owned());
        let mut schema = resolved.clone();
        if let Some(obj) = schema.as_object_mut() {
            obj.remove("discriminator");
            obj.remove("oneOf");
            obj.remove("anyOf");
        }
        let ptr = raw
            .as_deref()
            .map(|r| format!("/components/schemas/{}", escape(r)))
            .unwrap_or_else(|| ptr.to_owned());
        let outer = self.claim.replace(hint.clone());
        let t = self.object(&hint, &schema, &ptr, depth + 1);
        self.claim = outer;
        let t = t?;
        if let Some(raw) = raw {
            self.memo.insert(raw, t.clone());
        }
        Ok(t)
    }

    /// A tagged union from a discriminator: each member must be an object (named or inline).
    pub(super) fn union(
        &mut self,
        hint: &str,
        tag: &str,
        members: &[Value],
        s: &Value,
        ptr: &str,
        depth: usize,
    ) -> Result<String, String> {
        let name = self.inline_name(hint);
        self.types.insert(name.clone(), TypeOut::Pending);
        match self.union_body(&name, tag, members, s, ptr, depth) {
            Ok(t) => {
                self.types.insert(name.clone(), t);
                Ok(name)
            }
            Err(e) => {
                self.types.shift_remove(&name);
                Err(e)
            }
        }
    }

    pub(super) fn union_body(
        &mut self,
        name: &str,
        tag: &str,
        members: &[Value],
        s: &Value,
        ptr: &str,
        depth: usize,
    ) -> Result<TypeOut, String> {
        let mapping: Vec<(String, String)> = s
            .get("discriminator")
            .and_then(|d| d.get("mapping"))
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                    .collect()
            })
            .unwrap_or_default();
        // Our own exports wrap each variant (`{tag: const, content: X}` or `allOf: [X]`) and
        // say where the content sits.
        let wrapped = s.get("x-open-union").is_some();
        let content = s
            .get("x-content")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut entries: Vec<(String, Value, String)> = Vec::new();
        if !mapping.is_empty() {
            for (value, r) in &mapping {
                let r = if r.starts_with('#') {
                    r.clone()
                } else {
                    format!("{COMPONENT_PREFIX}{r}")
                };
                entries.push((
                    value.clone(),
                    serde_json::json!({ "$ref": r }),
                    format!("{ptr}/discriminator/mapping/{}", escape(value)),
                ));
            }
        } else {
            for (i, m) in members.iter().enumerate() {
                let mptr = format!("{ptr}/oneOf/{i}");
                // The value the member fixes for the tag (through its `allOf` parts: the
                // shared base rarely carries it), else the implicit mapping, its name.
                // A member whose tag property lists every value (Vonage's report products,
                // each schema's `product` enum the eight of them) is the one its name says,
                // when its name is one of them: the first value made each the first product.
                let named = m.get("$ref").and_then(Value::as_str).and_then(component_of);
                let listed = |v: &str| tag_lists(self.doc, m, tag, v, 0);
                let value = fixed_tag_value(self.doc, m, tag, true, 0)
                    .map(str::to_owned)
                    .or_else(|| named.clone().filter(|n| listed(n)))
                    .or_else(|| fixed_tag_value(self.doc, m, tag, false, 0).map(str::to_owned))
                    .or(named);
                match value {
                    // Two members of one tag value: the second is never read (it silently
                    // replaced the first).
                    Some(v) if entries.iter().any(|(held, ..)| *held == v) => self.skip(
                        &mptr,
                        &format!("union member with the tag value `{v}` of an earlier one"),
                        None,
                    ),
                    Some(v) => entries.push((v, m.clone(), mptr)),
                    None => self.skip(&mptr, "union member without a tag value", None),
                }
            }
        }
        let mut variants = Vec::new();
        let mut rust_names = BTreeSet::new();
        for (i, (value, member, mptr)) in entries.iter().enumerate() {
            let resolved = match member.get("$ref").and_then(Value::as_str) {
                Some(r) => resolve(self.doc, r).cloned(),
                None => Some(member.clone()),
            };
            let Some(resolved) = resolved else {
                self.skip(mptr, "union member $ref points at nothing", None);
                continue;
            };
            let variant_hint = format!("{name}{}", type_name(value));
            let ty = if wrapped {
                match (&content, resolved.get("allOf").and_then(|a| a.get(0))) {
                    (Some(field), _) => match resolved.get("properties").and_then(|p| p.get(field))
                    {
                        Some(inner) => Some(self.ty(
                            inner,
                            &format!("{mptr}/properties/{field}"),
                            &variant_hint,
                            depth + 1,
                        )?),
                        None => None,
                    },
                    (None, Some(inner)) => Some(self.ty(
                        inner,
                        &format!("{mptr}/allOf/0"),
                        &variant_hint,
                        depth + 1,
                    )?),
                    (None, None) => None,
                }
            } else {
                let t = self.ty(member, mptr, &variant_hint, depth + 1)?;
                if t == name {
                    // A subtype that adds nothing to its base (`allOf: [base]`, or the base
                    // itself in the mapping): the base's own fields, not the union again.
                    Some(self.base_fields(name, member, &resolved, &variant_hint, mptr, depth)?)
                } else {
                    Some(t)
                }
            };
            if let (Some(t), None) = (&ty, &content) {
                let fits = match self.types.get(t.as_str()) {
                    Some(TypeOut::Object { .. } | TypeOut::Pending) => true,
                    Some(TypeOut::Union { tag: inner_tag, .. }) => inner_tag != tag,
                    _ => false,
                };
                if !fits {
                    return Err(format!("variant `{value}` is not an object"));
                }
            }
            let ref_name = member
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.rsplit('/').next())
                .map(unescape);
            let derived = pascal(value);
            let mut rust = if wrapped {
                // Variant components are named `Union_Variant`.
                ref_name
                    .as_deref()
                    .map(|n| type_name(n.rsplit('_').next().unwrap_or(n)))
                    .unwrap_or_else(|| derived.clone())
            } else if is_pascal(&derived) {
                derived.clone()
            } else {
                ref_name.as_deref().map(type_name).unwrap_or_default()
            };
            if rust == "Unknown" || !is_pascal(&rust) || rust_names.contains(&rust) {
                rust = format!("Variant{i}");
            }
            if !rust_names.insert(rust.clone()) {
                continue;
            }
            let explicit = (rust != derived).then_some(rust);
            variants.push(VariantOut {
                tag: value.clone(),
                ty,
                name: explicit,
            });
        }
        if variants.is_empty() {
            return Err("no variant could be mapped".into());
        }
        Ok(TypeOut::Union {
            doc: description(s),
            untagged: false,
            tag: tag.to_owned(),
            content,
            variants,
            pointer: ptr.to_owned(),
        })
    }
}

/// The scalar type every member's `const` has, when each member is a `const` and nothing
/// else (a `title` or a description beside it): `integer`, `number`, `string` or `boolean`.
fn const_scalars(doc: &Value, members: &[Value]) -> Option<&'static str> {
    let mut kind = None;
    for m in members {
        let m = match m.get("$ref").and_then(Value::as_str) {
            Some(r) => resolve(doc, r)?,
            None => m,
        };
        let object = m.as_object()?;
        let plain = object.keys().all(|k| {
            matches!(
                k.as_str(),
                "const" | "title" | "description" | "type" | "format" | "deprecated"
            )
        });
        if !plain {
            return None;
        }
        let this = match object.get("const")? {
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Bool(_) => "boolean",
            _ => return None,
        };
        kind = match (kind, this) {
            (None, t) => Some(t),
            (Some("integer"), "number") | (Some("number"), "integer") => Some("number"),
            (Some(k), t) if k == t => Some(k),
            _ => return None,
        };
    }
    kind
}

/// The text value `schema` fixes for property `tag`: a `const`, or an `enum`'s value (its one
/// value when `single`, else its first), in its own properties or in those of an `allOf`
/// part, following `$ref`s (a bounded number of them).
fn fixed_tag_value<'a>(
    doc: &'a Value,
    schema: &'a Value,
    tag: &str,
    single: bool,
    depth: usize,
) -> Option<&'a str> {
    const MAX_DEPTH: usize = 8;
    if depth > MAX_DEPTH {
        return None;
    }
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(doc, r)?,
        None => schema,
    };
    let own = schema
        .get("properties")
        .and_then(|p| p.get(tag))
        .and_then(|t| {
            let t = match t.get("$ref").and_then(Value::as_str) {
                Some(r) => resolve(doc, r)?,
                None => t,
            };
            let values = t.get("enum").and_then(Value::as_array);
            t.get("const")
                .or_else(|| values.filter(|v| !single || v.len() == 1)?.first())
                .and_then(Value::as_str)
        });
    own.or_else(|| {
        schema
            .get("allOf")?
            .as_array()?
            .iter()
            .find_map(|part| fixed_tag_value(doc, part, tag, single, depth + 1))
    })
}

/// Whether `schema` lists `value` among the values of its property `tag` (an `enum`), in its
/// own properties or an `allOf` part's, following `$ref`s (a bounded number of them).
fn tag_lists(doc: &Value, schema: &Value, tag: &str, value: &str, depth: usize) -> bool {
    if depth > 8 {
        return false;
    }
    let schema = match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => match resolve(doc, r) {
            Some(s) => s,
            None => return false,
        },
        None => schema,
    };
    let own = schema
        .get("properties")
        .and_then(|p| p.get(tag))
        .is_some_and(|t| {
            let t = match t.get("$ref").and_then(Value::as_str) {
                Some(r) => resolve(doc, r).unwrap_or(t),
                None => t,
            };
            t.get("enum")
                .and_then(Value::as_array)
                .is_some_and(|values| values.iter().any(|v| v.as_str() == Some(value)))
        });
    own || schema
        .get("allOf")
        .and_then(Value::as_array)
        .is_some_and(|parts| {
            parts
                .iter()
                .any(|p| tag_lists(doc, p, tag, value, depth + 1))
        })
}

/// The name hints of the inline members of union `name`, each from [`member_own_name`], else
/// its position (`InboundMessage2`).
fn member_hints(name: &str, members: &[Value]) -> Vec<String> {
    let own: Vec<Option<String>> = members.iter().map(member_own_name).collect();
    // Members that are unions of their own are named by the reference all their members
    // share, less the words those references share with each other: Vonage's WhatsApp,
    // Viber and Messenger kinds (`channelOptionsWhatsapp`, `channelOptionsViber`, ...)
    // are `MessageWhatsapp`, `MessageViber`, not `Message2`, `Message3`.
    let grouped: Vec<Option<Vec<String>>> = members
        .iter()
        .map(|m| {
            shared_reference(m).map(|r| {
                crate::names::snake(r)
                    .split('_')
                    .map(str::to_owned)
                    .collect()
            })
        })
        .collect();
    let groups: Vec<&Vec<String>> = grouped.iter().flatten().collect();
    let common: BTreeSet<&String> = match groups.split_first() {
        Some((first, rest)) if !rest.is_empty() => first
            .iter()
            .filter(|w| rest.iter().all(|g| g.contains(w)))
            .collect(),
        _ => BTreeSet::new(),
    };
    let group_name = |words: &Vec<String>| {
        let kept: Vec<&str> = words
            .iter()
            .filter(|w| !common.contains(w))
            .map(String::as_str)
            .collect();
        let kept = if kept.is_empty() {
            words.iter().map(String::as_str).collect()
        } else {
            kept
        };
        type_name(&kept.join("_"))
    };
    own.into_iter()
        .zip(&grouped)
        .enumerate()
        .map(|(i, (own, group))| {
            let own = own.or_else(|| group.as_ref().map(group_name));
            match own {
                Some(own) if !own.is_empty() => format!("{name}{own}"),
                _ => format!("{name}{}", i + 1),
            }
        })
        .collect()
}

/// What an inline union member calls itself: its `title`, or for an `allOf` of references
/// the last one (the most specific: Vonage's `allOf: [inbound-common, SmsInbound]` is
/// `InboundMessageSmsInbound`).
fn member_own_name(member: &Value) -> Option<String> {
    let titled = member.get("title").and_then(Value::as_str);
    titled
        .or_else(|| last_reference(member))
        .map(type_name)
        .filter(|own| !own.is_empty())
}

/// The last `$ref` of an `allOf`: its schema's name.
fn last_reference(member: &Value) -> Option<&str> {
    member
        .get("allOf")?
        .as_array()?
        .iter()
        .rev()
        .find_map(|m| m.get("$ref")?.as_str())?
        .rsplit('/')
        .next()
}

/// For a member that is a `oneOf`/`anyOf` of `allOf`s, the last reference every one of
/// them holds (Vonage's WhatsApp kinds all hold `channelOptionsWhatsapp`).
fn shared_reference(member: &Value) -> Option<&str> {
    let inner = member
        .get("oneOf")
        .or_else(|| member.get("anyOf"))?
        .as_array()?;
    let (first, rest) = inner.split_first()?;
    let refs = |m: &'_ Value| -> Vec<String> {
        m.get("allOf")
            .and_then(Value::as_array)
            .map(|all| {
                all.iter()
                    .filter_map(|a| a.get("$ref")?.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let others: Vec<Vec<String>> = rest.iter().map(refs).collect();
    let first_all = first.get("allOf")?.as_array()?;
    first_all
        .iter()
        .rev()
        .filter_map(|a| a.get("$ref")?.as_str())
        .find(|r| others.iter().all(|o| o.iter().any(|x| x == r)))?
        .rsplit('/')
        .next()
}

/// What an object's `anyOf`/`oneOf` means when each alternative holds nothing but a
/// `required` list of the object's own properties ("send at least one of these"): the report's
/// line, the spec language having no such construct. `None` when it is a real union.
pub(super) fn required_only_alternatives(s: &Value) -> Option<String> {
    let properties = s.get("properties")?.as_object()?;
    let (key, members) = ["anyOf", "oneOf"]
        .into_iter()
        .find_map(|k| Some((k, s.get(k)?.as_array()?)))?;
    let mut names = Vec::new();
    for m in members {
        let m = m.as_object()?;
        if m.keys()
            .any(|k| !matches!(k.as_str(), "required" | "description" | "title"))
        {
            return None;
        }
        let required = m.get("required")?.as_array()?;
        let group: Vec<&str> = required.iter().map(Value::as_str).collect::<Option<_>>()?;
        if group.is_empty() || group.iter().any(|n| !properties.contains_key(*n)) {
            return None;
        }
        names.push(
            group
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" and "),
        );
    }
    let how = if key == "anyOf" {
        "at least"
    } else {
        "exactly"
    };
    Some(format!(
        "`{key}` of alternatives that only require fields: {how} one of {} must be sent \
         (needs spec construct: one of several fields required); the object keeps its \
         properties, those optional",
        names.join(", ")
    ))
}

/// An object whose `properties` (and their `required`) sit beside a `oneOf`/`anyOf` with no
/// discriminator, with each alternative read as `allOf` of those properties and itself: JSON
/// Schema asks a value to fit the object and an alternative, so every alternative has them
/// (Intercom's `create_data_attribute_request`: `name`, `model` and `data_type` required
/// beside its two kinds of attribute). Read as the alternatives alone, the properties and
/// their `required` were dropped and `{}` was accepted. `None` when there is nothing to
/// spread, a discriminator (the tagged path reads the members as written), or an alternative
/// that cannot be an object (a scalar beside properties says something else).
pub(super) fn properties_into_alternatives(s: &Value) -> Option<Value> {
    if s.get("discriminator").is_some() || s.get("properties").is_none() {
        return None;
    }
    let (key, members) = ["oneOf", "anyOf"]
        .into_iter()
        .find_map(|k| Some((k, s.get(k)?.as_array()?)))?;
    let object_like = |m: &Value| {
        m.get("$ref").is_some()
            || m.get("properties").is_some()
            || m.get("allOf").is_some()
            || m.get("required").is_some()
            || m.get("type").and_then(Value::as_str) == Some("object")
    };
    if members.is_empty() || !members.iter().all(object_like) {
        return None;
    }
    let mut base = s.clone();
    let mut out = s.clone();
    let (b, o) = (base.as_object_mut()?, out.as_object_mut()?);
    for k in [
        "oneOf",
        "anyOf",
        "description",
        "title",
        "example",
        "examples",
    ] {
        b.remove(k);
    }
    for k in ["properties", "required"] {
        o.remove(k);
    }
    // Each alternative keeps its own title and description (what names its type).
    let spread = members
        .iter()
        .map(|m| {
            let mut one = serde_json::json!({ "allOf": [base.clone(), m.clone()] });
            for k in ["title", "description"] {
                if let (Some(v), Some(o)) = (m.get(k), one.as_object_mut()) {
                    o.insert(k.to_owned(), v.clone());
                }
            }
            one
        })
        .collect();
    o.insert(key.to_owned(), Value::Array(spread));
    Some(out)
}
