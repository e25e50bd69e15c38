//! The messaging service sandbox.
