//! The fidelity report of an import (`import openapi ... --report FILE`): for a maintainer,
//! what of the document the client carries. Every `example`/`examples` value the document
//! gives for a request body, a response body or a component schema is decoded and encoded
//! again by [`interpret`], which does to JSON what the generated types' serde code does (a CI
//! test, `tests/tests/providers_fidelity.rs`, holds it to the compiled code on every example of
//! the fidelity document); lossless means the same JSON comes back, key order aside and a
//! `null` member counting as absent (an optional field is `Option<T>`).

use serde::Serialize;
use serde_json::Value;

use super::document::{self, Version};
use super::interpret::{Disagreement, Interpreter, interpret};
use super::listed::{lists, note_pointer};
use super::lossless::difference;
use super::{ImportError, Imported};
use crate::resolved::{ErrorBodyInfo, Service, Ty, TypeInfo, TypeKind};

/// One item with its place in the document and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Located {
    /// JSON pointer into the document.
    pub pointer: String,
    /// Why (skipped, lossy, unpaged, not decoded).
    pub reason: String,
}

/// What the client carries of the document: the JSON `--report FILE` writes.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FidelityReport {
    /// Operations (path + method) in the document.
    pub operations_in_document: usize,
    /// Operations in the spec written.
    pub operations_imported: usize,
    /// Operations left out, each with its pointer and reason.
    pub operations_skipped: Vec<Located>,
    /// Parts of the operations and types imported that were left out (a callback, a
    /// parameter, a field), each with its pointer and reason.
    pub parts_skipped: Vec<Located>,
    /// Examples the document gives (request and response bodies, component schemas) whose
    /// place has a type in the spec.
    pub examples_total: usize,
    /// Those that decode and encode back to the same JSON.
    pub examples_lossless: usize,
    /// The others: the pointer of the example and the difference (or the decoding error);
    /// when the example breaks its own schema in the document (a required field missing, a
    /// value of another JSON type), the reason says where, after the difference.
    pub lossy: Vec<Located>,
    /// How many of `lossy` break their own schema: the document disagreeing with itself,
    /// still counted in `examples_total` and not in `examples_lossless`.
    pub examples_invalid: usize,
    /// Error answers (4xx, 5xx, `default`) the document gives a schema for, each status of
    /// each operation once, that the import typed: Textmagic's and Ably's, with no examples,
    /// read as `0 documented errors` where every operation's errors were typed.
    pub errors_typed: usize,
    /// Error answers (4xx, 5xx) the document gives an example for.
    pub errors_documented: usize,
    /// Those whose example decodes with the service's error type and has the code and the
    /// message where the spec's `errors` says.
    pub errors_decoded: usize,
    /// The others, with why.
    pub errors_not_decoded: Vec<Located>,
    /// List operations with a `pagination` (a stream).
    pub lists_paged: usize,
    /// List operations without one, with why.
    pub lists_unpaged: Vec<Located>,
    /// Items imported with an approximation (see the text report).
    pub approximated: usize,
    /// What the import inferred: the error body's code and message paths, and error answers
    /// of another shape than the service's.
    pub inferred: Vec<Located>,
}

/// One object field a documented example disagrees with: the type, the field's wire name,
/// the pointer of one such example and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldEvidence {
    pub ty: String,
    pub field: String,
    pub example: String,
    pub how: Disagreement,
}

