//! Changes to a held item: a `PATCH` body merged in.

use serde_json::{Map, Value};

/// `patch` merged into `target` field by field at the top: each field sent replaces the one
/// held, whole (an object too), and `null` removes it. Documents disagree below the top
/// (Front's `custom_fields` are replaced whole, Svix merges its endpoint headers as a JSON
/// merge patch does) and say so only in prose, so the sandbox keeps to what both agree on.
pub(super) fn merge_patch(target: &mut Map<String, Value>, patch: Map<String, Value>) {
    for (key, value) in patch {
        if value.is_null() {
            target.remove(&key);
        } else {
            target.insert(key, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_patch_replaces_each_top_level_field_it_sends_and_null_removes() {
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
        }) else {
            unreachable!()
        };
        merge_patch(&mut held, patch);
        assert_eq!(
            Value::Object(held),
            json!({"custom_fields": {"tier": "silver"}, "tags": ["z"], "kept": 1})
        );
    }
}
