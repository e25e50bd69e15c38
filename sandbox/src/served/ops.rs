//! What a served spec is made of: its operations ready to serve with their path templates, its
//! token endpoint, and everything the handler shares between requests.

use axum::http::Method;
use tidings_codegen::check::{OperationInfo, PageStyle};

use crate::server::resources::{ResourceCall, ResourceOp, ServiceSchema, ShapeSchema, Ty};
use crate::server::{Gateway, Resources};

/// One operation, ready to serve.
pub(crate) struct ServedOp {
    pub(crate) info: OperationInfo,
    pub(crate) method: Method,
    pub(crate) template: PathTemplate,
    pub(crate) spec: &'static tidings_runtime::spec::OperationSpec,
    pub(crate) resource: ResourceOp,
    pub(crate) pages: Option<&'static tidings_runtime::spec::PaginationSpec>,
    pub(crate) body: Option<Ty>,
    /// The type of each query parameter written as its JSON text (`style: json`), by wire
    /// name: its value is read as JSON and checked as a body is.
    pub(crate) json_query: Vec<(String, Ty)>,
    /// A delete that cancels (OneSignal's `DELETE /notifications/{id}`, `cancel_notification`;
    /// Telnyx's `CancelMessage`): what it merges into the item (its `canceled` flag, its status
    /// `cancelled`, or nothing), served as a merge, where the item stays readable.
    pub(crate) cancels: Option<serde_json::Value>,
    /// For a create, the fields its body can send (see [`sendable`]).
    pub(crate) sendable: Option<&'static [&'static str]>,
    /// For a create, the item's type as its collection's read answers it, when that is
    /// another (see [`super::build::read_types`]).
    pub(crate) read_as: Option<Ty>,
    /// For a create, its collection's item path and the parameter naming the item (see
    /// `ResourceCall::item_path`).
    pub(crate) item_path: Option<(&'static str, &'static str)>,
    /// An action that makes an id others take back (see `ResourceCall::keeps_made`).
    pub(crate) keeps_made: bool,
    /// The parameter or field naming what such an action made (see
    /// `ResourceCall::names_made`).
    pub(crate) names_made: Option<&'static str>,
    /// For a create, the lists of its body that may hold the new item's children (see
    /// [`super::children::listed`]).
    pub(crate) children: Vec<Listed>,
}

impl ServedOp {
    /// The store's inputs of a call of this operation: its path parameters, query and checked
    /// body (its keys named as the answer names them).
    pub(crate) fn call(
        &self,
        schema: &ServiceSchema,
        path: Vec<(&'static str, String)>,
        query: serde_json::Value,
        body: serde_json::Value,
        merge_nested: bool,
    ) -> ResourceCall {
        ResourceCall {
            path,
            query,
            body: super::keys::named_as_answered(schema, self.resource.response.as_ref(), body),
            merge_nested,
            named_as: None,
            sendable: self.sendable,
            read_as: self.read_as,
            item_path: self.item_path,
            keeps_made: self.keeps_made,
            names_made: self.names_made,
        }
    }
}

/// A list field of a create's body whose items may be the new item's children.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    /// The body field's wire name (`Types`).
    pub(super) field: &'static str,
    /// The creates that may take its items (indexes into the served operations): the one of
    /// the collection the field names (`Participants`) alone, else each create of a
    /// collection right under the new item.
    pub(super) creates: Vec<usize>,
    /// `creates` is the one the field names.
    pub(super) named: bool,
}

/// The token endpoint of a spec whose auth is OAuth2 client credentials: hands out the one
/// access token the gateway accepts, to a client presenting the spec's client id and secret.
pub(crate) struct TokenEndpoint {
    /// Path of the token URL (`/oauth/token`).
    pub(crate) path: String,
    /// Credential names of the client id and secret.
    pub(crate) client_id: &'static str,
    pub(crate) client_secret: &'static str,
    /// The access token handed out.
    pub(crate) token: String,
}

