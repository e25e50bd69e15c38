//! What the sandbox's default behaviour knows of a service's types and operations: the schema
//! table (named types, their fields and checks) and each operation's resource action. The
//! generator writes it as a `static` per service; `--spec` builds the same at run time.

use crate::{Format, Ty};

/// One field of an object type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldSchema {
    /// Wire name.
    pub name: &'static str,
    /// Type.
    pub ty: Ty,
    /// Must be present.
    pub required: bool,
    /// With `required`: present, but may be `null` (a list's `next` on its last page).
    pub nullable: bool,
    /// Set by the service only (OpenAPI's `readOnly`): a request's value is not kept.
    pub read_only: bool,
    /// Sent by clients only (OpenAPI's `writeOnly`: a password, a secret): kept, never
    /// answered back.
    pub write_only: bool,
    /// String format.
    pub format: Option<Format>,
    /// Shortest string, in characters.
    pub min_len: Option<u64>,
    /// Longest string, in characters.
    pub max_len: Option<u64>,
    /// A regular expression the string must match somewhere (JSON Schema's `pattern`,
    /// unanchored: anchor it with `^` and `$`). Checked by the sandbox, not by clients.
    pub pattern: Option<&'static str>,
    /// The value the service takes when the field is left out, as JSON text (`"\"POST\""`).
    pub default: Option<&'static str>,
    /// A value the provider's document shows for a text field (Intercom's `"contact"`),
    /// answered where the sandbox makes the field up.
    pub example: Option<&'static str>,
    /// Fewest items.
    pub min_items: Option<u64>,
    /// Most items.
    pub max_items: Option<u64>,
    /// Smallest number.
    pub min: Option<f64>,
    /// Largest number.
    pub max: Option<f64>,
}

impl FieldSchema {
    /// An optional field of type `ty` with no checks (set the others with struct update
    /// syntax: `FieldSchema { required: true, ..FieldSchema::new("id", Ty::String) }`).
    pub const fn new(name: &'static str, ty: Ty) -> Self {
        FieldSchema {
            name,
            ty,
            required: false,
            nullable: false,
            read_only: false,
            write_only: false,
            format: None,
            min_len: None,
            max_len: None,
            pattern: None,
            default: None,
            example: None,
            min_items: None,
            max_items: None,
            min: None,
            max: None,
        }
    }
}

/// The shape of a named type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ShapeSchema {
    /// An object and its fields.
    Object(&'static [FieldSchema]),
    /// An enum and its wire values.
    Enum(&'static [&'static str]),
    /// A tagged union.
    Union {
        /// The tag field.
        tag: &'static str,
        /// The field with the content, when it does not sit beside the tag.
        content: Option<&'static str>,
        /// Each variant's tag value and content type.
        variants: &'static [(&'static str, Option<&'static str>)],
    },
    /// An untagged union: the types of its variants (named types, text, numbers, lists, ...),
    /// in the order they are tried.
    Untagged(&'static [Ty]),
}

/// A named type of the service.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TypeSchema {
    /// Its name.
    pub name: &'static str,
    /// Its shape.
    pub shape: ShapeSchema,
    /// An object whose service keeps the keys a client sends besides its fields and answers
    /// them back (the spec's `keeps_other_keys`: Knock's "any additional properties" of a
    /// user); the sandbox answers back such keys that no type declares.
    pub keeps_other_keys: bool,
}

/// The service's cursor pagination (today's style: the cursor is an item's id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSchema {
    /// Query parameter with the page size.
    pub limit_param: &'static str,
    /// Query parameter asking for items after a cursor.
    pub after_param: &'static str,
    /// Query parameter asking for items before a cursor.
    pub before_param: Option<&'static str>,
    /// Page field holding the items.
    pub items_field: &'static str,
    /// Page field saying whether more follow.
    pub has_more_field: &'static str,
}

