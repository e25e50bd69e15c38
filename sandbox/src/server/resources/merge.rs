//! Changes to a held item: a `PATCH` body merged in as a JSON merge patch.

use serde_json::{Map, Value};

/// `patch` merged into `target` as a JSON merge patch (RFC 7396) is: an object into the
/// object it names (or into a new one), field by field, at any depth; `null` removes;
/// anything else (a list too) replaces. A `PATCH` of `{"headers": {"X-Bar": "2"}}` keeps the
/// headers set before.
pub(super) fn merge_patch(target: &mut Map<String, Value>, patch: Map<String, Value>) {
    for (key, value) in patch {
        match value {
            Value::Null => {
                target.remove(&key);
            }
            Value::Object(inner) => {
                let held = target
                    .entry(key)
                    .and_modify(|v| {
                        if !v.is_object() {
                            *v = Value::Object(Map::new());
                        }
                    })
                    .or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(held) = held {
                    merge_patch(held, inner);
                }
            }
            value => {
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
    fn a_merge_patch_merges_objects_at_every_depth_removes_nulls_and_replaces_lists() {
        let Value::Object(mut held) = json!({
            "name": "a",
            "headers": {"X-Foo": "1", "X-Gone": "2"},
            "tags": ["x", "y"],
            "deep": {"one": {"two": 2, "keep": true}},
        }) else {
            unreachable!()
        };
        let Value::Object(patch) = json!({
            "headers": {"X-Bar": "3", "X-Gone": null},
            "tags": ["z"],
            "deep": {"one": {"two": 3}},
            "name": null,
            "headers_too": {"new": {"a": null}},
        }) else {
            unreachable!()
        };
        merge_patch(&mut held, patch);
        assert_eq!(
            Value::Object(held),
            json!({
                "headers": {"X-Foo": "1", "X-Bar": "3"},
                "tags": ["z"],
                "deep": {"one": {"two": 3, "keep": true}},
                "headers_too": {"new": {}},
            })
        );
    }
}
