//! The paths `tidings_runtime::config::*` of earlier releases: [`ClientBuilder`] (with
//! [`Client`](crate::Client), in `client`), [`CallOptions`] and [`DEFAULT_TOTAL_TIMEOUT`]
//! (in `options`), [`RetryPolicy`] (in [`crate::retry`]) and [`RateLimit`] (in
//! [`crate::ratelimit`]). All are re-exported at the crate root, which is where new code
//! should name them. Nothing in the crate's lower layers imports this module.

pub use crate::client::ClientBuilder;
pub use crate::options::{CallOptions, DEFAULT_TOTAL_TIMEOUT};
pub use crate::ratelimit::RateLimit;
pub use crate::retry::RetryPolicy;
