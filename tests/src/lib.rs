//! Shared helpers for the workspace integration tests.
