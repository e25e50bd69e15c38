//! Synthetic specs of any size, for benchmarks (the binary's `synth`; the benchmarks and tests
//! include this file, so it is not part of the library): `n` CRUD-style operations over `n / 4`
//! resources, each with an object type, an open enum and a paginated list, so the cost of every
//! stage can be measured as the spec grows (`tidings-codegen synth N` prints one). [`mangled`]
//! adds hard wire names (`DateSent<`, `type`, `self`, ...) that keep the YAML valid, for the
//! property that a spec `check` accepts gives Rust that compiles.

use std::fmt::Write as _;

/// A valid spec text with `operations` operations.
pub fn spec(operations: usize) -> String {
    let mut s = String::from(
        "service:\n  name: synth\n  title: Synthetic service\n  summary: A generated spec for benchmarks\n  source: assumed\n  \
         version: { prefix: v1, source: assumed }\n  base_url: { env: SYNTH_BASE_URL, source: assumed }\n\
         credentials:\n  api_key: { env: SYNTH_API_KEY, source: assumed }\n\
         auth:\n  - { name: bearer, kind: bearer, credential: api_key, source: assumed }\n\
         idempotency: { header: Idempotency-Key, max_len: 256, source: assumed }\n\
         pagination: { limit_param: limit, after_param: after, items_field: data, has_more_field: has_more, cursor_field: id, source: assumed }\n",
    );
    let resources = operations.div_ceil(4).max(1);
    s.push_str("types:\n");
    for r in 0..resources {
        let _ = write!(
            s,
            "  Resource{r}:\n    doc: Resource number {r}.\n    source: assumed\n    fields:\n      \
             id: {{ type: string, required: true }}\n      name: {{ type: string, required: true, max_len: 200 }}\n      \
             email: {{ type: string, format: email }}\n      status: {{ type: Status{r} }}\n      \
             tags: {{ type: list<string>, max_items: 10 }}\n      metadata: {{ type: map<string> }}\n      \
             created_at: {{ type: datetime, format: rfc3339 }}\n  \
             Status{r}:\n    source: assumed\n    values: [active, archived, deleted]\n"
        );
    }
    s.push_str("operations:\n");
    let mut written = 0;
    'outer: for r in 0..resources {
        let ops = [
            format!(
                "  create_resource{r}:\n    method: POST\n    path: /v1/resources{r}\n    body: Resource{r}\n    response: Resource{r}\n    idempotency: key\n    source: assumed\n"
            ),
            format!(
                "  get_resource{r}:\n    method: GET\n    path: /v1/resources{r}/{{id}}\n    path_params: {{ id: {{ doc: The id. }} }}\n    response: Resource{r}\n    source: assumed\n"
            ),
            format!(
                "  list_resource{r}:\n    method: GET\n    path: /v1/resources{r}\n    query:\n      limit: {{ type: integer, min: 1, max: 100 }}\n      after: {{ type: string }}\n    response: page<Resource{r}>\n    source: assumed\n"
            ),
            format!(
                "  delete_resource{r}:\n    method: DELETE\n    path: /v1/resources{r}/{{id}}\n    path_params: {{ id: {{}} }}\n    source: assumed\n"
            ),
        ];
        for op in ops {
            if written == operations {
                break 'outer;
            }
            s.push_str(&op);
            written += 1;
        }
    }
    s
}

/// Wire names that stress the mapping to Rust names: case and punctuation that vanish
/// (`DateSent`, `DateSent<`, `DateSent>`), keywords (raw or not), unicode, leading digits, and
/// the names generated code uses itself (`new`, `body`, `query`, `Unknown`, `runtime`, ...).
pub const HARD_NAMES: &[&str] = &[
    "DateSent",
    "DateSent<",
    "DateSent>",
    "date_sent",
    "dateSent",
    "date-sent",
    "date.sent",
    "type",
    "self",
    "Self",
    "super",
    "crate",
    "match",
    "async",
    "r#type",
    "größe",
    "ünicode",
    "1st",
    "2",
    "_",
    "__x",
    "x_",
    "new",
    "body",
    "query",
    "ctx",
    "incoming",
    "server",
    "Unknown",
    "unknown",
    "Other",
    "runtime",
    "builder",
    "from_env",
    "gateway",
    "id",
    "limit",
    "after",
    "list_resource0_stream",
    "a1",
    "a_1",
    "Status0",
    "Resource0Query",
    "Option",
    "ClientMessage",
    "SynthClient",
    "value",
    "String",
    "ok",
];

/// A small deterministic generator (xorshift64*), so a failing case is found again by its seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; 0 is moved off the fixed point).
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// One of `items`.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// A YAML scalar for any string: JSON's double-quoted form is valid YAML.
fn quoted(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_else(|_| "\"x\"".to_owned())
}

/// The synthetic spec of [`spec`] for a service called `service`, with 1 to 4 hard names
/// ([`HARD_NAMES`]) put where wire names go: an object field, a query parameter, an enum value,
/// a path parameter, an operation or a type. The YAML stays valid; whether the spec does is
/// for `check` to say. The same `seed` gives the same text.
pub fn mangled(service: &str, operations: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut text = spec(operations.max(4))
        .replacen("name: synth\n", &format!("name: {service}\n"), 1)
        .replace("SYNTH_", &format!("{}_", service.to_uppercase()));
    let resources = operations.max(4).div_ceil(4);
    for i in 0..1 + rng.below(4) {
        let name = rng.pick(HARD_NAMES);
        let r = rng.below(resources);
        let q = quoted(name);
        match rng.below(6) {
            0 => {
                let anchor = format!(
                    "  Resource{r}:\n    doc: Resource number {r}.\n    source: assumed\n    fields:\n"
                );
                text = text.replacen(
                    &anchor,
                    &format!("{anchor}      {q}: {{ type: string }}\n"),
                    1,
                );
            }
            1 => {
                let anchor = format!("    path: /v1/resources{r}\n    query:\n");
                text = text.replacen(
                    &anchor,
                    &format!("{anchor}      {q}: {{ type: string }}\n"),
                    1,
                );
            }
            2 => {
                let anchor = format!(
                    "  Status{r}:\n    source: assumed\n    values: [active, archived, deleted"
                );
                text = text.replacen(&anchor, &format!("{anchor}, {q}"), 1);
            }
            3 => {
                let from = format!(
                    "path: /v1/resources{r}/{{id}}\n    path_params: {{ id: {{ doc: The id. }} }}"
                );
                let to = format!(
                    "path: /v1/resources{r}/{{{name}}}\n    path_params: {{ {q}: {{ doc: The id. }} }}"
                );
                text = text.replacen(&from, &to, 1);
            }
            4 => {
                text = text.replacen(
                    "operations:\n",
                    &format!("operations:\n  {q}:\n    method: GET\n    path: /v1/extra{i}\n    response: Resource0\n    source: assumed\n"),
                    1,
                );
            }
            _ => {
                text = text.replacen(
                    "types:\n",
                    &format!("types:\n  {q}:\n    source: assumed\n    fields: {{ x: {{ type: string }} }}\n"),
                    1,
                );
            }
        }
    }
    text
}
