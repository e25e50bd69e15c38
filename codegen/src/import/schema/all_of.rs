//! The fields of an object gathered through its `allOf` members and `$ref`s: every member
//! holds at once, so an object property said twice holds both.

use std::collections::BTreeSet;

use indexmap::IndexMap;
use serde_json::Value;

use super::super::document::{escape, resolve};
use super::{Converter, MAX_SCHEMA_DEPTH, says_what_it_is, unwrap_nullable};

/// The key of an `allOf` the import makes of an object property said twice (see `collect`):
/// where in the document each member is.
const MEMBER_POINTERS: &str = "x-tidings-member-pointers";

impl Converter<'_> {
    /// Gathers the properties and required names of an object, through `allOf` and `$ref`s.
    pub(super) fn collect(
        &mut self,
        schema: &Value,
        ptr: &str,
        props: &mut IndexMap<String, (Value, String)>,
        required: &mut BTreeSet<String>,
        depth: usize,
        seen: &mut BTreeSet<String>,
    ) {
        if depth > MAX_SCHEMA_DEPTH {
            return;
        }
        let (s, _) = unwrap_nullable(schema);
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            if !seen.insert(r.to_owned()) {
                return;
            }
            if let Some(target) = r.starts_with('#').then(|| resolve(self.doc, r)).flatten() {
                let target = target.clone();
                self.collect(
                    &target,
                    r.trim_start_matches('#'),
                    props,
                    required,
                    depth + 1,
                    seen,
                );
            } else {
                self.skip(
                    ptr,
                    "external or missing $ref in allOf not followed",
                    Some(r),
                );
            }
            return;
        }
        if let Some(Value::Array(all)) = s.get("allOf") {
            // Where the members of an `allOf` made here are in the document.
            let at = s.get(MEMBER_POINTERS).and_then(Value::as_array);
            for (i, member) in all.iter().enumerate() {
                // Our exports' rules across fields (`x-rule`) constrain, they add no field.
                if member.get("x-rule").is_some() {
                    continue;
                }
                let member_ptr = match at.and_then(|a| a.get(i)).and_then(Value::as_str) {
                    Some(at) => at.to_owned(),
                    None => format!("{ptr}/allOf/{i}"),
                };
                self.collect(member, &member_ptr, props, required, depth + 1, seen);
            }
        }
        if (s.get("oneOf").is_some() || s.get("anyOf").is_some()) && depth > 0 {
            self.approximate(ptr, "oneOf/anyOf inside allOf: needs spec construct: untagged union; the alternatives' fields are kept as other keys (`additional: json`)");
            self.alternatives_in_all_of = true;
        }
        if let Some(Value::Object(p)) = s.get("properties") {
            for (k, v) in p {
                // Every member of an `allOf` holds at once: a later member that names a field
                // without saying what it is (Zulip's `result: {}` beside the `JsonSuccessBase`
                // that types it) adds nothing, and keeps the type said before.
                if props.contains_key(k) && !says_what_it_is(v) {
                    continue;
                }
                let at = format!("{ptr}/properties/{}", escape(k));
                // An object said again holds both (Zenvia's batch `message`: the base's
                // requires `from`, the channel's adds `contents`; the second replaced the
                // first, and `from` was neither there nor required).
                if let Some((before, before_at)) = props.get(k)
                    && self.objectish(before)
                    && self.objectish(v)
                {
                    let both = serde_json::json!({ "allOf": [before.clone(), v.clone()],
                        MEMBER_POINTERS: [before_at.clone(), at.clone()] });
                    props.insert(k.clone(), (both, at));
                    continue;
                }
                props.insert(k.clone(), (v.clone(), at));
            }
        }
        if let Some(Value::Array(r)) = s.get("required") {
            required.extend(r.iter().filter_map(Value::as_str).map(str::to_owned));
        }
    }

    /// Whether `schema` (or what its local `$ref` names) describes an object by its fields:
    /// `properties`, or an `allOf` of them.
    fn objectish(&self, schema: &Value) -> bool {
        let (s, _) = unwrap_nullable(schema);
        let s = match s.get("$ref").and_then(Value::as_str) {
            Some(r) if r.starts_with('#') => match resolve(self.doc, r) {
                Some(target) => unwrap_nullable(target).0,
                None => return false,
            },
            Some(_) => return false,
            None => s,
        };
        s.get("properties").is_some_and(Value::is_object) || s.get("allOf").is_some()
    }
}
