//! placeholder
/// The path generated code names these types by.
pub const RUNTIME_PATH: &str = "::tidings_runtime";
