//! Fresh ids in what the store answers: an id-like field of the answer, or one in each item
//! of its lists (what a send or a batch made).

use serde_json::Value;
use tidings_spec::id_like;

use super::{FieldSchema, Format, Resources, ServiceSchema, Ty};

impl Resources {
    /// A fresh id for the text field `field`: a UUID when its format or name says so, else
    /// `res_` and the store's next number, padded or shortened to the field's lengths (Twilio's
    /// 34-character SIDs), so a client can send it back where the spec bounds it.
    fn fresh_id(&self, field: &FieldSchema) -> Value {
        let n = {
            let mut state = self.lock();
            state.next_id += 1;
            state.next_id
        };
        let uuid =
            field.format == Some(Format::Uuid) || field.name.to_ascii_lowercase().ends_with("uuid");
        Value::String(if uuid {
            format!("00000000-0000-4000-8000-{n:012x}")
        } else {
            super::shape::field_id(n, field)
        })
    }

    /// `answer` with a fresh id in each text field its type names like an id (the `job_id`
    /// of SendGrid's contact upsert).
    pub(super) fn fresh_ids(&self, schema: &ServiceSchema, ty: &Ty, mut answer: Value) -> Value {
        let (Some(fields), Value::Object(map)) = (schema.object_fields(ty), &mut answer) else {
            return answer;
        };
        for f in fields
            .iter()
            .filter(|f| id_like(f.name) && f.ty == Ty::String)
        {
            map.insert(f.name.to_owned(), self.fresh_id(f));
        }
        answer
    }

    /// `answer` with a fresh id in each item of its list fields whose type has an id-like
    /// text field the item lacks (the messages a send made, each with its `messageId`).
    /// An answer that is itself such a list (Mandrill's send results) gets them too.
    pub(super) fn item_ids(&self, schema: &ServiceSchema, ty: &Ty, mut answer: Value) -> Value {
        match (ty, &mut answer) {
            (Ty::List(item), Value::Array(items)) => self.ids_in(schema, item, items),
            (_, Value::Object(map)) => {
                for f in schema.object_fields(ty).unwrap_or_default() {
                    if let (Ty::List(item), Some(Value::Array(items))) = (f.ty, map.get_mut(f.name))
                    {
                        self.ids_in(schema, item, items);
                    }
                }
            }
            _ => {}
        }
        answer
    }

    /// A fresh id in each of `items` (of type `item`) that lacks one: in the item's text
    /// field `id`, else its first id-like field the service makes (text, or a number: WinSMS's
    /// `apiMessageId`), never one the client names its own things by (its `clientMessageId`,
    /// which a recipient sent without one got made up, and the service's id none).
    fn ids_in(&self, schema: &ServiceSchema, item: &Ty, items: &mut [Value]) {
        let text_id = |i: &&FieldSchema| id_like(i.name) && i.ty == Ty::String;
        let made_id = |i: &&FieldSchema| {
            id_like(i.name) && matches!(i.ty, Ty::String | Ty::Integer) && !clients_own(i.name)
        };
        let Some(id) = schema.object_fields(item).and_then(|fs| {
            fs.iter()
                .filter(text_id)
                .find(|i| i.name.eq_ignore_ascii_case("id"))
                .or_else(|| fs.iter().find(made_id))
        }) else {
            return;
        };
        for entry in items.iter_mut().filter_map(Value::as_object_mut) {
            if entry.get(id.name).is_none_or(Value::is_null) {
                let fresh = match id.ty {
                    Ty::Integer => {
                        let mut state = self.lock();
                        state.next_id += 1;
                        Value::from(state.next_id)
                    }
                    _ => self.fresh_id(id),
                };
                entry.insert(id.name.to_owned(), fresh);
            }
        }
    }
}

/// Whether an id field names what the client calls its own thing (WinSMS's `clientMessageId`,
/// an `external_id`, a `customId`): the client's to send, never made up.
fn clients_own(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["client", "external", "custom", "reference"]
        .iter()
        .any(|w| lower.starts_with(w))
}

#[cfg(test)]
mod tests {
    use super::super::ResourceLimits;
    use super::*;

    #[test]
    fn an_id_made_in_an_answer_takes_the_length_its_field_allows() {
        let store = Resources::new(ResourceLimits::default());
        let sid = FieldSchema {
            required: true,
            min_len: Some(34),
            max_len: Some(34),
            ..FieldSchema::new("sid", Ty::String)
        };
        let made = store.fresh_id(&sid);
        assert_eq!(made.as_str().map(str::len), Some(34), "{made}");
        let short = FieldSchema {
            min_len: None,
            max_len: Some(6),
            ..sid
        };
        assert_eq!(store.fresh_id(&short), "res_02");
    }
}