/// The object fields whose documented examples disagree with their schema (see
/// [`Disagreement`]), each once, with the pointer of the first example that shows it.
pub(crate) fn disagreeing_fields(doc: &Value, service: &Service) -> Vec<FieldEvidence> {
    let swagger = document::version(doc).is_ok_and(|v| v == Version::Swagger2);
    let examples = Examples {
        doc,
        service,
        swagger,
    };
    let mut found: Vec<FieldEvidence> = Vec::new();
    let mut sink = FidelityReport::default();
    let mut blamed = |ty: &Ty, example: &Value, at: &str, owner: Option<(&str, &str)>| {
        let mut interpreter = Interpreter::new(service);
        interpreter.blamed = Some(Vec::new());
        let decoded = interpreter.value(ty, example);
        let mut blamed = interpreter.blamed.take().unwrap_or_default();
        // A field's own example of another JSON type blames the field itself.
        let scalar_field = match ty {
            Ty::List(i) | Ty::Map(i) => i.is_scalar(),
            other => other.is_scalar(),
        };
        // The text `"null"` is a document's way of writing null, not a number as text.
        let null_text = example.as_str() == Some("null");
        if let (Err(_), true, true, false, Some((t, f))) = (
            &decoded,
            interpreter.scalar_mismatch,
            scalar_field,
            null_text,
            owner,
        ) {
            let how = match example {
                Value::Null => Disagreement::Null,
                _ => Disagreement::OtherJsonType,
            };
            blamed.push((t.to_owned(), f.to_owned(), how));
        }
        for (t, f, how) in blamed {
            if !found
                .iter()
                .any(|e| e.ty == t && e.field == f && e.how == how)
            {
                found.push(FieldEvidence {
                    ty: t,
                    field: f,
                    example: format!("#{at}"),
                    how,
                });
            }
        }
    };
    examples.walk(&mut sink, &mut blamed);
    found
}

/// The document `text` parsed, whether it is Swagger 2.0, and the spec imported from it
/// checked.
fn prepared(
    text: &str,
    imported: &Imported,
    spec_name: &str,
    dir: Option<&std::path::Path>,
) -> Result<(Value, bool, Service), ImportError> {
    let mut raw = document::parse(text)?;
    let swagger = document::version(&raw)? == Version::Swagger2;
    if let Some(dir) = dir {
        super::bundle::inline_external_refs(&mut raw, dir, swagger);
    }
    let loaded = crate::load::load_str(spec_name, &imported.yaml)
        .map_err(|d| ImportError::Refused(d.to_string()))?;
    let service = crate::check::check(&loaded).map_err(|d| ImportError::Refused(d.to_string()))?;
    Ok((raw, swagger, service))
}

/// One example the report counts, with the type it is decoded as.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedExample {
    /// JSON pointer of the example in the document.
    pub pointer: String,
    /// The spec type the example is decoded as (a body's, an answer's, an error body's, a
    /// component's or a field's).
    pub ty: Ty,
    /// The example, as the report decodes it (a form's single values as lists of one where
    /// the field is a list).
    pub value: Value,
}

/// Every example [`fidelity_report`] counts, with its type: what a test holds the compiled
/// client to (`tests/tests/providers_full.rs` decodes each with the generated types and
/// compares with [`interpret`]).
///
/// # Errors
/// As [`fidelity_report`].
pub fn typed_examples(
    text: &str,
    imported: &Imported,
    spec_name: &str,
) -> Result<Vec<TypedExample>, ImportError> {
    let (raw, swagger, service) = prepared(text, imported, spec_name, None)?;
    let examples = Examples {
        doc: &raw,
        service: &service,
        swagger,
    };
    let mut out = Vec::new();
    examples.walk(
        &mut FidelityReport::default(),
        &mut |ty: &Ty, value: &Value, at: &str, _| {
            out.push(TypedExample {
                pointer: format!("#{at}"),
                ty: ty.clone(),
                value: value.clone(),
            });
        },
    );
    Ok(out)
}

/// Builds the report of `imported`, made from the document `text`.
///
/// # Errors
/// When the document or the imported spec does not load (neither happens after a successful
/// import of the same text).
pub fn fidelity_report(
    text: &str,
    imported: &Imported,
    spec_name: &str,
) -> Result<FidelityReport, ImportError> {
    fidelity_report_in(text, imported, spec_name, None)
}

