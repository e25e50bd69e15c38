//! Synthetic specs of any size, for benchmarks: `n` CRUD-style operations over `n / 4`
//! resources, each with an object type, an open enum and a paginated list, so the cost of every
//! stage can be measured as the spec grows (`comms-codegen synth N` prints one).

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

#[cfg(test)]
mod tests {
    #[test]
    fn synthetic_specs_check_clean() {
        for n in [1, 10, 37] {
            let text = super::spec(n);
            let loaded =
                crate::load::load_str("synth.yaml", &text).unwrap_or_else(|d| panic!("{d}"));
            let service = crate::check::check(&loaded).unwrap_or_else(|d| panic!("{d}"));
            assert_eq!(service.operations.len(), n);
            crate::emit::emit_service(&service).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