/// Everything the default behaviour knows about one service's types.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ServiceSchema {
    /// Named types.
    pub types: &'static [TypeSchema],
    /// Pagination, when the service pages.
    pub page: Option<PageSchema>,
}

impl ServiceSchema {
    /// The named type `name`.
    pub fn named(&self, name: &str) -> Option<&'static TypeSchema> {
        self.types.iter().find(|t| t.name == name)
    }

    /// The fields of `ty` when it names an object type, or an untagged union whose first
    /// variant is one (Slack's conversation: a channel's fields, else a group's or a direct
    /// message's): the shape a made-up or kept value of it takes.
    ///
    /// ```
    /// use tidings_spec::{FieldSchema, ServiceSchema, ShapeSchema, Ty, TypeSchema};
    /// static CHANNEL: [FieldSchema; 1] = [FieldSchema::new("id", Ty::String)];
    /// static EITHER: [Ty; 2] = [Ty::Named("Channel"), Ty::String];
    /// static TYPES: [TypeSchema; 2] = [
    ///     TypeSchema { name: "Channel", shape: ShapeSchema::Object(&CHANNEL), keeps_other_keys: false },
    ///     TypeSchema { name: "Either", shape: ShapeSchema::Untagged(&EITHER), keeps_other_keys: false },
    /// ];
    /// let schema = ServiceSchema { types: &TYPES, page: None };
    /// assert_eq!(schema.object_fields(&Ty::Named("Either")).unwrap()[0].name, "id");
    /// assert!(schema.object_fields(&Ty::String).is_none());
    /// ```
    pub fn object_fields(&self, ty: &Ty) -> Option<&'static [FieldSchema]> {
        let Ty::Named(name) = ty else {
            return None;
        };
        match self.named(name)?.shape {
            ShapeSchema::Object(fields) => Some(fields),
            ShapeSchema::Untagged([first @ Ty::Named(inner), ..]) if first != ty => {
                match self.named(inner)?.shape {
                    ShapeSchema::Object(fields) => Some(fields),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// The fields of the object at dot path `path` (`""`: `ty` itself) inside `ty`.
    ///
    /// ```
    /// use tidings_spec::{FieldSchema, ServiceSchema, ShapeSchema, Ty, TypeSchema};
    /// static META: [FieldSchema; 1] = [FieldSchema::new("page", Ty::Integer)];
    /// static PAGE: [FieldSchema; 1] = [FieldSchema::new("meta", Ty::Named("Meta"))];
    /// static TYPES: [TypeSchema; 2] = [
    ///     TypeSchema { name: "Page", shape: ShapeSchema::Object(&PAGE), keeps_other_keys: false },
    ///     TypeSchema { name: "Meta", shape: ShapeSchema::Object(&META), keeps_other_keys: false },
    /// ];
    /// let schema = ServiceSchema { types: &TYPES, page: None };
    /// let meta = schema.object_at(&Ty::Named("Page"), "meta").unwrap();
    /// assert_eq!(meta[0].name, "page");
    /// assert!(schema.object_at(&Ty::Named("Page"), "meta.page").is_none());
    /// ```
    pub fn object_at(&self, ty: &Ty, path: &str) -> Option<&'static [FieldSchema]> {
        let mut fields = self.object_fields(ty)?;
        for part in path.split('.').filter(|p| !p.is_empty()) {
            let field = fields.iter().find(|f| f.name == part)?;
            fields = self.object_fields(&field.ty)?;
        }
        Some(fields)
    }
}

/// What an operation does to its collection, read from its method and path (the sandbox's
/// default behaviour for an operation nothing overrides).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceAction {
    /// `POST` on a collection: a new item with a fresh id.
    Create,
    /// `GET` on a collection: one page of its items.
    List,
    /// `GET` on an item.
    Get,
    /// `PATCH` (or `POST`) on an item: body fields merged in (`null` removes one).
    Merge,
    /// `PUT` on an item: replaced by the body, created when absent.
    Replace,
    /// `DELETE` on an item.
    Delete,
    /// Anything else (`POST /{id}/cancel`, a singleton `GET`): a valid response built from the
    /// item the path names (when the store has it) and the body, nothing stored.
    Action,
}