/// [`fidelity_report`] of a document whose references to other files are read from `dir`, as
/// the import read them ([`super::ImportOptions::base_dir`]): without them, the error answers
/// of Vonage's `common/common_errors.yml` were counted as untyped (3 of 22).
///
/// # Errors
/// As [`fidelity_report`].
pub fn fidelity_report_in(
    text: &str,
    imported: &Imported,
    spec_name: &str,
    dir: Option<&std::path::Path>,
) -> Result<FidelityReport, ImportError> {
    let (raw, swagger, service) = prepared(text, imported, spec_name, dir)?;
    let r = &imported.report;
    let located = |f: &super::report::Finding| Located {
        pointer: f.pointer.clone(),
        reason: match &f.detail {
            Some(d) => format!("{}: {d}", f.reason),
            None => f.reason.clone(),
        },
    };
    let mut out = FidelityReport {
        operations_in_document: r.operations_in_document,
        operations_imported: r.operations_imported,
        operations_skipped: r.skipped_operations().map(located).collect(),
        // The parts skipped inside what was imported (a webhook whose payload is not JSON
        // or a form, told only in the text report).
        parts_skipped: r
            .skipped
            .iter()
            .filter(|f| !r.skipped_operations().any(|o| std::ptr::eq(o, *f)))
            .map(located)
            .collect(),
        approximated: r.approximated.len(),
        inferred: r
            .inferred
            .iter()
            .map(|f| Located {
                pointer: f.pointer.clone(),
                reason: f.reason.clone(),
            })
            .collect(),
        ..FidelityReport::default()
    };
    let examples = Examples {
        doc: &raw,
        service: &service,
        swagger,
    };
    examples.walk(&mut out, &mut |_, _, _, _| {});
    let (paged, unpaged) = lists(&service);
    out.lists_paged = paged;
    out.lists_unpaged = unpaged
        .into_iter()
        .map(|(pointer, reason)| Located { pointer, reason })
        .collect();
    Ok(out)
}

/// One request body example of the document, as the generated client sends it.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestExample {
    /// The operation's name in the imported spec.
    pub operation: String,
    /// JSON pointer of the operation in the document (`/paths/~1v3~1mail~1send/post`).
    pub operation_pointer: String,
    /// JSON pointer of the example.
    pub pointer: String,
    /// The example decoded with the body's type and encoded again ([`interpret`]): the JSON
    /// the generated client sends for it; why not when it does not decode.
    pub sent: Result<Value, String>,
    /// Where and how the example breaks its own schema in the document, `enum` lists read as
    /// closed (a validating server refuses it as the document wrote it).
    pub breaks_schema: Option<String>,
}

/// Every request body example the document gives for an operation imported into `imported`,
/// in the order of the spec's operations, each with the JSON the generated client sends.
///
/// # Errors
/// As [`fidelity_report`].
pub fn request_examples(
    text: &str,
    imported: &Imported,
    spec_name: &str,
) -> Result<Vec<RequestExample>, ImportError> {
    let (raw, swagger, service) = prepared(text, imported, spec_name, None)?;
    let examples = Examples {
        doc: &raw,
        service: &service,
        swagger,
    };
    let mut out = Vec::new();
    for op in &service.operations {
        let (Some(body), Some(pointer)) = (&op.body, note_pointer(op.note.as_deref())) else {
            continue;
        };
        let Some(node) = document::resolve(&raw, &format!("#{pointer}")) else {
            continue;
        };
        let mut shown = examples.request_examples(node, pointer);
        // A body that is a component shows that component's own examples.
        for (at, target) in body_refs(&raw, node) {
            shown.extend(schema_examples(target, &at));
        }
        for (at, example) in shown {
            let example = examples.form_lists(body, &at, example);
            out.push(RequestExample {
                operation: op.name.clone(),
                operation_pointer: pointer.to_owned(),
                pointer: format!("#{at}"),
                sent: interpret(&service, body, &example),
                breaks_schema: super::example_schema::schema_of(&raw, &at).and_then(|schema| {
                    super::example_schema::strict_violation(&raw, schema, &example)
                }),
            });
        }
    }
    Ok(out)
}

