//! Binding `limits.sizes` to what they limit: a field (`size:`), a `rules` entry (`size:` as
//! its `max_total`) or an operation's whole body (`body_size:`), and refusing a size that has a
//! value but limits nothing (a filled gap must take effect).

use super::Checker;
use crate::model::{Field, Operation, Rule, SizeLimit, TypeDef};
use crate::names::did_you_mean;
use crate::resolved::{Constraints, Ty};

/// What a size's unit makes it limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Measure {
    /// Characters of a string (`max_len`).
    Characters,
    /// UTF-8 bytes of a string or a body (`max_bytes`).
    Bytes,
    /// A count of items (`max_items`, `max_total`).
    Count,
}

fn measure(unit: &str) -> Measure {
    match unit {
        "characters" | "character" | "chars" => Measure::Characters,
        "bytes" | "byte" => Measure::Bytes,
        _ => Measure::Count,
    }
}

impl Checker<'_> {
    /// Refuses a `default` at `path` that is not a value of the field's type `ty` (a string of
    /// a text or an enum's values, a number, a boolean).
    pub(super) fn field_default(
        &mut self,
        path: &str,
        default: Option<&serde_json::Value>,
        ty: &Ty,
    ) {
        use serde_json::Value;
        let Some(value) = default else { return };
        let fits = match (ty, value) {
            (Ty::String | Ty::DateTime | Ty::Date, Value::String(_)) => true,
            (Ty::Integer, Value::Number(n)) => n.is_i64() || n.is_u64(),
            (Ty::Number, Value::Number(_)) | (Ty::Boolean, Value::Bool(_)) => true,
            (Ty::Named(name), Value::String(text)) => match self.spec.types.get(name) {
                Some(def) => def
                    .values
                    .as_ref()
                    .is_some_and(|values| values.iter().any(|v| v.value() == text)),
                None => false,
            },
            _ => false,
        };
        if !fits {
            self.error(
                &format!("{path}.default"),
                format!("`default` {value} is not a value of `{ty}`"),
            );
        }
    }

    /// Refuses a `pattern` at `path` the sandbox could not use: one that does not compile as a
    /// regular expression (look-around and back-references are not supported).
    pub(super) fn pattern(&mut self, path: &str, pattern: Option<&str>) {
        let Some(pattern) = pattern else { return };
        if let Err(e) = tidings_spec::pattern::compile(pattern) {
            self.error(
                &format!("{path}.pattern"),
                format!("`pattern` is not a regular expression the sandbox can use: {e}"),
            );
        }
    }

    /// The size `name` named at `path` (a `size:` or `body_size:` key) and what it measures;
    /// `None` (with a diagnostic) when it does not exist or has no unit.
    fn size_ref(&mut self, path: &str, name: &str) -> Option<(SizeLimit, Measure)> {
        let sizes = self.spec.limits.as_ref().map(|l| &l.sizes);
        let Some(size) = sizes.and_then(|s| s.get(name)).cloned() else {
            let known: Vec<&str> = sizes
                .map(|s| s.keys().map(String::as_str).collect())
                .unwrap_or_default();
            let hint = did_you_mean(name, known.iter().copied())
                .map(|h| format!("did you mean `{h}`?"))
                .unwrap_or_else(|| {
                    format!(
                        "add `{name}: {{ max: ..., unit: ..., source: ... }}` under `limits.sizes`"
                    )
                });
            let expected = if known.is_empty() {
                "a size defined under `limits.sizes`".to_owned()
            } else {
                format!("one of {}", known.join(", "))
            };
            let d = self.error_at_value(path, format!("unknown size `{name}`"));
            d.expected = Some(expected);
            d.hint = Some(hint);
            return None;
        };
        let Some(unit) = size.unit.as_deref() else {
            let d = self.error_at_value(
                path,
                format!("size `{name}` has no `unit`, so what it limits is unclear"),
            );
            d.hint = Some(format!(
                "give `limits.sizes.{name}` a unit: `characters`, `bytes` or what it counts (`recipients`)"
            ));
            return None;
        };
        let m = measure(unit);
        Some((size, m))
    }

    /// The limit a field's `size:` gives, as constraints to merge under the field's own.
    pub(super) fn field_size(&mut self, path: &str, field: &Field, ty: &Ty) -> Constraints {
        let mut c = Constraints::default();
        let Some(name) = field.size.as_deref() else {
            return c;
        };
        let spath = format!("{path}.size");
        let Some((size, m)) = self.size_ref(&spath, name) else {
            return c;
        };
        let strings = match ty {
            Ty::String | Ty::DateTime => true,
            Ty::List(t) | Ty::Map(t) => matches!(**t, Ty::String | Ty::DateTime),
            _ => false,
        };
        let counted = matches!(ty, Ty::List(_) | Ty::Map(_));
        let (key, own, fits, what) = match m {
            Measure::Characters => ("max_len", field.max_len, strings, "strings"),
            Measure::Bytes => ("max_bytes", field.max_bytes, strings, "strings"),
            Measure::Count => ("max_items", field.max_items, counted, "lists and maps"),
        };
        let unit = size.unit.as_deref().unwrap_or_default();
        if !fits {
            let d = self.error_at_value(
                &spath,
                format!("size `{name}` counts {unit}, which limits {what} (it would set `{key}`)"),
            );
            d.hint = Some(
                "bind a size in `characters` or `bytes` to a string, a count to a list".into(),
            );
            return c;
        }
        if let Some(own) = own {
            let d = self.error(
                &format!("{path}.{key}"),
                format!("`{key}: {own}` and `size: {name}` both set this field's limit"),
            );
            d.hint = Some(format!(
                "drop `{key}`: `limits.sizes.{name}.max` gives it (one place to change)"
            ));
            return c;
        }
        match m {
            Measure::Characters => c.max_len = size.max,
            Measure::Bytes => c.max_bytes = size.max,
            Measure::Count => c.max_items = size.max,
        }
        c
    }

    /// A rule whose `size:` names a count becomes a `max_total` rule; `None` when the size is
    /// unusable (reported) or has no value yet (nothing to check).
    pub(super) fn rule_size(&mut self, rpath: &str, rule: &Rule) -> Option<Rule> {
        let Some(name) = rule.size.as_deref() else {
            return Some(rule.clone());
        };
        let spath = format!("{rpath}.size");
        if let Some(own) = rule.max_total {
            let d = self.error(
                &format!("{rpath}.max_total"),
                format!("`max_total: {own}` and `size: {name}` both set this rule's limit"),
            );
            d.hint = Some(format!(
                "drop `max_total`: `limits.sizes.{name}.max` gives it"
            ));
            return None;
        }
        let (size, m) = self.size_ref(&spath, name)?;
        if m != Measure::Count {
            let d = self.error_at_value(
                &spath,
                format!(
                    "size `{name}` is in {}, and a rule counts list items",
                    size.unit.as_deref().unwrap_or_default()
                ),
            );
            d.hint = Some("bind it to a string field with `size:` instead".into());
            return None;
        }
        if rule.fields.is_none() {
            let d = self.error(rpath, "a `size` rule needs `fields`: the lists it counts");
            d.expected = Some(format!("{{ size: {name}, fields: [to, cc, bcc] }}"));
            return None;
        }
        let max = size.max?;
        Some(Rule {
            max_total: Some(max),
            size: None,
            ..rule.clone()
        })
    }

    /// The rules as written, a `size:` rule also showing the `max_total` its size gives (for
    /// the exports' `x-rules`).
    pub(super) fn rules_as_written(&self, def: &TypeDef) -> Vec<Rule> {
        let sizes = self.spec.limits.as_ref().map(|l| &l.sizes);
        def.rules
            .iter()
            .map(|r| {
                let from_size = r
                    .size
                    .as_ref()
                    .and_then(|n| sizes.and_then(|s| s.get(n)))
                    .and_then(|s| s.max);
                Rule {
                    max_total: r.max_total.or(from_size),
                    ..r.clone()
                }
            })
            .collect()
    }

    /// The largest body an operation's `body_size:` allows, when the size has a value.
    pub(super) fn body_size(&mut self, opath: &str, op: &Operation) -> Option<u64> {
        let name = op.body_size.as_deref()?;
        let spath = format!("{opath}.body_size");
        let (size, m) = self.size_ref(&spath, name)?;
        if m != Measure::Bytes {
            let d = self.error_at_value(
                &spath,
                format!(
                    "size `{name}` counts {}, and `body_size` needs one in bytes",
                    size.unit.as_deref().unwrap_or_default()
                ),
            );
            d.hint = Some(
                "`size:` binds it where it applies instead: a string field (characters), a list or a rule (a count)"
                    .into(),
            );
            return None;
        }
        if op.body.is_none() && !crate::resolved::defaults::has_body(op.method) {
            self.error_at_value(
                &spath,
                format!(
                    "`{}` sends no body, so `body_size` limits nothing",
                    op.method.as_str()
                ),
            );
            return None;
        }
        size.max
    }

    /// Every size that has a value must limit something: filling a gap takes effect.
    pub(super) fn unbound_sizes(&mut self) {
        let Some(limits) = &self.spec.limits else {
            return;
        };
        let mut used: Vec<&str> = Vec::new();
        for def in self.spec.types.values() {
            for field in def.fields.iter().flat_map(|f| f.values()) {
                used.extend(field.size.as_deref());
            }
            used.extend(def.rules.iter().filter_map(|r| r.size.as_deref()));
        }
        used.extend(
            self.spec
                .operations
                .values()
                .filter_map(|o| o.body_size.as_deref()),
        );
        let unbound: Vec<(String, u64)> = limits
            .sizes
            .iter()
            .filter(|(name, _)| !used.contains(&name.as_str()))
            .filter_map(|(name, s)| s.max.map(|max| (name.clone(), max)))
            .collect();
        for (name, max) in unbound {
            let d = self.error(
                &format!("limits.sizes.{name}"),
                format!("size `{name}` has a value ({max}) but limits nothing"),
            );
            d.hint = Some(format!(
                "bind it where it applies: `size: {name}` on a field or a `rules` entry, or `body_size: {name}` on an operation"
            ));
        }
    }
}
