//! The realtime service sandbox.
