//! Hand-written additions to `crate::messaging`.
