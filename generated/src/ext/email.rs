//! Hand-written additions to `crate::email`.
