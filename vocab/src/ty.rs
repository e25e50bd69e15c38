//! Type expressions: `string`, `list<Contact>`, `map<json>`, ..., as the spec writes them, the
//! generator resolves them ([`Owned`]) and the sandbox's schema tables hold them ([`Static`]).

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::storage::{Intern, Owned, Static, Storage, ToStatic};

/// A type expression.
///
/// One type for both storages: the generator parses and resolves [`Ty<Owned>`] (names are
/// `String`, the inner type of a list is a `Box`); generated schema tables and the sandbox read
/// [`Ty`] (`Ty<Static>`: `&'static` names and inner types, `Copy`).
///
/// ```
/// use tidings_spec::{Owned, Ty};
///
/// let read: Ty<Owned> = Ty::parse("map<list<Contact>>")?;
/// assert_eq!(read.to_string(), "map<list<Contact>>");
/// assert_eq!(read.inner_name(), None);
///
/// static CONTACTS: Ty = Ty::List(&Ty::Named("Contact"));
/// assert_eq!(CONTACTS.inner_name(), Some("Contact"));
/// # Ok::<(), String>(())
/// ```
pub enum Ty<S: Storage = Static> {
    /// `string`
    String,
    /// `integer` (64-bit signed)
    Integer,
    /// `number` (64-bit float)
    Number,
    /// `boolean`
    Boolean,
    /// `datetime`: an RFC 3339 timestamp, kept as text.
    DateTime,
    /// `date`: a calendar date, `YYYY-MM-DD`, kept as text.
    Date,
    /// `json`: any JSON value.
    Json,
    /// A named type of the spec.
    Named(S::Str),
    /// `list<T>`
    List(S::TyRef),
    /// `map<T>`: string keys.
    Map(S::TyRef),
    /// `page<T>`: one page of a paginated list.
    Page(S::TyRef),
    /// `bytes`: a file of a multipart body (`tidings_runtime::form::FilePart`).
    Bytes,
}

/// The built-in type names (everything else a type expression names is a named type).
pub const BUILTIN_TYPES: &[&str] = &[
    "string", "integer", "number", "boolean", "datetime", "json", "bytes", "date",
];

impl Ty<Owned> {
    /// Parses a type expression; names that are not built in are kept as [`Ty::Named`] for
    /// the checker to resolve.
    ///
    /// ```
    /// use tidings_spec::{Owned, Ty};
    /// assert_eq!(Ty::parse("list<date>")?, Ty::<Owned>::List(Box::new(Ty::Date)));
    /// assert!(Ty::parse("list<date").unwrap_err().contains("closing `>`"));
    /// # Ok::<(), String>(())
    /// ```
    pub fn parse(text: &str) -> Result<Ty<Owned>, String> {
        let text = text.trim();
        for (prefix, wrap) in [
            ("list<", Ty::List as fn(Box<Ty<Owned>>) -> Ty<Owned>),
            ("map<", Ty::Map as fn(Box<Ty<Owned>>) -> Ty<Owned>),
            ("page<", Ty::Page as fn(Box<Ty<Owned>>) -> Ty<Owned>),
        ] {
            if let Some(rest) = text.strip_prefix(prefix) {
                let inner = rest
                    .strip_suffix('>')
                    .ok_or_else(|| format!("`{text}` is missing its closing `>`"))?;
                return Ok(wrap(Box::new(Ty::parse(inner)?)));
            }
        }
        Ok(match text {
            "string" => Ty::String,
            "integer" => Ty::Integer,
            "number" => Ty::Number,
            "boolean" => Ty::Boolean,
            "datetime" => Ty::DateTime,
            "date" => Ty::Date,
            "json" => Ty::Json,
            "bytes" => Ty::Bytes,
            "" => return Err("the type is empty".into()),
            name if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
                Ty::Named(name.to_owned())
            }
            other => return Err(format!("`{other}` is not a type expression")),
        })
    }
}