/// The components a request body refers to (`$ref` of the OpenAPI 3 media types' schemas,
/// of the Swagger 2.0 `in: body` parameter's schema), with their pointers.
fn body_refs<'d>(doc: &'d Value, op: &Value) -> Vec<(String, &'d Value)> {
    let mut refs: Vec<&str> = Vec::new();
    if let Some(body) = op.get("requestBody") {
        let body = match body.get("$ref").and_then(Value::as_str) {
            Some(r) => document::resolve(doc, r),
            None => Some(body),
        };
        if let Some(Value::Object(content)) = body.and_then(|b| b.get("content")) {
            refs.extend(
                content
                    .values()
                    .filter_map(|m| m.get("schema")?.get("$ref")?.as_str()),
            );
        }
    }
    if let Some(Value::Array(params)) = op.get("parameters") {
        refs.extend(params.iter().filter_map(|p| {
            (p.get("in")?.as_str()? == "body").then_some(())?;
            p.get("schema")?.get("$ref")?.as_str()
        }));
    }
    refs.sort_unstable();
    refs.dedup();
    refs.into_iter()
        .filter_map(|r| {
            Some((
                r.trim_start_matches('#').to_owned(),
                document::resolve(doc, r)?,
            ))
        })
        .collect()
}

struct Examples<'a> {
    doc: &'a Value,
    service: &'a Service,
    swagger: bool,
}

/// Called with each body or schema example, the type it is decoded as, its pointer, and for a
/// field's own example (`properties/<name>/example`) the `(type, field)` it belongs to.
type Visit<'v> = dyn FnMut(&Ty, &Value, &str, Option<(&str, &str)>) + 'v;

/// An error body's type and its code and message paths.
type ErrorShape<'a> = (&'a Option<Ty>, &'a Option<String>, &'a Option<String>);

