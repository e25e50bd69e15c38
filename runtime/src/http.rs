//! The paths `tidings_runtime::http::{Client, Request, Response}` of earlier releases. The
//! types live in their own modules now (`client`, `request`, `response`) and are re-exported
//! at the crate root, which is where new code should name them. Nothing in the crate imports
//! this module.

pub use crate::client::Client;
pub use crate::request::Request;
pub use crate::response::Response;
