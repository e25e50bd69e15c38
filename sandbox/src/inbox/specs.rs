//! The specs served with `--spec`, as the inbox shows them: every call each one answered (what
//! was asked, what was answered; never a credential) and the resources each one holds.

use super::*;

/// What the inbox reads of a served spec: where it listens and what its store holds. Held by
/// the inbox while the spec is served; the served spec registers it ([`Inbox::serve_spec`]).
pub(crate) trait ServedView: Send + Sync + 'static {
    /// Its base URL.
    fn base_url(&self) -> String;
    /// Its collections, each with the number of items it holds, in name order.
    fn collections(&self) -> Vec<(String, usize)>;
    /// Items `skip..skip + take` of `collection` (oldest first) and how many it holds; `None`
    /// when it has no such collection.
    fn items(
        &self,
        collection: &str,
        skip: usize,
        take: usize,
    ) -> Option<(usize, Vec<serde_json::Value>)>;
}

/// One call a served spec answered, as the router saw it ([`Inbox::record_call`]).
pub(crate) struct CallSeen<'a> {
    pub(crate) service: &'a str,
    pub(crate) operation: Option<&'a str>,
    pub(crate) method: &'a str,
    /// The path and query, credentials already redacted.
    pub(crate) path: &'a str,
    pub(crate) status: u16,
    /// `None`: not kept (a token endpoint's).
    pub(crate) request_body: Option<&'a [u8]>,
    pub(crate) response_body: Option<&'a [u8]>,
}

/// The first [`MAX_CALL_BODY_BYTES`] of `body` as text (lossy UTF-8), and whether it was cut.
fn kept_body(body: Option<&[u8]>) -> (String, bool) {
    match body {
        None => ("(not kept: it carries credentials)".to_owned(), false),
        Some(body) => {
            let cut = body.len() > MAX_CALL_BODY_BYTES;
            let kept = &body[..body.len().min(MAX_CALL_BODY_BYTES)];
            (String::from_utf8_lossy(kept).into_owned(), cut)
        }
    }
}

/// `path` cut to its first [`MAX_CALL_PATH_BYTES`] (at a character boundary, marked with `…`),
/// and whether it was cut.
fn kept_path(path: &str) -> (String, bool) {
    if path.len() <= MAX_CALL_PATH_BYTES {
        return (path.to_owned(), false);
    }
    let mut end = MAX_CALL_PATH_BYTES;
    while !path.is_char_boundary(end) {
        end -= 1;
    }
    (format!("{}…", &path[..end]), true)
}

impl Inbox {
    /// Shows the spec `service` (its base URL and resources) while `view` lives.
    pub(crate) fn serve_spec(&self, service: &str, view: Arc<dyn ServedView>) {
        lock_ignoring_poison(&self.inner.specs).insert(service.to_owned(), view);
    }

    /// Records one call a served spec answered.
    pub(crate) fn record_call(&self, seen: &CallSeen<'_>) {
        let (request_body, cut_request) = kept_body(seen.request_body);
        let (response_body, cut_response) = kept_body(seen.response_body);
        let (path, cut_path) = kept_path(seen.path);
        let mut state = self.state();
        state.seq += 1;
        let record = ApiCallRecord {
            id: state.seq.to_string(),
            seq: state.seq,
            service: seen.service.to_owned(),
            operation: seen.operation.map(str::to_owned),
            method: seen.method.to_owned(),
            path,
            status: seen.status,
            request_body,
            response_body,
            truncated: cut_request || cut_response || cut_path,
            created_at: now_rfc3339(),
            created_ms: now_ms(),
        };
        let saved = record.clone();
        self.persist(move |db| db.put_call(&saved));
        let id = record.id.clone();
        state.calls.push_back(record);
        self.prune(&mut state);
        drop(state);
        self.changed("call", "new", &id);
    }

    /// The calls to served specs, newest first; only `service`'s when given.
    pub fn api_calls(&self, service: Option<&str>) -> Vec<ApiCallRecord> {
        self.state()
            .calls
            .iter()
            .rev()
            .filter(|c| service.is_none_or(|s| c.service == s))
            .cloned()
            .collect()
    }

    /// The specs served, in name order: name, base URL and collections with their item counts.
    pub fn served_specs(&self) -> Vec<serde_json::Value> {
        let specs: Vec<(String, Arc<dyn ServedView>)> = lock_ignoring_poison(&self.inner.specs)
            .iter()
            .map(|(name, view)| (name.clone(), view.clone()))
            .collect();
        specs
            .into_iter()
            .map(|(name, view)| {
                let collections: Vec<serde_json::Value> = view
                    .collections()
                    .into_iter()
                    .map(|(name, items)| serde_json::json!({"name": name, "items": items}))
                    .collect();
                serde_json::json!({
                    "name": name,
                    "base_url": view.base_url(),
                    "collections": collections,
                })
            })
            .collect()
    }

    /// Items `skip..skip + take` of a served spec's collection and how many it holds; `None`
    /// when no spec or collection has that name.
    pub fn served_items(
        &self,
        service: &str,
        collection: &str,
        skip: usize,
        take: usize,
    ) -> Option<(usize, Vec<serde_json::Value>)> {
        let view = lock_ignoring_poison(&self.inner.specs)
            .get(service)
            .cloned()?;
        view.items(collection, skip, take)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call<'a>(path: &'a str, body: &'a [u8]) -> CallSeen<'a> {
        CallSeen {
            service: "notes",
            operation: Some("create_note"),
            method: "POST",
            path,
            status: 201,
            request_body: Some(body),
            response_body: Some(b"{}"),
        }
    }

    #[test]
    fn a_calls_bodies_are_cut_and_the_oldest_calls_pruned() {
        let inbox = Inbox::in_memory(Retention::default().max_records(2));
        let big = vec![b'x'; MAX_CALL_BODY_BYTES + 1];
        inbox.record_call(&call("/v1/notes?n=1", &big));
        let kept = &inbox.api_calls(None)[0];
        assert_eq!(kept.request_body.len(), MAX_CALL_BODY_BYTES);
        assert!(kept.truncated);
        for n in 2..=4 {
            inbox.record_call(&call(&format!("/v1/notes?n={n}"), b"{}"));
        }
        let paths: Vec<String> = inbox.api_calls(None).into_iter().map(|c| c.path).collect();
        assert_eq!(
            paths,
            ["/v1/notes?n=4", "/v1/notes?n=3"],
            "newest first, two kept"
        );
        assert!(!inbox.api_calls(None)[0].truncated);
        assert_eq!(inbox.counts().calls, 2);
        // A path of 60 KB (the HTTP server takes up to 64 KiB) is kept to its first 2 KiB.
        let long = format!("/v1/notes/{}é", "a".repeat(60_000));
        inbox.record_call(&call(&long, b"{}"));
        let kept = &inbox.api_calls(None)[0];
        assert!(kept.truncated);
        assert!(kept.path.len() <= MAX_CALL_PATH_BYTES + '…'.len_utf8());
        assert!(kept.path.starts_with("/v1/notes/aaa") && kept.path.ends_with('…'));
        assert!(inbox.api_calls(Some("other")).is_empty());
    }
}