/// Everything the handler reads, shared by every request.
pub(crate) struct Served {
    pub(crate) gateway: Gateway,
    pub(crate) token_endpoint: Option<TokenEndpoint>,
    pub(crate) schema: &'static ServiceSchema,
    pub(crate) ops: Vec<ServedOp>,
    pub(crate) store: Resources,
    /// The spec's service name.
    pub(crate) name: &'static str,
    /// Where each call is shown ([`crate::inbox::Inbox::record_call`]), when an inbox runs.
    pub(crate) inbox: Option<crate::inbox::Inbox>,
    /// Query parameters that carry a credential (`?api_key=`): never shown.
    pub(crate) secret_params: Vec<&'static str>,
    /// How the spec's error bodies differ from the gateway's.
    pub(crate) error_shape: super::shape::ErrorShape,
    /// Its webhooks, delivered on demand.
    pub(crate) webhooks: super::webhooks::Webhooks,
    /// The credentials that say who calls, not what proves it (Twilio's Basic user name, the
    /// account SID): name and value. A new item's field of that name is the caller's.
    pub(crate) caller: Vec<(String, String)>,
}

/// A path template split in segments; a segment may hold one `{param}` with literal text
/// around it (`{Sid}.json`).
#[derive(Debug, Clone)]
pub(crate) struct PathTemplate {
    segments: Vec<Segment>,
}

#[derive(Debug, Clone)]
enum Segment {
    Literal(String),
    Param {
        prefix: String,
        name: &'static str,
        suffix: String,
    },
}

impl PathTemplate {
    pub(crate) fn parse(template: &str) -> PathTemplate {
        let segments = template
            .trim_start_matches('/')
            .split('/')
            .map(|s| match (s.find('{'), s.rfind('}')) {
                (Some(open), Some(close)) if open < close => Segment::Param {
                    prefix: s[..open].to_owned(),
                    name: Box::leak(s[open + 1..close].to_owned().into_boxed_str()),
                    suffix: s[close + 1..].to_owned(),
                },
                _ => Segment::Literal(s.to_owned()),
            })
            .collect();
        PathTemplate { segments }
    }

    /// The names of its parameters, in order.
    pub(super) fn params(&self) -> Vec<&'static str> {
        self.segments
            .iter()
            .filter_map(|s| match s {
                Segment::Param { name, .. } => Some(*name),
                Segment::Literal(_) => None,
            })
            .collect()
    }

    /// The parameters when `path` fits, with how well: two for each literal segment, one for
    /// each parameter with literal text around it (more is a better fit: `/lists/all` before
    /// `/lists/{id}`, CallFire's `/recordings/{id}.mp3` before `/recordings/{id}`).
    pub(super) fn matches(&self, path: &[String]) -> Option<(usize, Vec<(&'static str, String)>)> {
        if path.len() != self.segments.len() {
            return None;
        }
        let mut literals = 0;
        let mut params = Vec::new();
        for (segment, actual) in self.segments.iter().zip(path) {
            match segment {
                Segment::Literal(text) if text == actual => literals += 2,
                Segment::Literal(_) => return None,
                Segment::Param {
                    prefix,
                    name,
                    suffix,
                } => {
                    let value = actual
                        .strip_prefix(prefix.as_str())?
                        .strip_suffix(suffix.as_str())?;
                    if value.is_empty() {
                        return None;
                    }
                    if !prefix.is_empty() || !suffix.is_empty() {
                        literals += 1;
                    }
                    params.push((*name, value.to_owned()));
                }
            }
        }
        Some((literals, params))
    }
}

/// A served spec as the inbox reads it: held weakly, so a spec that stopped shows no items.
pub(crate) struct View {
    pub(crate) served: std::sync::Weak<Served>,
    pub(crate) base_url: String,
}

