//! Where a description's text lives: [`Static`] for what generated code writes as `static`
//! items and the runtime reads (the default), [`Owned`] for what a program builds from a spec
//! it reads (the generator's resolved model). The descriptions whose variants carry text
//! ([`PageStyle`](crate::PageStyle), [`AuthScheme`](crate::AuthScheme),
//! [`SigningScheme`](crate::SigningScheme), [`Select`](crate::Select),
//! [`SignedContent`](crate::SignedContent), [`RetrySpec`](crate::RetrySpec), [`Ty`](crate::Ty)) take it as a type
//! parameter, so the generator and the runtime name one type.
//!
//! ```
//! use tidings_spec::{Owned, PageStyle};
//!
//! // The runtime's (and generated code's) form: `&'static str`.
//! static NEXT: PageStyle = PageStyle::NextUrl { next_field: "next_page_uri" };
//! // The generator's form, read from a spec: `String`.
//! let read: PageStyle<Owned> = PageStyle::NextUrl { next_field: "next_page_uri".to_owned() };
//! assert_eq!(read.name(), NEXT.name());
//! ```

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::Deref;

use crate::{AuthScheme, Ty};

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Static {}
    impl Sealed for super::Owned {}
}

/// The text types of a description; implemented by [`Static`] and [`Owned`] only.
pub trait Storage: sealed::Sealed + Copy + Debug + PartialEq + Eq + Hash + 'static {
    /// A text.
    type Str: AsRef<str> + Clone + Debug + PartialEq + Eq + Hash;
    /// A list of texts.
    type Strs: AsRef<[Self::Str]> + Clone + Debug + PartialEq + Eq + Hash;
    /// A list of pairs of texts.
    type Pairs: AsRef<[(Self::Str, Self::Str)]> + Clone + Debug + PartialEq + Eq + Hash;
    /// A list of status codes.
    type Codes: AsRef<[u16]> + Clone + Debug + PartialEq + Eq + Hash;
    /// The schemes an [`AuthScheme::All`] sends together (held in an
    /// [`AuthSchemes`](crate::AuthSchemes), which compares and hashes them).
    type Schemes: AsRef<[AuthScheme<Self>]> + Clone;
    /// The inner type of a [`Ty`](crate::Ty)'s `list<T>`, `map<T>` or `page<T>`.
    type TyRef: Deref<Target = Ty<Self>>;

    /// A copy of an inner type (`Ty`'s `Clone` goes through here: a derived one would bound
    /// `TyRef` by `Ty` itself, without end).
    #[doc(hidden)]
    fn clone_ty(inner: &Self::TyRef) -> Self::TyRef;
}

/// `&'static` text: generated `static` items, and what the runtime reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Static;

impl Storage for Static {
    type Str = &'static str;
    type Strs = &'static [&'static str];
    type Pairs = &'static [(&'static str, &'static str)];
    type Codes = &'static [u16];
    type Schemes = &'static [AuthScheme];
    type TyRef = &'static Ty;

    fn clone_ty(inner: &&'static Ty) -> &'static Ty {
        inner
    }
}

/// Owned text: a description built from a spec read at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Owned;

impl Storage for Owned {
    type Str = String;
    type Strs = Vec<String>;
    type Pairs = Vec<(String, String)>;
    type Codes = Vec<u16>;
    type Schemes = Vec<AuthScheme<Owned>>;
    type TyRef = Box<Ty<Owned>>;

    fn clone_ty(inner: &Box<Ty<Owned>>) -> Box<Ty<Owned>> {
        inner.clone()
    }
}

/// Where [`Owned`] text goes when a description becomes [`Static`]: the caller decides how text
/// lives for `'static` (the generator interns it for the life of the process: a build script,
/// or a spec the sandbox serves until it stops).
pub trait Intern {
    /// `text`, for `'static`.
    fn text(&mut self, text: &str) -> &'static str;
    /// `items`, for `'static`.
    fn list<T: 'static>(&mut self, items: Vec<T>) -> &'static [T];
}

/// A description that can be made [`Static`] from any storage, through an [`Intern`].
///
/// ```
/// use tidings_spec::{Intern, Owned, PageStyle, ToStatic};
///
/// struct Leak;
/// impl Intern for Leak {
///     fn text(&mut self, text: &str) -> &'static str {
///         Box::leak(text.to_owned().into_boxed_str())
///     }
///     fn list<T: 'static>(&mut self, items: Vec<T>) -> &'static [T] {
///         Box::leak(items.into_boxed_slice())
///     }
/// }
///
/// let read: PageStyle<Owned> = PageStyle::NextUrl { next_field: "next_page_uri".to_owned() };
/// let served: PageStyle = read.to_static(&mut Leak);
/// assert_eq!(served, PageStyle::NextUrl { next_field: "next_page_uri" });
/// ```
pub trait ToStatic {
    /// The same description with `'static` text.
    type Static;
    /// Makes it, interning its text with `intern`.
    fn to_static(&self, intern: &mut impl Intern) -> Self::Static;
}

/// An optional text, interned.
pub(crate) fn opt_text<T: AsRef<str>>(
    value: Option<&T>,
    intern: &mut impl Intern,
) -> Option<&'static str> {
    value.map(|v| intern.text(v.as_ref()))
}
