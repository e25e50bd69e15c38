//! Checking the named types: objects (fields, formats, limits, rules), open enums and tagged
//! unions; and which of them have something to check before sending.

use std::collections::{BTreeSet, HashMap};

use super::Checker;
use crate::model::{Format, Source, TypeDef};
use crate::names::{can_be_ident, did_you_mean, is_pascal, is_snake, pascal, snake};
use crate::resolved::{
    ADDITIONAL_FIELD, Constraints, FieldInfo, Flow, NameKind, RuleInfo, Ty, TypeInfo, TypeKind,
    ValueInfo, VariantInfo, rust_name,
};

/// Names from the standard prelude that generated code uses without a path: a spec type with
/// one of these names would shadow it.
pub(crate) const PRELUDE_NAMES: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "Vec",
    "Box",
    "From",
    "Into",
    "IntoIterator",
    "Iterator",
    "Default",
    "Clone",
    "Send",
    "Sync",
];

impl Checker<'_> {
    /// Every named type, resolved, with the facts derived from all of them (which have checks).
    pub(super) fn types(&mut self) -> Vec<TypeInfo> {
        let spec = self.spec;
        let mut kinds = Vec::new();
        for (name, def) in &spec.types {
            let path = format!("types.{name}");
            let source = self.require_source(&path, def.source);
            if !is_pascal(name) {
                let d = self.error(&path, format!("type name `{name}` is not PascalCase"));
                d.hint = Some(format!("call it `{}`", pascal(name)));
            } else if let Some(owner) = self.generated_name_owner(name) {
                let d = self.error(&path, format!("type name `{name}` is taken by {owner}"));
                d.hint = Some(format!("rename the type, e.g. `{name}Body`"));
            }
            if let Some(kind) = self.type_kind(&path, def, source) {
                kinds.push((name, def, source, kind));
            }
        }
        // `include` needs every object's own fields first: an included type may come later.
        let own: HashMap<String, Vec<FieldInfo>> = kinds
            .iter()
            .filter_map(|(name, _, _, kind)| match kind {
                TypeKind::Object(fields) => Some(((*name).clone(), fields.clone())),
                _ => None,
            })
            .collect();
        let mut out = Vec::new();
        for (name, def, source, mut kind) in kinds {
            let path = format!("types.{name}");
            if !def.include.is_empty() {
                if let TypeKind::Object(fields) = &mut kind {
                    let included = self.included_fields(name, &own);
                    self.merge_included(&path, included, fields);
                } else {
                    self.error(
                        &format!("{path}.include"),
                        "`include` applies to objects (types with `fields`)",
                    );
                }
            }
            let rules = match &kind {
                TypeKind::Object(fields) => self.rules(&path, def, fields),
                _ => {
                    if !def.rules.is_empty() {
                        self.error(
                            &format!("{path}.rules"),
                            "`rules` apply to objects (types with `fields`)",
                        );
                    }
                    Vec::new()
                }
            };
            let additional = self.additional(&path, def, &kind);
            if def.keeps_other_keys && additional.is_none() {
                self.error(
                    &format!("{path}.keeps_other_keys"),
                    "`keeps_other_keys` needs `additional` (the type of the other keys)",
                );
            }
            out.push(TypeInfo {
                keeps_other_keys: def.keeps_other_keys && additional.is_some(),
                additional,
                name: name.clone(),
                doc: def.doc.clone(),
                source,
                note: def.note.clone(),
                conflict: def.conflict.clone(),
                kind,
                rules,
                rules_as_written: self.rules_as_written(def),
                checked: false,
                // Set by `flow::mark` once operations and events are resolved.
                flow: Flow::BOTH,
            });
        }
        mark_checked(&mut out);
        out
    }

    /// An object's `additional: T`: the type of its other keys, kept in the Rust field
    /// `additional`, which no field may also be called.
    fn additional(&mut self, path: &str, def: &TypeDef, kind: &TypeKind) -> Option<Ty> {
        let text = def.additional.as_deref()?;
        let apath = format!("{path}.additional");
        let TypeKind::Object(fields) = kind else {
            self.error(
                &apath,
                "`additional` applies to objects (types with `fields`)",
            );
            return None;
        };
        let ty = self.type_ref(&apath, text)?;
        if ty.contains_page() || ty == Ty::Bytes {
            self.error_at_value(
                &apath,
                "`additional` takes a JSON type (not `page<T>` or `bytes`)",
            );
            return None;
        }
        if let Some(f) = fields.iter().find(|f| f.rust == ADDITIONAL_FIELD) {
            let d = self.error(
                &format!("{path}.fields.{}", f.wire),
                format!(
                    "field `{}` becomes `{ADDITIONAL_FIELD}` in Rust, the field that holds the other keys (`additional`)",
                    f.wire
                ),
            );
            d.hint = Some("rename it with `rust_name`".into());
        }
        Some(ty)
    }

    /// The fields `name` takes from its `include` list, in order, each included type's own
    /// includes first; an unknown, non-object or cyclic include is reported once here.
    fn included_fields(
        &mut self,
        name: &str,
        own: &HashMap<String, Vec<FieldInfo>>,
    ) -> Vec<FieldInfo> {
        let mut out = Vec::new();
        let mut stack = vec![name.to_owned()];
        self.collect_included(name, own, &mut stack, &mut out);
        out
    }

    fn collect_included(
        &mut self,
        name: &str,
        own: &HashMap<String, Vec<FieldInfo>>,
        stack: &mut Vec<String>,
        out: &mut Vec<FieldInfo>,
    ) {
        let spec = self.spec;
        let Some(def) = spec.types.get(name) else {
            return;
        };
        for (i, included) in def.include.iter().enumerate() {
            // Problems are reported on the type being checked only (the outermost).
            let top = stack.len() == 1;
            let ipath = format!("types.{name}.include.{i}");
            if stack.contains(included) {
                if top || included == &stack[0] {
                    let mut cycle = stack.clone();
                    cycle.push(included.clone());
                    let d = self.error_at_value(
                        &format!("types.{}.include", stack[0]),
                        format!("`include` goes round in a cycle: {}", cycle.join(" → ")),
                    );
                    d.hint =
                        Some("a type cannot include itself, directly or through another".into());
                }
                continue;
            }
            let Some(fields) = own.get(included) else {
                if top {
                    if spec.types.contains_key(included) {
                        self.error_at_value(
                            &ipath,
                            format!(
                                "`{included}` is not an object type, so it has no fields to include"
                            ),
                        );
                    } else if !self.is_broken("types", included) {
                        let hint = did_you_mean(included, self.known_types())
                            .map(|h| format!("did you mean `{h}`?"));
                        let d = self.error_at_value(&ipath, format!("unknown type `{included}`"));
                        d.hint = hint;
                    }
                }
                continue;
            };
            stack.push(included.clone());
            self.collect_included(included, own, stack, out);
            stack.pop();
            out.extend(fields.iter().cloned());
        }
    }

    /// Puts the included fields before the type's own, reporting a wire or Rust name that two
    /// of them share.
    fn merge_included(
        &mut self,
        path: &str,
        included: Vec<FieldInfo>,
        fields: &mut Vec<FieldInfo>,
    ) {
        let mut merged: Vec<FieldInfo> = Vec::with_capacity(included.len() + fields.len());
        for f in included.into_iter().chain(std::mem::take(fields)) {
            if let Some(other) = merged.iter().find(|m| m.wire == f.wire || m.rust == f.rust) {
                let message = if other.wire == f.wire {
                    format!(
                        "field `{}` comes twice: from `include` and from the type (or another include)",
                        f.wire
                    )
                } else {
                    format!(
                        "fields `{}` and `{}` (one of them included) both become `{}` in Rust",
                        other.wire, f.wire, f.rust
                    )
                };
                let d = self.error_at_value(&format!("{path}.include"), message);
                d.hint = Some("drop one of them, or rename it with `rust_name`".into());
                continue;
            }
            merged.push(f);
        }
        *fields = merged;
    }

    fn type_kind(&mut self, path: &str, def: &TypeDef, source: Source) -> Option<TypeKind> {
        let shapes = [
            def.fields.is_some(),
            def.values.is_some(),
            def.variants.is_some(),
        ];
        if shapes.iter().filter(|x| **x).count() != 1 {
            let d = self.error(
                path,
                format!("`{path}` must have exactly one of `fields`, `values` or `variants`"),
            );
            d.expected = Some(
                "`fields` for an object, `values` for an enum, `variants` (with `tag`) for a union"
                    .into(),
            );
            return None;
        }
        if def.variants.is_none() && (def.tag.is_some() || def.content.is_some()) {
            self.error(
                path,
                "`tag` and `content` belong to unions (types with `variants`)",
            );
        }
        if def.untagged && def.variants.is_none() {
            self.error(
                &format!("{path}.untagged"),
                "`untagged` belongs to unions (types with `variants`)",
            );
        }
        if let Some(fields) = &def.fields {
            let mut out = Vec::new();
            let mut rust_names: HashMap<String, String> = HashMap::new();
            for (wire, field) in fields {
                let fpath = format!("{path}.fields.{wire}");
                let rust = rust_name(NameKind::Field, wire, field.rust_name.as_deref());
                if let Some(explicit) = &field.rust_name {
                    if !is_snake(explicit) || !can_be_ident(explicit) {
                        let d = self.error_at_value(
                            &format!("{fpath}.rust_name"),
                            format!("`rust_name` `{explicit}` is not a snake_case Rust identifier"),
                        );
                        d.hint = Some(format!("call it `{}`", snake(explicit)));
                        continue;
                    }
                } else if !can_be_ident(&rust) {
                    let d = self.error(&fpath, format!("field `{wire}` has no usable Rust name"));
                    d.hint = Some("give it one with `rust_name: some_name`".into());
                    continue;
                }
                if let Some(other) = rust_names.insert(rust.clone(), wire.clone()) {
                    self.error(
                        &fpath,
                        format!("fields `{other}` and `{wire}` both become `{rust}` in Rust"),
                    );
                }
                let Some(ty) = self.type_ref(&format!("{fpath}.type"), &field.ty) else {
                    continue;
                };
                if ty.contains_page() {
                    self.error_at_value(
                        &format!("{fpath}.type"),
                        "`page<T>` is only for operation responses",
                    );
                }
                match field.format {
                    Some(Format::Rfc2822 | Format::Unix | Format::UnixMs) if ty != Ty::DateTime => {
                        let d = self.error_at_value(
                            &format!("{fpath}.format"),
                            "this `format` is a wire form of `datetime` fields",
                        );
                        d.expected = Some("type: datetime".into());
                    }
                    Some(_)
                        if !matches!(ty, Ty::String | Ty::DateTime | Ty::List(_) | Ty::Map(_)) =>
                    {
                        self.error(
                            &fpath,
                            "`format` applies to strings (or lists or maps of strings)",
                        );
                    }
                    _ => {}
                }
                let constraints = self.constraints(&fpath, field, &ty);
                self.field_default(&fpath, field.default.as_ref(), &ty);
                if field.example.is_some() && ty != Ty::String {
                    self.error(
                        &format!("{fpath}.example"),
                        format!("`example` is for a text field, not `{ty}`"),
                    );
                }
                if field.nullable && !field.required {
                    let d = self.error_at_value(
                        &format!("{fpath}.nullable"),
                        "`nullable` says a required field may be `null`; an optional field \
                         may already be left out or `null`",
                    );
                    d.expected = Some("required: true, or no `nullable`".into());
                }
                if field.nullable && ty == Ty::Json {
                    self.error_at_value(
                        &format!("{fpath}.nullable"),
                        "a `json` field holds `null` as one of its values already",
                    );
                }
                out.push(FieldInfo {
                    wire: wire.clone(),
                    rust,
                    ty,
                    required: field.required,
                    nullable: field.nullable && field.required,
                    format: field.format,
                    constraints,
                    secret: field.secret,
                    read_only: field.read_only,
                    write_only: field.write_only,
                    doc: field.doc.clone(),
                    source: field.source.unwrap_or(source),
                    note: field.note.clone(),
                    conflict: field.conflict.clone(),
                    default: field.default.clone(),
                    example: field.example.clone(),
                    nested_checked: false,
                    boxed: false,
                });
            }
            return Some(TypeKind::Object(out));
        }
        if let Some(values) = &def.values {
            if values.is_empty() {
                self.error(path, "an enum needs at least one value");
            }
            let mut out = Vec::new();
            let mut seen: HashMap<String, String> = HashMap::new();
            for (i, value) in values.iter().enumerate() {
                let vpath = format!("{path}.values.{i}");
                let wire = value.value().to_owned();
                let rust = rust_name(NameKind::EnumValue, &wire, value.rust_name());
                if value.rust_name().is_some() && !is_pascal(&rust) {
                    let d = self.error(
                        &format!("{vpath}.rust_name"),
                        format!("`rust_name` `{rust}` is not a PascalCase Rust identifier"),
                    );
                    d.hint = Some(format!("call it `{}`", pascal(&rust)));
                    continue;
                }
                // An empty value is one (Telnyx's `line_type` may be `""`) when it is named.
                let unnamed = wire.is_empty() && value.rust_name().is_none();
                if unnamed || rust.is_empty() || !can_be_ident(&rust) {
                    let d = self.error_at_value(
                        &vpath,
                        format!("enum value `{wire}` has no usable Rust name"),
                    );
                    d.expected = Some("a value with at least one letter, like `delivered`".into());
                    d.hint = Some(format!(
                        "or give it a Rust name: {{ value: \"{wire}\", rust_name: SomeName }}"
                    ));
                    continue;
                }
                if rust == "Unknown" {
                    let d = self.error_at_value(&vpath, "the enum value `unknown` clashes with the variant that keeps unknown values");
                    d.hint = Some(
                        "open enums already keep any unknown value in `Unknown(String)`".into(),
                    );
                    continue;
                }
                if let Some(other) = seen.insert(rust.clone(), wire.clone()) {
                    if other == wire {
                        self.error_at_value(&vpath, format!("duplicate enum value `{wire}`"));
                    } else {
                        self.error_at_value(
                            &vpath,
                            format!(
                                "enum values `{other}` and `{wire}` both become `{rust}` in Rust"
                            ),
                        );
                    }
                    continue;
                }
                let (doc, vsource) = match value {
                    crate::model::EnumValue::Bare(_) => (None, None),
                    crate::model::EnumValue::Documented(d) => (d.doc.clone(), d.source),
                };
                out.push(ValueInfo {
                    wire,
                    rust,
                    doc,
                    source: vsource.unwrap_or(source),
                });
            }
            return Some(TypeKind::Enum(out));
        }
        let variants = def.variants.as_ref()?;
        if def.untagged && (def.tag.is_some() || def.content.is_some()) {
            let d = self.error(
                &format!("{path}.untagged"),
                "an untagged union has no `tag` or `content`",
            );
            d.hint = Some("drop `untagged` to tell the variants apart by the tag".into());
            return None;
        }
        if def.untagged {
            return Some(self.untagged_union(path, variants, source));
        }
        let Some(tag) = def.tag.clone() else {
            let d = self.error(
                path,
                format!("union `{path}` needs `tag`: the field that tells its variants apart"),
            );
            d.expected = Some("tag: type".into());
            d.hint = Some("or `untagged: true` when the variants differ by shape only".into());
            return None;
        };
        let mut out = Vec::new();
        let mut seen: HashMap<String, String> = HashMap::new();
        for (tag_value, variant) in variants {
            let vpath = format!("{path}.variants.{tag_value}");
            let Some(rust) = self.variant_name(&vpath, tag_value, variant) else {
                continue;
            };
            if let Some(other) = seen.insert(rust.clone(), tag_value.clone()) {
                self.error(
                    &vpath,
                    format!("variants `{other}` and `{tag_value}` both become `{rust}` in Rust"),
                );
                continue;
            }
            if let Some(ty) = &variant.ty {
                let ty_text = ty.clone();
                match self.type_ref(&format!("{vpath}.type"), &ty_text) {
                    Some(Ty::Named(n)) => {
                        // Objects and unions both read and write as JSON objects, so either
                        // can sit beside the tag (a union of unions: channel, then message type).
                        let shape = self.spec.types.get(&n);
                        let is_object =
                            shape.is_some_and(|t| t.fields.is_some() || t.variants.is_some());
                        if def.content.is_none() && !is_object {
                            self.error_at_value(&format!("{vpath}.type"), format!("variant content `{n}` must be an object or a union when it sits beside the tag"));
                        }
                        let same_tag = shape.is_some_and(|t| {
                            t.variants.is_some() && t.tag.as_deref() == Some(tag.as_str())
                        });
                        if def.content.is_none() && same_tag {
                            self.error_at_value(&format!("{vpath}.type"), format!("union `{n}` uses the same tag field `{tag}`, so the two tags would clash"));
                        }
                    }
                    Some(_) if def.content.is_none() => {
                        self.error_at_value(&format!("{vpath}.type"), "variant content must be a named object type when it sits beside the tag");
                    }
                    _ => {}
                }
            }
            out.push(VariantInfo {
                tag: tag_value.clone(),
                rust,
                ty: variant.ty.clone(),
                doc: variant.doc.clone(),
                source: variant.source.unwrap_or(source),
            });
        }
        Some(TypeKind::Union {
            tag,
            content: def.content.clone(),
            variants: out,
        })
    }

    /// A variant's Rust name (`rust_name`, or `name`, else from the key), or `None` after
    /// reporting why it has no usable one.
    fn variant_name(
        &mut self,
        vpath: &str,
        key: &str,
        variant: &crate::model::Variant,
    ) -> Option<String> {
        if let (Some(a), Some(b)) = (&variant.name, &variant.rust_name)
            && a != b
        {
            self.error(
                &format!("{vpath}.rust_name"),
                format!(
                    "`name` (`{a}`) and `rust_name` (`{b}`) disagree; they are the same setting"
                ),
            );
            return None;
        }
        let explicit = variant.rust_name.as_deref().or(variant.name.as_deref());
        let rust = rust_name(NameKind::Variant, key, explicit);
        if !is_pascal(&rust) || rust == "Unknown" {
            let d = self.error(
                vpath,
                format!("variant `{key}` has no usable Rust name (`{rust}`)"),
            );
            d.hint = Some("set `rust_name:` to a PascalCase name other than `Unknown`".into());
            return None;
        }
        Some(rust)
    }

    /// An untagged union: every variant carries a type, tried in order.
    fn untagged_union(
        &mut self,
        path: &str,
        variants: &indexmap::IndexMap<String, crate::model::Variant>,
        source: Source,
    ) -> TypeKind {
        let mut out = Vec::new();
        let mut seen: HashMap<String, String> = HashMap::new();
        if variants.is_empty() {
            self.error(path, "an untagged union needs at least one variant");
        }
        for (key, variant) in variants {
            let vpath = format!("{path}.variants.{key}");
            let Some(rust) = self.variant_name(&vpath, key, variant) else {
                continue;
            };
            if let Some(other) = seen.insert(rust.clone(), key.clone()) {
                self.error(
                    &vpath,
                    format!("variants `{other}` and `{key}` both become `{rust}` in Rust"),
                );
                continue;
            }
            let Some(ty_text) = &variant.ty else {
                let d = self.error(
                    &vpath,
                    format!("variant `{key}` of an untagged union needs a `type`: its shape is what tells it apart"),
                );
                d.expected = Some("type: SomeObject".into());
                continue;
            };
            let Some(ty) = self.type_ref(&format!("{vpath}.type"), ty_text) else {
                continue;
            };
            if ty.contains_page() {
                self.error_at_value(
                    &format!("{vpath}.type"),
                    "`page<T>` is only for operation responses",
                );
                continue;
            }
            out.push(VariantInfo {
                tag: key.clone(),
                rust,
                ty: Some(ty_text.trim().to_owned()),
                doc: variant.doc.clone(),
                source: variant.source.unwrap_or(source),
            });
        }
        TypeKind::Untagged { variants: out }
    }

    /// What generated item already uses a type name, if any.
    fn generated_name_owner(&self, name: &str) -> Option<String> {
        if name == "Self" {
            return Some("the `Self` keyword".into());
        }
        // Generated code uses the standard prelude's names unqualified.
        if PRELUDE_NAMES.contains(&name) {
            return Some(format!(
                "the standard prelude's `{name}`, which generated code uses"
            ));
        }
        if name == "ErrorCode"
            && self
                .spec
                .errors
                .as_ref()
                .is_some_and(|e| !e.codes.is_empty())
        {
            return Some("the generated enum of `errors.codes`".into());
        }
        if name == "Page" && self.spec.pagination.is_some() {
            return Some("the generated page type `Page<T>`".into());
        }
        if name == format!("{}Client", pascal(&self.spec.service.name)) {
            return Some("the generated client struct".into());
        }
        if let Some(op) = name.strip_suffix("Headers")
            && let Some((o, _)) = self
                .spec
                .operations
                .iter()
                .find(|(o, def)| !def.headers.is_empty() && pascal(o) == op)
        {
            return Some(format!("the generated header struct of `{o}`"));
        }
        // `<Op>Query` is the other generated type name; check the suffix before looking.
        let op = name.strip_suffix("Query")?;
        self.spec
            .operations
            .iter()
            .find(|(o, def)| !def.query.is_empty() && pascal(o) == op)
            .map(|(o, _)| format!("the generated query struct of `{o}`"))
    }

    fn constraints(&mut self, path: &str, field: &crate::model::Field, ty: &Ty) -> Constraints {
        let c = self.field_size(path, field, ty);
        let c = Constraints {
            max_len: field.max_len.or(c.max_len),
            min_len: field.min_len,
            max_bytes: field.max_bytes.or(c.max_bytes),
            pattern: field.pattern.clone(),
            max_items: field.max_items.or(c.max_items),
            min_items: field.min_items,
            min: field.min,
            max: field.max,
        };
        let strings = match ty {
            Ty::String | Ty::DateTime | Ty::Date => true,
            Ty::List(t) | Ty::Map(t) => t.is_text(),
            _ => false,
        };
        let counted = matches!(ty, Ty::List(_) | Ty::Map(_));
        let number = matches!(ty, Ty::Integer | Ty::Number);
        for (name, set, ok, what) in [
            ("max_len", c.max_len.is_some(), strings, "strings"),
            ("min_len", c.min_len.is_some(), strings, "strings"),
            ("max_bytes", c.max_bytes.is_some(), strings, "strings"),
            ("pattern", c.pattern.is_some(), strings, "strings"),
            (
                "max_items",
                c.max_items.is_some(),
                counted,
                "lists and maps",
            ),
            (
                "min_items",
                c.min_items.is_some(),
                counted,
                "lists and maps",
            ),
            ("min", c.min.is_some(), number, "numbers"),
            ("max", c.max.is_some(), number, "numbers"),
        ] {
            if set && !ok {
                self.error(
                    &format!("{path}.{name}"),
                    format!("`{name}` applies to {what}"),
                );
            }
        }
        let pairs = [
            (
                c.min_len.map(|v| v as f64),
                c.max_len.map(|v| v as f64),
                "min_len",
                "max_len",
            ),
            (
                c.min_items.map(|v| v as f64),
                c.max_items.map(|v| v as f64),
                "min_items",
                "max_items",
            ),
            (c.min, c.max, "min", "max"),
        ];
        self.pattern(path, c.pattern.as_deref());
        for (lo, hi, lo_name, hi_name) in pairs {
            if let (Some(lo), Some(hi)) = (lo, hi)
                && lo > hi
            {
                self.error(
                    &format!("{path}.{lo_name}"),
                    format!("`{lo_name}` ({lo}) is above `{hi_name}` ({hi})"),
                );
            }
        }
        c
    }

    fn rules(&mut self, path: &str, def: &TypeDef, fields: &[FieldInfo]) -> Vec<RuleInfo> {
        let mut out = Vec::new();
        for (i, rule) in def.rules.iter().enumerate() {
            let rpath = format!("{path}.rules.{i}");
            let Some(rule) = self.rule_size(&rpath, rule) else {
                continue;
            };
            let rule = &rule;
            let shapes = [
                rule.exclusive.is_some(),
                rule.require_one.is_some(),
                rule.max_total.is_some(),
            ];
            if shapes.iter().filter(|x| **x).count() != 1 {
                let d = self.error(
                    &rpath,
                    "a rule has exactly one of `exclusive`, `require_one` or `max_total`",
                );
                d.expected = Some("{ exclusive: [a, b] }, { require_one: [a, b] } or { max_total: 50, fields: [to, cc, bcc] }".into());
                continue;
            }
            let names = rule
                .exclusive
                .as_ref()
                .or(rule.require_one.as_ref())
                .or(rule.fields.as_ref());
            let Some(names) = names else {
                let d = self.error(&rpath, "`max_total` needs `fields`: the lists it counts");
                d.expected = Some("fields: [to, cc, bcc]".into());
                continue;
            };
            if names.len() < 2 && rule.max_total.is_none() {
                self.error(&rpath, "a rule across fields names at least two fields");
            }
            let mut resolved = Vec::new();
            for name in names {
                match fields.iter().find(|f| &f.wire == name) {
                    Some(f) => {
                        if rule.max_total.is_some() && !matches!(f.ty, Ty::List(_)) {
                            self.error(
                                &rpath,
                                format!("`max_total` counts lists, and `{name}` is not one"),
                            );
                        }
                        if !f.is_option() && rule.max_total.is_none() {
                            self.error(&rpath, format!("`{name}` is required, so a rule about whether it is set never applies"));
                        }
                        resolved.push((f.wire.clone(), f.rust.clone()));
                    }
                    None => {
                        let hint = did_you_mean(name, fields.iter().map(|f| f.wire.as_str()))
                            .map(|h| format!("did you mean `{h}`?"));
                        let d = self.error_at_value(
                            &rpath,
                            format!("rule names the unknown field `{name}`"),
                        );
                        d.hint = hint;
                    }
                }
            }
            out.push(
                match (
                    rule.exclusive.is_some(),
                    rule.require_one.is_some(),
                    rule.max_total,
                ) {
                    (true, _, _) => RuleInfo::Exclusive(resolved),
                    (_, true, _) => RuleInfo::RequireOne(resolved),
                    (_, _, max) => RuleInfo::MaxTotal(resolved, max.unwrap_or_default()),
                },
            );
        }
        out
    }
}

