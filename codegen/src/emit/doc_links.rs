//! Bare URLs in a spec's doc text (providers' documents are full of them) made autolinks
//! (`<https://...>`), so `cargo doc` in the crate that includes the generated code gives no
//! `rustdoc::bare_urls` warning, and the link is clickable.

/// `line` with each bare `http://` or `https://` URL in angle brackets. Left as they are: URLs
/// already in `<...>`, the target of a Markdown link (`](url)`) or a reference definition
/// (`[1]: url`), inside inline code, and in an HTML attribute (`href="url"`). Trailing
/// punctuation (`.`, `,`, `;`, `:`, `!`, `?`, an unmatched `)`) stays outside the link.
pub(crate) fn link_bare_urls(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    // Backticks seen so far on the line: odd means inside inline code.
    let mut ticks = 0;
    while let Some(start) = next_url(rest) {
        let (before, from) = rest.split_at(start);
        ticks += before.matches('`').count();
        out.push_str(before);
        let len = url_len(from);
        let (url, after) = from.split_at(len);
        let previous = out.chars().last();
        let linked = ticks % 2 == 1
            || matches!(previous, Some('<' | '"' | '\'' | '=' | '/'))
            || out.ends_with("](")
            || out.ends_with("]: ");
        if linked || len <= "https://".len() {
            out.push_str(url);
        } else {
            out.push('<');
            out.push_str(url);
            out.push('>');
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Where the next `http://` or `https://` starts in `text`.
fn next_url(text: &str) -> Option<usize> {
    let http = text.find("http://");
    let https = text.find("https://");
    match (http, https) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The length of the URL at the start of `text`: up to whitespace or a character a URL in
/// prose does not hold, then without trailing punctuation or an unmatched `)`.
fn url_len(text: &str) -> usize {
    let mut end = text
        .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '\'' | '`' | '[' | ']'))
        .unwrap_or(text.len());
    loop {
        let url = &text[..end];
        let Some(last) = url.chars().last() else {
            return end;
        };
        let unmatched = last == ')' && url.matches('(').count() < url.matches(')').count();
        if matches!(last, '.' | ',' | ';' | ':' | '!' | '?') || unmatched {
            end -= last.len_utf8();
        } else {
            return end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::link_bare_urls;

    #[test]
    fn bare_urls_become_autolinks_and_links_stay_as_they_are() {
        for (line, linked) in [
            (
                "see https://example.com/docs/.",
                "see <https://example.com/docs/>.",
            ),
            (
                "Deprecated: use X - https://a.example/b (or http://c.example/d), then",
                "Deprecated: use X - <https://a.example/b> (or <http://c.example/d>), then",
            ),
            (
                "a (https://a.example/x_(y)) b",
                "a (<https://a.example/x_(y)>) b",
            ),
            ("[docs](https://a.example/b)", "[docs](https://a.example/b)"),
            ("<https://a.example/b>", "<https://a.example/b>"),
            ("[1]: https://a.example/b", "[1]: https://a.example/b"),
            ("`curl https://a.example/b`", "`curl https://a.example/b`"),
            (
                "<a href=\"https://a.example/b\">b</a> and https://c.example",
                "<a href=\"https://a.example/b\">b</a> and <https://c.example>",
            ),
            ("no url; https:// alone", "no url; https:// alone"),
            ("héllo https://a.example/é.", "héllo <https://a.example/é>."),
        ] {
            assert_eq!(link_bare_urls(line), linked, "{line}");
        }
    }
}
