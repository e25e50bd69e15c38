//! The email service sandbox.