impl ResourceAction {
    /// The variant's name (`Create`), as generated code spells it.
    pub const fn name(self) -> &'static str {
        match self {
            ResourceAction::Create => "Create",
            ResourceAction::List => "List",
            ResourceAction::Get => "Get",
            ResourceAction::Merge => "Merge",
            ResourceAction::Replace => "Replace",
            ResourceAction::Delete => "Delete",
            ResourceAction::Action => "Action",
        }
    }
}

/// Whether a field name reads as an item's identifier: `id`, `sid`, `messageId`, Postmark's
/// `TemplateID`, `message_id`, Vonage's `message_uuid`. The generator reads it to choose the
/// field an item's id is kept in; the sandbox, to give ids to what a send makes.
///
/// ```
/// use tidings_spec::id_like;
/// assert!(id_like("TemplateID") && id_like("messageId") && id_like("sid"));
/// assert!(id_like("message_uuid") && id_like("uuid"));
/// assert!(!id_like("video") && !id_like("Idle"));
/// ```
pub fn id_like(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower == "id"
        || lower == "sid"
        || name.ends_with("Id")
        || name.ends_with("ID")
        || lower.ends_with("_id")
        || lower.ends_with("uuid")
}

/// Whether a field's value may name its item in a path in place of its id (`param`, the
/// path parameter): one the parameter's name ends with (Elastic Email's `domain`, Mailgun's
/// `template_name`, Postmark's `templateIdOrAlias`), an id of
/// another name (Zulip's `user_id`), or one that reads as unique to its item, as a unique
/// name, an alias, an email address, a user name, an external id, a slug or a phone number
/// are (Twilio Sync's `unique_name`, Postmark's `Alias`, Brevo's contact `email`). A name
/// (Telnyx's messaging profile `name`) is not: a path that names none of its items by id is
/// about an item it does not hold.
///
/// ```
/// use tidings_spec::names_in_place_of_id;
/// assert!(names_in_place_of_id("unique_name", "Sid") && names_in_place_of_id("Alias", "templateIdOrAlias"));
/// assert!(names_in_place_of_id("email", "identifier") && names_in_place_of_id("name", "template_name"));
/// assert!(!names_in_place_of_id("name", "id") && !names_in_place_of_id("friendly_name", "Sid"));
/// ```
pub fn names_in_place_of_id(field: &str, param: &str) -> bool {
    let plain = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let (field_plain, param_plain) = (plain(field), plain(param));
    param_plain.ends_with(&field_plain)
        || id_like(field)
        || [
            "unique",
            "alias",
            "email",
            "username",
            "login",
            "externalid",
            "slug",
            "handle",
            "phone",
            "msisdn",
        ]
        .iter()
        .any(|word| field_plain.contains(word))
}

/// Whether a field's name says it holds a secret: a password, a secret, a private or API
/// key, an access, auth or refresh token. The sandbox answers such a field only where the
/// answer's type declares it (a Telnyx call dialled with a `sip_auth_password`).
///
/// ```
/// use tidings_spec::names_a_secret;
/// assert!(names_a_secret("sip_auth_password") && names_a_secret("apiKey") && names_a_secret("client_secret"));
/// assert!(!names_a_secret("key") && !names_a_secret("token") && !names_a_secret("to"));
/// ```
pub fn names_a_secret(name: &str) -> bool {
    let plain: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    [
        "password",
        "passwd",
        "passphrase",
        "secret",
        "privatekey",
        "apikey",
        "accesstoken",
        "authtoken",
        "refreshtoken",
    ]
    .iter()
    .any(|word| plain.contains(word))
}

