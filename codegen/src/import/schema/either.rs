//! Two fields a document requires each "if the other is not specified" (Postmark's
//! `TemplateId`, "Required if 'TemplateAlias' is not specified", and `TemplateAlias`, both in
//! `required`): either is enough. Kept both required, a send by alias alone was refused; they
//! are optional, with a rule that one of them is sent.

use super::FieldOut;

/// The other field a description says this one is required without ("Required if
/// 'TemplateAlias' is not specified", "required unless `x` is given").
fn required_without(doc: &str) -> Option<String> {
    let lower = doc.to_ascii_lowercase();
    let rest = lower
        .find("required if ")
        .map(|at| &doc[at + "required if ".len()..])
        .or_else(|| {
            lower
                .find("required unless ")
                .map(|at| &doc[at + "required unless ".len()..])
        })?;
    let name: String = rest
        .trim_start_matches(['\'', '`', '"'])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let negated = lower.contains("required unless ")
        || [
            "not specified",
            "not provided",
            "not given",
            "not set",
            "not present",
            "absent",
        ]
        .iter()
        .any(|w| lower.contains(w));
    (!name.is_empty() && negated).then_some(name)
}

/// The pairs of required fields each required only without the other: made optional, and
/// returned as `require_one` groups.
pub(super) fn either_of(fields: &mut [FieldOut]) -> Vec<[String; 2]> {
    let mut pairs: Vec<[String; 2]> = Vec::new();
    for f in fields.iter().filter(|f| f.required) {
        let Some(other) = f.doc.as_deref().and_then(required_without) else {
            continue;
        };
        let back = fields.iter().find(|o| {
            o.required
                && o.wire == other
                && o.doc.as_deref().and_then(required_without).as_deref() == Some(f.wire.as_str())
        });
        if back.is_some() && !pairs.iter().any(|p| p.contains(&f.wire)) {
            pairs.push([f.wire.clone(), other]);
        }
    }
    for f in fields.iter_mut() {
        if pairs.iter().any(|p| p.contains(&f.wire)) {
            f.required = false;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::required_without;

    #[test]
    fn a_description_names_the_field_this_one_is_required_without() {
        let said = |d: &str| required_without(d);
        assert_eq!(
            said("Required if 'TemplateAlias' is not specified.").as_deref(),
            Some("TemplateAlias")
        );
        assert_eq!(
            said("required unless `alias` is given").as_deref(),
            Some("alias")
        );
        assert_eq!(said("Required if `type` is `sms`."), None);
        assert_eq!(said("The template's id."), None);
    }
}