impl Examples<'_> {
    /// Checks every example into `out`, showing each to `visit` too.
    fn walk(&self, out: &mut FidelityReport, visit: &mut Visit<'_>) {
        self.components(out, visit);
        self.fields(out, visit);
        self.operations(out, visit);
    }

    /// Each object field's own examples (`properties/<name>/example`, Vonage's way of showing
    /// values), decoded as the field's type. A field that is a `$ref` shows its component's.
    fn fields(&self, out: &mut FidelityReport, visit: &mut Visit<'_>) {
        // Notes of a Swagger 2.0 import point into the document or its OpenAPI 3 form.
        let converted = self.swagger.then(|| document::swagger_to_openapi(self.doc));
        for t in &self.service.types {
            let TypeKind::Object(fields) = &t.kind else {
                continue;
            };
            let Some(pointer) = note_pointer(t.note.as_deref()) else {
                continue;
            };
            let at = format!("#{pointer}");
            let Some(schema) = document::resolve(self.doc, &at)
                .or_else(|| converted.as_ref().and_then(|c| document::resolve(c, &at)))
            else {
                continue;
            };
            for f in fields {
                let Some((prop, pptr)) = property(schema, pointer, &f.wire) else {
                    continue;
                };
                for (at, example) in inline_examples(prop, &pptr) {
                    // An optional or nullable field shown as `null` (3.1's `type: [string, "null"]`) is
                    // `None`, as inside an object; a Unix time shown as the number it is sent
                    // as (Textmagic's `sendingTime`: `1565606455`) is that number: lossless.
                    let unix = f.ty == Ty::DateTime
                        && example.is_i64()
                        && matches!(
                            f.format,
                            Some(crate::model::Format::Unix | crate::model::Format::UnixMs)
                        );
                    if (example.is_null() && f.is_option()) || unix {
                        out.examples_total += 1;
                        out.examples_lossless += 1;
                        continue;
                    }
                    visit(&f.ty, &example, &at, Some((&t.name, &f.wire)));
                    self.check(out, &f.ty, &example, &at);
                }
            }
        }
    }

    fn components(&self, out: &mut FidelityReport, visit: &mut Visit<'_>) {
        let (section, prefix) = if self.swagger {
            (self.doc.get("definitions"), "/definitions/")
        } else {
            (
                self.doc.get("components").and_then(|c| c.get("schemas")),
                "/components/schemas/",
            )
        };
        let Some(Value::Object(schemas)) = section else {
            return;
        };
        let by_pointer: std::collections::HashMap<&str, &TypeInfo> = self
            .service
            .types
            .iter()
            .filter_map(|t| Some((note_pointer(t.note.as_deref())?, t)))
            .collect();
        for (raw, schema) in schemas {
            let pointer = format!("{prefix}{}", document::escape(raw));
            // The type imported from this component (unions and objects have one; aliases
            // such as `map<T>` have none and their examples are checked where used).
            let Some(t) = by_pointer.get(pointer.as_str()) else {
                continue;
            };
            let ty = Ty::Named(t.name.clone());
            for (at, example) in schema_examples(schema, &pointer) {
                visit(&ty, &example, &at, None);
                self.check(out, &ty, &example, &at);
            }
        }
    }

    fn operations(&self, out: &mut FidelityReport, visit: &mut Visit<'_>) {
        for op in &self.service.operations {
            let Some(pointer) = note_pointer(op.note.as_deref()) else {
                continue;
            };
            let Some(node) = document::resolve(self.doc, &format!("#{pointer}")) else {
                continue;
            };
            if let Some(body) = &op.body {
                for (at, example) in self.request_examples(node, pointer) {
                    let example = self.form_lists(body, &at, example);
                    visit(body, &example, &at, None);
                    self.check(out, body, &example, &at);
                }
            }
            let Some(Value::Object(responses)) = node.get("responses") else {
                continue;
            };
            for (status, response) in responses {
                let rptr = format!("{pointer}/responses/{}", document::escape(status));
                let (response, rptr) = match response.get("$ref").and_then(Value::as_str) {
                    Some(r) => match document::resolve(self.doc, r) {
                        Some(target) => (target, r.trim_start_matches('#').to_owned()),
                        None => continue,
                    },
                    None => (response, rptr),
                };
                let examples = self.response_examples(response, &rptr);
                let code: u16 = status.parse().unwrap_or(0);
                if (200..300).contains(&code) {
                    if let Some(ty) = &op.response {
                        for (at, example) in examples {
                            visit(ty, &example, &at, None);
                            self.check(out, ty, &example, &at);
                        }
                    }
                } else if code >= 400 || status == "default" || status.ends_with(['X', 'x']) {
                    let own: Vec<&ErrorBodyInfo> = op
                        .error_bodies
                        .iter()
                        .filter(|b| {
                            b.key.eq_ignore_ascii_case(status)
                                || (code >= 400 && (b.statuses.0..=b.statuses.1).contains(&code))
                        })
                        .collect();
                    // The error type the example is decoded with: shown to `visit`, so a field
                    // the error examples leave out (Brevo's required `code`) is made optional
                    // as for any answer.
                    let error_ty = match (own.first(), &self.service.errors) {
                        (Some(b), _) => b.ty.as_ref(),
                        (None, Some(e)) => e.ty.as_ref(),
                        (None, None) => None,
                    };
                    // Swagger 2.0 keeps the schema on the response itself.
                    let schemed = response.get("schema").is_some()
                        || response
                            .get("content")
                            .and_then(Value::as_object)
                            .is_some_and(|c| c.values().any(|m| m.get("schema").is_some()));
                    if schemed && error_ty.is_some() {
                        out.errors_typed += 1;
                    }
                    for (at, example) in examples {
                        out.errors_documented += 1;
                        if let Some(ty) = error_ty {
                            visit(ty, &example, &at, None);
                        }
                        match self.error_decodes(&own, &example) {
                            Ok(()) => out.errors_decoded += 1,
                            Err(reason) => out.errors_not_decoded.push(Located {
                                pointer: format!("#{at}"),
                                reason,
                            }),
                        }
                    }
                }
            }
        }
    }

    /// An error example decodes with the error type, and the code and message paths find a
    /// value in it (those the spec says the body has), read as the runtime reads an answer:
    /// the operation's own error bodies for the status (`own`, its shapes in order), then the
    /// service's; the first whose paths find a value decides.
    fn error_decodes(&self, own: &[&ErrorBodyInfo], example: &Value) -> Result<(), String> {
        // A text answer (Mailgun's `"Forbidden"`) is read whole as the message, whatever
        // the paths.
        if example.as_str().is_some_and(|s| !s.trim().is_empty()) {
            return Ok(());
        }
        let mut shapes: Vec<ErrorShape<'_>> =
            own.iter().map(|b| (&b.ty, &b.code, &b.message)).collect();
        if let Some(e) = &self.service.errors {
            shapes.push((&e.ty, &e.code, &e.message));
        }
        let mut first: Option<Result<(), String>> = None;
        for shape in shapes {
            let result = self.error_fits(shape, example);
            let finds_some = [shape.1, shape.2]
                .into_iter()
                .flatten()
                .any(|path| at_path(example, path).is_some_and(|v| !v.is_null()));
            if result.is_ok() || finds_some {
                return result;
            }
            first.get_or_insert(result);
        }
        first.unwrap_or_else(|| Err("the spec has no `errors` section".into()))
    }

    /// An error example decodes with `ty` and its code and message paths find a value.
    fn error_fits(
        &self,
        (ty, code, message): ErrorShape<'_>,
        example: &Value,
    ) -> Result<(), String> {
        if let Some(ty) = ty {
            interpret(self.service, ty, example).map_err(|e| format!("does not decode: {e}"))?;
        }
        if code.is_none() && message.is_none() {
            return Err("the spec names neither a code nor a message path".into());
        }
        let found = |path: &str| at_path(example, path).is_some_and(|v| !v.is_null());
        let read: Vec<&str> = [code, message]
            .into_iter()
            .flatten()
            .filter(|p| found(p))
            .map(|p| p.split('.').next().unwrap_or(p))
            .collect();
        // A path that finds nothing loses nothing when the example has nothing else to read:
        // Brevo's `{"message": "Not valid data."}` carries no code, and its client's error
        // has all it says. An example with a key no path reads is not decoded.
        let nothing_else = !read.is_empty()
            && example
                .as_object()
                .is_some_and(|fields| fields.keys().all(|k| read.contains(&k.as_str())));
        for (what, path) in [("code", code), ("message", message)] {
            if let Some(path) = path
                && !found(path)
                && !nothing_else
            {
                return Err(format!("no {what} at `{path}`"));
            }
        }
        Ok(())
    }

    /// A form body example (at `at`) as the form's wire reads it, where the document's JSON
    /// and the client's value are the same bytes: one value given for a list field is that
    /// list of one (`StatusCallbackEvent=initiated`), and text given for a boolean or number
    /// field is that value when it reads as one (`Record=true`, `ChargeAmount=20.45`).
    fn form_lists(&self, body: &Ty, at: &str, example: Value) -> Value {
        let form = at.contains("x-www-form-urlencoded") || at.contains("form-data");
        let (true, Ty::Named(name), Value::Object(mut fields)) = (form, body, example.clone())
        else {
            return example;
        };
        let Some(TypeInfo {
            kind: TypeKind::Object(declared),
            ..
        }) = self.service.type_named(name)
        else {
            return example;
        };
        for f in declared {
            let Some(v) = fields.get_mut(&f.wire) else {
                continue;
            };
            match (&f.ty, &*v) {
                (Ty::List(_), Value::Array(_) | Value::Null) => {}
                (Ty::List(_), _) => *v = Value::Array(vec![v.take()]),
                // In any case: Twilio writes `"True"` (as Python's clients send it).
                (Ty::Boolean, Value::String(text))
                    if text.eq_ignore_ascii_case("true") || text.eq_ignore_ascii_case("false") =>
                {
                    *v = Value::Bool(text.eq_ignore_ascii_case("true"));
                }
                (Ty::Integer, Value::String(text)) => {
                    if let Ok(n) = text.parse::<i64>() {
                        *v = Value::from(n);
                    }
                }
                (Ty::Number, Value::String(text)) => {
                    if let Some(n) = text
                        .parse::<f64>()
                        .ok()
                        .filter(|n| n.is_finite())
                        .and_then(serde_json::Number::from_f64)
                    {
                        *v = Value::Number(n);
                    }
                }
                _ => {}
            }
        }
        Value::Object(fields)
    }

    fn request_examples(&self, op: &Value, pointer: &str) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        if let Some(body) = op.get("requestBody") {
            let (body, bptr) = match body.get("$ref").and_then(Value::as_str) {
                Some(r) => match document::resolve(self.doc, r) {
                    Some(t) => (t, r.trim_start_matches('#').to_owned()),
                    None => return out,
                },
                None => (body, format!("{pointer}/requestBody")),
            };
            out.extend(self.content_examples(body, &bptr));
            // A request example named as a refusal's example shows a request the service
            // refuses (Intercom's `invalid_parameters` body beside its 400 `Invalid
            // parameters`): no evidence of what a valid request leaves out.
            let refused = self.refusal_example_names(op);
            out.retain(|(at, _)| example_name(at).is_none_or(|name| !refused.contains(&name)));
        }
        // Swagger 2.0: the `in: body` parameter's schema.
        if let Some(Value::Array(params)) = op.get("parameters") {
            for (i, p) in params.iter().enumerate() {
                if p.get("in").and_then(Value::as_str) == Some("body")
                    && let Some(schema) = p.get("schema")
                {
                    let sptr = format!("{pointer}/parameters/{i}/schema");
                    out.extend(inline_examples(schema, &sptr));
                    if let Some(Value::Object(by_type)) = p.get("x-examples") {
                        for (mime, v) in by_type {
                            out.push((
                                format!(
                                    "{pointer}/parameters/{i}/x-examples/{}",
                                    document::escape(mime)
                                ),
                                v.clone(),
                            ));
                        }
                    }
                }
            }
        }
        out
    }

    /// The names of the examples an operation's client-error answers show and its successes
    /// do not (Mailgun names every example `Example`), in lower case without separators.
    fn refusal_example_names(&self, op: &Value) -> Vec<String> {
        let Some(Value::Object(responses)) = op.get("responses") else {
            return Vec::new();
        };
        let names = |class: char| -> Vec<String> {
            responses
                .iter()
                .filter(|(status, _)| status.starts_with(class))
                .filter_map(|(_, r)| match r.get("$ref").and_then(Value::as_str) {
                    Some(target) => document::resolve(self.doc, target),
                    None => Some(r),
                })
                .filter_map(|r| r.get("content").and_then(Value::as_object))
                .flat_map(|content| content.values())
                .filter_map(|media| media.get("examples").and_then(Value::as_object))
                .flat_map(|named| named.keys().map(|k| plain_name(k)))
                .collect()
        };
        let successes = names('2');
        let mut refusals = names('4');
        refusals.retain(|n| !successes.contains(n));
        refusals
    }

    fn response_examples(&self, response: &Value, pointer: &str) -> Vec<(String, Value)> {
        let mut out = self.content_examples(response, pointer);
        // Swagger 2.0: `examples: {mime: value}` and the schema's own example.
        if let Some(Value::Object(by_mime)) = response.get("examples") {
            for (mime, v) in by_mime {
                if mime.contains("json") {
                    out.push((
                        format!("{pointer}/examples/{}", document::escape(mime)),
                        v.clone(),
                    ));
                }
            }
        }
        if let Some(schema) = response.get("schema") {
            out.extend(inline_examples(schema, &format!("{pointer}/schema")));
        }
        out
    }

    /// The examples of a `content` map's JSON and form media types: the media type's
    /// `example`, each `examples` value, and an inline schema's `example` (a `$ref`'s is
    /// counted with its component).
    fn content_examples(&self, node: &Value, pointer: &str) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        let Some(Value::Object(content)) = node.get("content") else {
            return out;
        };
        for (mime, media) in content {
            // JSON, and the form bodies the client encodes from the same values.
            if !(mime.contains("json") || mime.contains("form")) {
                continue;
            }
            let mptr = format!("{pointer}/content/{}", document::escape(mime));
            if let Some(v) = media.get("example") {
                out.push((format!("{mptr}/example"), v.clone()));
            }
            if let Some(Value::Object(named)) = media.get("examples") {
                for (name, ex) in named {
                    let eptr = format!("{mptr}/examples/{}", document::escape(name));
                    let ex = match ex.get("$ref").and_then(Value::as_str) {
                        Some(r) => match document::resolve(self.doc, r) {
                            Some(t) => t,
                            None => continue,
                        },
                        None => ex,
                    };
                    if let Some(v) = ex.get("value") {
                        out.push((format!("{eptr}/value"), v.clone()));
                    }
                }
            }
            if let Some(schema) = media.get("schema") {
                out.extend(inline_examples(schema, &format!("{mptr}/schema")));
            }
        }
        out
    }

    fn check(&self, out: &mut FidelityReport, ty: &Ty, example: &Value, at: &str) {
        // A file part's example (Ably's `p12File: example.p12`, a `format: binary` string)
        // names a file; the client sends the file's bytes, so there is no value to compare.
        if *ty == Ty::Bytes {
            return;
        }
        out.examples_total += 1;
        let result = interpret(self.service, ty, example)
            .map_err(|e| format!("does not decode: {e}"))
            .and_then(|back| match difference(example, &back, "") {
                None => Ok(()),
                Some(d) => Err(d),
            });
        match result {
            Ok(()) => out.examples_lossless += 1,
            Err(reason) => {
                let broken = super::example_schema::schema_of(self.doc, at)
                    .and_then(|schema| super::example_schema::violation(self.doc, schema, example));
                let reason = match broken {
                    Some(v) => {
                        out.examples_invalid += 1;
                        format!("{reason}; the example disagrees with its own schema: {v}")
                    }
                    None => reason,
                };
                out.lossy.push(Located {
                    pointer: format!("#{at}"),
                    reason,
                });
            }
        }
    }
}

