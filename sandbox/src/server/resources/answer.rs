//! The glue generated defaults call: their inputs as JSON, one call on the store, and its
//! answer decoded into the operation's response type (JSON, empty, optional, text or bytes).

use super::*;

/// A generated default's inputs as JSON.
///
/// # Errors
/// 500 when a value does not serialize (it came from a decoded request, so it always does).
pub fn to_json<T: Serialize>(value: &T) -> Result<Value, ServerError> {
    serde_json::to_value(value)
        .map_err(|e| ServerError::internal(format!("cannot re-encode the request: {e}")))
}

/// A generated default's JSON answer as the operation's response type.
///
/// # Errors
/// 500 naming the operation when the filled value does not decode as its response type
/// (a gap in fill, not a client error).
pub fn from_json<T: DeserializeOwned>(operation: &str, value: Value) -> Result<T, ServerError> {
    serde_json::from_value(value).map_err(|e| {
        ServerError::internal(format!(
            "the sandbox's default answer of `{operation}` does not match its response type: {e}"
        ))
    })
}

/// A generated default's inputs: path parameters, the query and the body (`&()` for none) as
/// JSON.
///
/// # Errors
/// As [`to_json`].
pub fn call<Q: Serialize, B: Serialize>(
    path: Vec<(&'static str, String)>,
    query: &Q,
    body: &B,
) -> Result<ResourceCall, ServerError> {
    Ok(ResourceCall {
        merge_nested: false,
        path,
        query: to_json(query)?,
        body: to_json(body)?,
        named_as: None,
        sendable: None,
        read_as: None,
        item_path: None,
        keeps_made: false,
        names_made: None,
    })
}

/// The default behaviour of an operation with an empty answer.
///
/// # Errors
/// As [`Resources::serve`].
pub async fn answer_empty(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<(), ServerError> {
    store.serve(schema, op, &call?).await.map(drop)
}

/// The whole default behaviour of one operation, as a generated trait method calls it.
///
/// # Errors
/// As [`Resources::serve`] and [`from_json`].
pub async fn answer<T: DeserializeOwned>(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<T, ServerError> {
    let value = store.serve(schema, op, &call?).await?;
    from_json(op.name, value)
}

/// The default of an operation that answers 200 with a body or 204 without: the body.
///
/// # Errors
/// As [`answer`].
pub async fn answer_optional<T: DeserializeOwned>(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<Option<T>, ServerError> {
    answer(store, schema, op, call).await.map(Some)
}

/// The default of an operation that answers text: the stored value as text (a string as is,
/// anything else as JSON).
///
/// # Errors
/// As [`Resources::serve`].
pub async fn answer_text(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<String, ServerError> {
    Ok(match store.serve(schema, op, &call?).await? {
        Value::String(text) => text,
        Value::Null => String::new(),
        other => other.to_string(),
    })
}

/// The default of an operation that answers bytes: [`answer_text`]'s text as bytes.
///
/// # Errors
/// As [`Resources::serve`].
pub async fn answer_bytes(
    store: &Resources,
    schema: &ServiceSchema,
    op: &ResourceOp,
    call: Result<ResourceCall, ServerError>,
) -> Result<Vec<u8>, ServerError> {
    answer_text(store, schema, op, call)
        .await
        .map(String::into_bytes)
}
