//! What a hand-written service reads of the store beside the operations it serves: one item
//! picked by its values, or every item of a collection as a value of its spec type (the
//! email service's suppressions on each send, its webhook endpoints on each event).

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::Resources;

impl Resources {
    /// The oldest item of `collection` that `pick` chooses, as stored; `None` when there is
    /// none (or no such collection). Only that item is copied.
    ///
    /// ```
    /// use tidings_sandbox::server::resources::{ResourceLimits, Resources};
    /// let store = Resources::new(ResourceLimits::default());
    /// assert!(store.find("/v1/suppressions", |item| item.contains_key("email")).is_none());
    /// ```
    pub fn find(
        &self,
        collection: &str,
        pick: impl Fn(&Map<String, Value>) -> bool,
    ) -> Option<Value> {
        let state = self.lock();
        let found = state
            .collections
            .get(collection)?
            .iter()
            .find(|item| pick(&item.value))?;
        Some(Value::Object(found.value.clone()))
    }

    /// Every item of `collection` as a `T`, oldest first (none when there is no such
    /// collection). An item that is not a `T` (written by a client through an operation whose
    /// body type differs) is skipped with a warning, never answered half-read.
    pub fn all_as<T: DeserializeOwned>(&self, collection: &str) -> Vec<T> {
        let items = self
            .items(collection, 0, usize::MAX)
            .map(|(_, items)| items);
        items
            .into_iter()
            .flatten()
            .filter_map(|item| match serde_json::from_value(item) {
                Ok(value) => Some(value),
                Err(e) => {
                    tracing::warn!(collection, error = %e, "resource store: an item is not of its collection's type; skipped");
                    None
                }
            })
            .collect()
    }
}