/// Whether a field is an optional part of an envelope around an answer's content, not
/// content: its `meta`, or the `errors` and `warnings` only a failed call fills (WhatsApp's
/// `Response`, which every answer of its extends). The generator reads it to find the item an
/// answer holds; the sandbox, to answer it there.
///
/// ```
/// use tidings_spec::envelope_part;
/// assert!(envelope_part("meta", false) && envelope_part("errors", false));
/// assert!(!envelope_part("meta", true) && !envelope_part("messages", false));
/// ```
pub fn envelope_part(name: &str, required: bool) -> bool {
    !required
        && matches!(
            name.to_ascii_lowercase().as_str(),
            "meta" | "errors" | "warnings"
        )
}

/// One operation's default behaviour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResourceOp {
    /// Operation name.
    pub name: &'static str,
    /// What it does.
    pub kind: ResourceAction,
    /// Path template of its collection (`/v1/lists/{id}/contacts`); path parameters in it
    /// are replaced by the request's values, so nested collections are kept per parent.
    pub collection: &'static str,
    /// The path parameter naming the item, for item operations and actions on an item.
    pub item_param: Option<&'static str>,
    /// The body field (or, with no body, the query parameter) naming the item, for an
    /// operation that names it there rather than in its path: the RPC style of Mandrill's
    /// `POST /templates/info` with `{"name": "welcome"}`.
    pub item_field: Option<&'static str>,
    /// The response field that carries an item's id (`id`).
    pub id_field: &'static str,
    /// The success body's type; `None` for an empty answer.
    pub response: Option<Ty>,
    /// A list answered inside an object (`response` a named object type): the dot path of
    /// its items (`contacts`). The store answers that object with every item there. For a
    /// create, the body field whose items are each created, or updated when one with the
    /// same id or email is held (SendGrid's `PUT /marketing/contacts`: `contacts`); a list of
    /// plain values is a set, each value an item keyed by itself under `id_field`. For a
    /// delete of the collection, the query parameter or body field listing the ids of the
    /// items it removes (`ids` of SendGrid's `DELETE /marketing/contacts?ids=a,b`).
    pub items: Option<&'static str>,
    /// A list's query parameters that filter its items, as `(parameter, item field)` wire
    /// names (Bandwidth's `messageId`, Twilio's `To` for `to`): an item is listed when its
    /// field equals the parameter's value (as text), or one of its values for a list. A
    /// parameter the request leaves out, or sends empty, filters nothing.
    pub filters: &'static [(&'static str, &'static str)],
}

/// The order in which to try the variants of an untagged union on a payload, best fit first.
///
/// `present` holds the payload's keys when it is an object (`None` otherwise); `keys[i]` the
/// wire names of variant `i`'s fields when it is an object. For an object, the object variants
/// come first: those leaving fewest of its keys undeclared, then those declaring fewest fields
/// (the tightest fit), then in the order written; the other variants follow in theirs. For any
/// other payload, the order written. One rule for the generated clients
/// (`tidings_runtime::union::fit_order`), the import's fidelity check and the sandbox, so
/// each reads a payload as the same variant.
///
/// ```
/// let success: &[&str] = &["request_id", "status"];
/// let error: &[&str] = &["request_id", "status", "error_text"];
/// let keys = [Some(error), Some(success), None];
/// let order = |present: &[&str]| tidings_spec::untagged_fit_order(Some(present), &keys);
/// assert_eq!(order(&["request_id", "status"]), [1, 0, 2]);
/// assert_eq!(order(&["status", "error_text"]), [0, 1, 2]);
/// assert_eq!(tidings_spec::untagged_fit_order(None, &keys), [0, 1, 2]);
/// ```
pub fn untagged_fit_order(present: Option<&[&str]>, keys: &[Option<&[&str]>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    let Some(present) = present else {
        return order;
    };
    // Stable: ties keep the order written.
    order.sort_by_key(|&i| match keys[i] {
        Some(declared) => {
            let undeclared = present.iter().filter(|k| !declared.contains(k)).count();
            (false, undeclared, declared.len())
        }
        None => (true, 0, 0),
    });
    order
}
