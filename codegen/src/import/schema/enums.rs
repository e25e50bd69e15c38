//! String enums as open enums: each value named in Rust, a value whose own name is taken or
//! none given one (`-createdAt` → `CreatedAtDesc`), what cannot be named reported.

use std::collections::BTreeSet;

use serde_json::Value;

use super::description;
use crate::import::{Converter, TypeOut};
use crate::names::{can_be_ident, pascal};

impl Converter<'_> {
    /// An open enum named from `hint`; `string` when no value has a usable name.
    pub(super) fn enum_type(&mut self, hint: &str, s: &Value, ptr: &str) -> String {
        let mut values = Vec::new();
        let mut rust_names = BTreeSet::new();
        let mut named = Vec::new();
        for v in s
            .get("enum")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(text) = v.as_str() else { continue };
            if values.contains(&text.to_owned()) {
                continue;
            }
            let rust = pascal(text);
            if rust == "Unknown" {
                self.approximate(
                    ptr,
                    "enum value `unknown` is where open enums keep unknown values",
                );
                continue;
            }
            let usable = |name: &String| {
                !name.is_empty()
                    && name != "Unknown"
                    && can_be_ident(name)
                    && !rust_names.contains(name)
            };
            if !text.is_empty() && usable(&rust) {
                rust_names.insert(rust);
                values.push(text.to_owned());
                continue;
            }
            // A name of its own for a value whose name is taken or none: a sort order's
            // descending `-createdAt` beside `createdAt` (Telnyx's 50 sort enums), a number
            // (`"1"`, a webhook format's version).
            let given = [
                text.strip_prefix('-').map(|rest| (rest, "Desc")),
                text.strip_prefix('+').map(|rest| (rest, "Asc")),
            ]
            .into_iter()
            .flatten()
            .filter(|(rest, _)| !rest.is_empty())
            .map(|(rest, end)| format!("{}{end}", pascal(rest)))
            .chain(
                text.starts_with(|c: char| c.is_ascii_digit())
                    .then(|| format!("V{}", pascal(text))),
            )
            // An operator (a filter's `>=`), nothing (`""`), a keyword (`self`).
            .chain(symbol_name(text).map(str::to_owned))
            .chain((!rust.is_empty() && !can_be_ident(&rust)).then(|| format!("{rust}Value")))
            // Another spelling of a value named already (`E.164` beside `e164`).
            .chain(
                (2..10)
                    .filter(|_| !rust.is_empty())
                    .map(|n| format!("{rust}{n}")),
            )
            .find(|name| usable(name));
            let Some(given) = given else {
                let why = if text.is_empty() || rust.is_empty() || !can_be_ident(&rust) {
                    "has no Rust name"
                } else {
                    "has the Rust name of another value"
                };
                self.approximate(
                    ptr,
                    &format!("enum value `{text}` {why} (open enums keep it as Unknown)"),
                );
                continue;
            };
            self.report.inferred.push(crate::import::Finding {
                pointer: self.pointer(ptr),
                reason: format!("enum value `{text}` named `{given}` (`rust_name`)"),
                detail: None,
            });
            rust_names.insert(given.clone());
            named.push((text.to_owned(), given));
            values.push(text.to_owned());
        }
        if values.is_empty() {
            return "string".into();
        }
        let name = self.inline_name(hint);
        self.types.insert(
            name.clone(),
            TypeOut::Enum {
                doc: description(s),
                values,
                rust_names: named,
                pointer: ptr.to_owned(),
            },
        );
        name
    }
}

/// The name of an enum value that is an operator (`>=` → `Ge`, Telnyx's filter comparisons)
/// or empty (Telnyx's `line_type` may be `""`).
fn symbol_name(text: &str) -> Option<&'static str> {
    Some(match text {
        "" => "Empty",
        "==" | "=" => "Eq",
        "!=" => "Ne",
        "<" => "Lt",
        "<=" => "Le",
        ">" => "Gt",
        ">=" => "Ge",
        "+" => "Plus",
        "-" => "Minus",
        "*" => "Times",
        "/" => "Divide",
        "%" => "Percent",
        _ => return None,
    })
}