impl crate::inbox::ServedView for View {
    fn base_url(&self) -> String {
        self.base_url.clone()
    }

    fn collections(&self) -> Vec<(String, usize)> {
        self.served
            .upgrade()
            .map(|s| s.store.collections())
            .unwrap_or_default()
    }

    fn items(
        &self,
        collection: &str,
        skip: usize,
        take: usize,
    ) -> Option<(usize, Vec<serde_json::Value>)> {
        self.served.upgrade()?.store.items(collection, skip, take)
    }
}

/// Sends a served spec's recorded webhook again (the inbox's Redeliver): signed anew by the
/// spec's own scheme, with the secret the spec holds (the inbox keeps none).
pub(crate) struct Redelivery {
    pub(crate) served: std::sync::Weak<Served>,
}

impl crate::inbox::Redeliver for Redelivery {
    fn redeliver(
        &self,
        _inbox: &crate::inbox::Inbox,
        record: &crate::inbox::WebhookRecord,
        _secret: Option<&str>,
    ) -> Result<String, crate::inbox::RedeliverError> {
        let served = self
            .served
            .upgrade()
            .ok_or_else(|| crate::inbox::RedeliverError::NotRunning(record.service.clone()))?;
        served
            .webhooks
            .resend(&record.event_type, &record.url, &record.body)
            .map_err(crate::inbox::RedeliverError::Unsigned)
    }
}

impl ServedOp {
    /// Whether `op`'s next-page link is written absolute: unless its field is named for a path
    /// and not given the `uri` format (Twilio's `next_page_uri`, a path on the API's host); a
    /// `next` that is a link (Front's `_pagination.next`, Sunshine's `links.next`) or a
    /// `next_page_url` is followed as it is.
    pub(crate) fn next_link_is_absolute(&self, schema: &ServiceSchema) -> bool {
        let op = self;
        let Some(PageStyle::NextUrl { next_field }) = op.info.pagination.as_ref().map(|p| &p.style)
        else {
            return false;
        };
        let Some(mut ty) = op.resource.response else {
            return false;
        };
        let mut format = None;
        for part in next_field.split('.') {
            let Ty::Named(name) = ty else {
                return false;
            };
            let Some(ShapeSchema::Object(fields)) = schema.named(name).map(|t| t.shape) else {
                return false;
            };
            let Some(field) = fields.iter().find(|f| f.name == part) else {
                return false;
            };
            (ty, format) = (field.ty, field.format);
        }
        let last = next_field.rsplit('.').next().unwrap_or_default();
        let named_path = last.to_ascii_lowercase().contains("uri") || last.contains("path");
        format == Some(crate::server::resources::Format::Uri) || !named_path
    }
}

#[cfg(test)]
mod tests {
    use super::PathTemplate;

    fn score(template: &str, path: &str) -> Option<usize> {
        let path: Vec<String> = path
            .trim_start_matches('/')
            .split('/')
            .map(str::to_owned)
            .collect();
        PathTemplate::parse(template)
            .matches(&path)
            .map(|(score, _)| score)
    }

    #[test]
    fn a_literal_fits_best_then_a_parameter_with_text_around_it_then_a_bare_one() {
        // CallFire's `/calls/recordings/{id}.mp3` was served by `/calls/recordings/{id}`,
        // which refused `1.mp3` as no integer.
        let mp3 = score("/calls/recordings/{id}.mp3", "/calls/recordings/1.mp3");
        let bare = score("/calls/recordings/{id}", "/calls/recordings/1.mp3");
        assert!(mp3 > bare, "{mp3:?} {bare:?}");
        assert_eq!(
            score("/calls/recordings/{id}.mp3", "/calls/recordings/1"),
            None
        );
        let literal = score("/lists/all.json", "/lists/all.json");
        let affixed = score("/lists/{id}.json", "/lists/all.json");
        assert!(literal > affixed, "{literal:?} {affixed:?}");
    }
}