impl<S: Storage> Ty<S> {
    /// Every named type this expression refers to, pushed onto `out`.
    pub fn names(&self, out: &mut Vec<String>) {
        match self {
            Ty::Named(n) => out.push(n.as_ref().to_owned()),
            Ty::List(t) | Ty::Map(t) | Ty::Page(t) => t.names(out),
            _ => {}
        }
    }

    /// The named type this expression holds directly or in a list or map, if any.
    pub fn inner_name(&self) -> Option<&str> {
        match self {
            Ty::Named(n) => Some(n.as_ref()),
            Ty::List(t) | Ty::Map(t) => match &**t {
                Ty::Named(n) => Some(n.as_ref()),
                _ => None,
            },
            _ => None,
        }
    }

    /// True for scalars (what a query or path parameter may be).
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Ty::String | Ty::Integer | Ty::Number | Ty::Boolean | Ty::DateTime | Ty::Date
        )
    }

    /// True for `date` and lists or maps of dates: their text is checked before sending.
    pub fn holds_date(&self) -> bool {
        match self {
            Ty::Date => true,
            Ty::List(t) | Ty::Map(t) => matches!(**t, Ty::Date),
            _ => false,
        }
    }

    /// True for the types kept as text in Rust (`string`, `datetime`, `date`).
    pub fn is_text(&self) -> bool {
        matches!(self, Ty::String | Ty::DateTime | Ty::Date)
    }

    /// True when a `page<T>` is here or inside a list or map.
    pub fn contains_page(&self) -> bool {
        match self {
            Ty::Page(_) => true,
            Ty::List(t) | Ty::Map(t) => t.contains_page(),
            _ => false,
        }
    }

    /// The expression for a schema table: [`Static`], with a `bytes` file part kept as its
    /// text (`string`), which is what the sandbox's store holds of a form's file.
    pub fn to_schema(&self, intern: &mut impl Intern) -> Ty {
        self.made_static(intern, true)
    }

    fn made_static(&self, intern: &mut impl Intern, bytes_as_text: bool) -> Ty {
        match self {
            Ty::String => Ty::String,
            Ty::Integer => Ty::Integer,
            Ty::Number => Ty::Number,
            Ty::Boolean => Ty::Boolean,
            Ty::DateTime => Ty::DateTime,
            Ty::Date => Ty::Date,
            Ty::Json => Ty::Json,
            Ty::Bytes if bytes_as_text => Ty::String,
            Ty::Bytes => Ty::Bytes,
            Ty::Named(n) => Ty::Named(intern.text(n.as_ref())),
            Ty::List(t) => Ty::List(kept(t.made_static(intern, bytes_as_text), intern)),
            Ty::Map(t) => Ty::Map(kept(t.made_static(intern, bytes_as_text), intern)),
            Ty::Page(t) => Ty::Page(kept(t.made_static(intern, bytes_as_text), intern)),
        }
    }
}

/// An inner expression, for `'static`.
fn kept(ty: Ty, intern: &mut impl Intern) -> &'static Ty {
    &intern.list(vec![ty])[0]
}

impl<S: Storage> ToStatic for Ty<S> {
    type Static = Ty;
    fn to_static(&self, intern: &mut impl Intern) -> Ty {
        self.made_static(intern, false)
    }
}

/// The expression as the spec writes it: `list<Contact>`.
impl<S: Storage> fmt::Display for Ty<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::String => f.write_str("string"),
            Ty::Integer => f.write_str("integer"),
            Ty::Number => f.write_str("number"),
            Ty::Boolean => f.write_str("boolean"),
            Ty::DateTime => f.write_str("datetime"),
            Ty::Date => f.write_str("date"),
            Ty::Json => f.write_str("json"),
            Ty::Bytes => f.write_str("bytes"),
            Ty::Named(n) => f.write_str(n.as_ref()),
            Ty::List(t) => write!(f, "list<{}>", **t),
            Ty::Map(t) => write!(f, "map<{}>", **t),
            Ty::Page(t) => write!(f, "page<{}>", **t),
        }
    }
}

