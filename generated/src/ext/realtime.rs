//! Hand-written additions to `crate::realtime`.