/// A schema's own examples: `example`, and each item of `examples` (JSON Schema's array).
fn schema_examples(schema: &Value, pointer: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    if let Some(v) = schema.get("example") {
        out.push((format!("{pointer}/example"), v.clone()));
    }
    if let Some(Value::Array(items)) = schema.get("examples") {
        for (i, v) in items.iter().enumerate() {
            out.push((format!("{pointer}/examples/{i}"), v.clone()));
        }
    }
    out
}

/// The schema of property `wire` of an object schema at `pointer` (in its `properties`, or in
/// those of an `allOf` part written in place), with its pointer.
fn property<'v>(schema: &'v Value, pointer: &str, wire: &str) -> Option<(&'v Value, String)> {
    let key = document::escape(wire);
    if let Some(p) = schema.get("properties").and_then(|p| p.get(wire)) {
        return Some((p, format!("{pointer}/properties/{key}")));
    }
    let Some(Value::Array(parts)) = schema.get("allOf") else {
        return None;
    };
    parts.iter().enumerate().find_map(|(i, part)| {
        let p = part.get("properties")?.get(wire)?;
        Some((p, format!("{pointer}/allOf/{i}/properties/{key}")))
    })
}

/// An inline schema's examples; a `$ref` schema's belong to its component.
fn inline_examples(schema: &Value, pointer: &str) -> Vec<(String, Value)> {
    if schema.get("$ref").is_some() {
        return Vec::new();
    }
    schema_examples(schema, pointer)
}

/// The value at a dot path (`errors.0.message`): objects by key, arrays by index.
fn at_path<'a>(value: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(value, |v, key| match v {
        Value::Object(m) => m.get(key),
        Value::Array(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

/// The name of a named example a pointer reaches (`.../examples/<name>/value`), in lower case
/// without separators.
fn example_name(pointer: &str) -> Option<String> {
    let (_, after) = pointer.rsplit_once("/examples/")?;
    Some(plain_name(after.split('/').next()?))
}

/// A name in lower case, its letters and digits only (`Invalid parameters` and
/// `invalid_parameters` are one).
fn plain_name(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}