// `Clone`, `PartialEq`, `Eq`, `Hash` and `Debug` are written out: derived, they would bound
// `S::TyRef` by themselves, which for `Box<Ty<Owned>>` asks the compiler the same question
// again without end. Written here, they reach the inner type through `Deref`.

impl<S: Storage> Clone for Ty<S> {
    fn clone(&self) -> Self {
        match self {
            Ty::String => Ty::String,
            Ty::Integer => Ty::Integer,
            Ty::Number => Ty::Number,
            Ty::Boolean => Ty::Boolean,
            Ty::DateTime => Ty::DateTime,
            Ty::Date => Ty::Date,
            Ty::Json => Ty::Json,
            Ty::Bytes => Ty::Bytes,
            Ty::Named(n) => Ty::Named(n.clone()),
            Ty::List(t) => Ty::List(S::clone_ty(t)),
            Ty::Map(t) => Ty::Map(S::clone_ty(t)),
            Ty::Page(t) => Ty::Page(S::clone_ty(t)),
        }
    }
}

impl Copy for Ty<Static> {}

impl<S: Storage> PartialEq for Ty<S> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Ty::Named(a), Ty::Named(b)) => a == b,
            (Ty::List(a), Ty::List(b)) | (Ty::Map(a), Ty::Map(b)) | (Ty::Page(a), Ty::Page(b)) => {
                **a == **b
            }
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }
}

impl<S: Storage> Eq for Ty<S> {}

impl<S: Storage> Hash for Ty<S> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            Ty::Named(n) => n.hash(state),
            Ty::List(t) | Ty::Map(t) | Ty::Page(t) => (**t).hash(state),
            _ => {}
        }
    }
}

impl<S: Storage> fmt::Debug for Ty<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::String => f.write_str("String"),
            Ty::Integer => f.write_str("Integer"),
            Ty::Number => f.write_str("Number"),
            Ty::Boolean => f.write_str("Boolean"),
            Ty::DateTime => f.write_str("DateTime"),
            Ty::Date => f.write_str("Date"),
            Ty::Json => f.write_str("Json"),
            Ty::Bytes => f.write_str("Bytes"),
            Ty::Named(n) => f.debug_tuple("Named").field(n).finish(),
            Ty::List(t) => f.debug_tuple("List").field(&**t).finish(),
            Ty::Map(t) => f.debug_tuple("Map").field(&**t).finish(),
            Ty::Page(t) => f.debug_tuple("Page").field(&**t).finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Leak;
    impl Intern for Leak {
        fn text(&mut self, text: &str) -> &'static str {
            Box::leak(text.to_owned().into_boxed_str())
        }
        fn list<T: 'static>(&mut self, items: Vec<T>) -> &'static [T] {
            Box::leak(items.into_boxed_slice())
        }
    }

    #[test]
    fn an_owned_expression_made_static_is_the_same_expression() {
        for text in [
            "string",
            "list<map<Contact>>",
            "page<Email>",
            "map<bytes>",
            "json",
        ] {
            let owned = Ty::parse(text).unwrap();
            let made = owned.to_static(&mut Leak);
            assert_eq!(made.to_string(), text);
            assert_eq!(format!("{made:?}"), format!("{owned:?}"));
            assert_eq!(owned.clone(), owned);
        }
    }

    #[test]
    fn a_schema_table_keeps_a_file_part_as_text_at_any_depth() {
        let owned = Ty::parse("list<bytes>").unwrap();
        assert_eq!(owned.to_schema(&mut Leak), Ty::List(&Ty::String));
        assert_eq!(owned.to_static(&mut Leak), Ty::List(&Ty::Bytes));
    }

    #[test]
    fn expressions_differ_by_shape_and_by_what_they_hold() {
        let list = |t| Ty::parse(t).unwrap();
        assert_ne!(list("list<string>"), list("map<string>"));
        assert_ne!(list("list<A>"), list("list<B>"));
        assert_ne!(list("date"), list("datetime"));
        assert_eq!(Ty::<Owned>::String, Ty::String);
    }
}