/// Marks the types that have something to check before sending, directly (formats, limits,
/// rules) or through a field or variant whose type has, and the fields that reach one.
fn mark_checked(types: &mut [TypeInfo]) {
    let mut set: BTreeSet<String> = types
        .iter()
        .filter(|t| match &t.kind {
            TypeKind::Object(fields) => {
                !t.rules.is_empty()
                    || fields.iter().any(|f| {
                        f.format.is_some() || f.constraints.client_checks() || f.ty.holds_date()
                    })
            }
            _ => false,
        })
        .map(|t| t.name.clone())
        .collect();
    loop {
        let before = set.len();
        for t in types.iter() {
            let reaches = match &t.kind {
                TypeKind::Object(fields) => fields
                    .iter()
                    .any(|f| f.ty.inner_name().is_some_and(|n| set.contains(n))),
                TypeKind::Union { variants, .. } | TypeKind::Untagged { variants } => variants
                    .iter()
                    .any(|v| v.ty.as_ref().is_some_and(|n| set.contains(n))),
                TypeKind::Enum(_) => false,
            };
            if reaches {
                set.insert(t.name.clone());
            }
        }
        if set.len() == before {
            break;
        }
    }
    for t in types.iter_mut() {
        t.checked = set.contains(&t.name);
        if let TypeKind::Object(fields) = &mut t.kind {
            for f in fields {
                f.nested_checked = f.ty.inner_name().is_some_and(|n| set.contains(n));
            }
        }
    }
}
