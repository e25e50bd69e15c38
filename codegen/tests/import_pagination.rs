//! `import openapi` infers how a list operation pages from the shapes its document states, one
//! test per shape: a next-page URL field, a token field with its query parameter, `has_more`
//! with an after-cursor, offset/limit with a total, page numbers. A style is written only when
//! its response field and its query parameter are both in the document; otherwise the
//! operation keeps no `pagination` and the `pagination` gap counts it.
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

use serde_json::{Value, json};
use tidings_codegen::import::{ImportOptions, Imported, import_openapi};
use tidings_codegen::model::{PageKind, Pagination};

/// A document with one `GET /things` answering `page` (a schema), with query `params`
/// (name → schema), and the component `Thing` (an object with an `id`).
fn doc(path: &str, params: &[(&str, Value)], page: Value) -> String {
    let parameters: Vec<Value> = params
        .iter()
        .map(|(name, schema)| json!({"name": name, "in": "query", "schema": schema}))
        .chain(path.contains("{id}").then(
            || json!({"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}),
        ))
        .collect();
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Things", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": {path: {"get": {
            "operationId": "listThings",
            "parameters": parameters,
            "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": page}}}}
        }}},
        "components": {"schemas": {"Thing": {"type": "object", "required": ["id"],
            "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}}}
    })
    .to_string()
}

fn things() -> Value {
    json!({"type": "array", "items": {"$ref": "#/components/schemas/Thing"}})
}

fn object(props: Value) -> Value {
    json!({"type": "object", "properties": props})
}

fn string() -> Value {
    json!({"type": "string"})
}

fn integer() -> Value {
    json!({"type": "integer"})
}

/// Imports, checks and emits the document; returns the import and `list_things`' pagination.
fn import(text: &str) -> (Imported, Option<Pagination>) {
    let imported =
        import_openapi(text, &ImportOptions::new("things", "things.json"), None).unwrap();
    let loaded = tidings_codegen::load::load_str("things.yaml", &imported.yaml).unwrap();
    let service =
        tidings_codegen::check::check(&loaded).unwrap_or_else(|d| panic!("{d}\n{}", imported.yaml));
    let code = tidings_codegen::emit::emit_service(&service).unwrap();
    syn::parse_file(&code).unwrap();
    let op = &loaded.spec.operations["list_things"];
    if op.pagination.is_some() {
        assert!(
            code.contains("fn list_things_stream"),
            "a paginated operation gets a stream"
        );
    }
    (imported, op.pagination.clone())
}

fn gap_of(imported: &Imported) -> bool {
    imported
        .yaml
        .contains("\n  pagination:\n    text: \"How 1 list operation(s) page")
}

#[test]
fn a_next_page_uri_field_gives_the_next_url_style_with_the_page_size_parameter() {
    let (imported, p) = import(&doc(
        "/things",
        &[("PageSize", integer()), ("Page", integer())],
        object(json!({"things": things(), "next_page_uri": string(), "page": integer()})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::NextUrl));
    assert_eq!(p.items_field, "things");
    assert_eq!(p.next_field.as_deref(), Some("next_page_uri"));
    assert_eq!(p.limit_param.as_deref(), Some("PageSize"));
    assert_eq!(
        imported.report.pagination.by_style.get("next_url"),
        Some(&1)
    );
    assert!(!gap_of(&imported), "{}", imported.yaml);
}

#[test]
fn metadata_next_and_links_next_and_a_hal_href_are_next_page_urls() {
    let metadata = object(json!({"next": {"type": "string", "format": "uri"}, "count": integer()}));
    let (_, p) = import(&doc(
        "/things",
        &[("page_size", integer()), ("page_token", string())],
        object(json!({"result": things(), "_metadata": metadata})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::NextUrl));
    assert_eq!(p.next_field.as_deref(), Some("_metadata.next"));
    assert_eq!(p.items_field, "result");

    let (_, p) = import(&doc(
        "/things",
        &[("limit", integer())],
        object(
            json!({"data": things(), "links": object(json!({"next": string(), "self": string()}))}),
        ),
    ));
    assert_eq!(p.unwrap().next_field.as_deref(), Some("links.next"));

    let href = object(json!({"href": string()}));
    let (_, p) = import(&doc(
        "/things",
        &[],
        object(json!({"items": things(), "_links": object(json!({"next": href}))})),
    ));
    let p = p.unwrap();
    assert_eq!(p.next_field.as_deref(), Some("_links.next.href"));
    assert_eq!(
        p.limit_param, None,
        "no page size parameter in the document"
    );
}

#[test]
fn a_paging_next_beside_first_and_last_or_with_no_parameter_to_go_back_in_is_a_url() {
    // Mailgun's `paging`: `first`, `last`, `previous` and `next` links (its `page` parameter
    // takes words such as `next`, not a token).
    let links = object(
        json!({"first": string(), "last": string(), "next": string(),
        "previous": string()}),
    );
    let (_, p) = import(&doc(
        "/things",
        &[("limit", integer()), ("page", string())],
        object(json!({"items": things(), "paging": links})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::NextUrl));
    assert_eq!(p.next_field.as_deref(), Some("paging.next"));
    assert_eq!(p.limit_param.as_deref(), Some("limit"));

    // The same links described as tokens, with no parameter to send one back: not a URL.
    let tokens = object(
        json!({"first": {"type": "string", "description": "Token to first page"},
        "next": {"type": "string", "description": "Token to next page"}}),
    );
    let (_, p) = import(&doc(
        "/things",
        &[("limit", integer())],
        object(json!({"items": things(), "paging": tokens})),
    ));
    assert_eq!(p, None);

    // Mailgun's events: `next` and `previous` only, and no query parameter a token could go
    // back in: the next page's URL.
    let (imported, p) = import(&doc(
        "/things",
        &[("limit", integer()), ("begin", string())],
        object(json!({"items": things(),
            "paging": object(json!({"next": string(), "previous": string()}))})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::NextUrl));
    assert_eq!(p.next_field.as_deref(), Some("paging.next"));
    assert!(!gap_of(&imported), "{}", imported.yaml);

    // With a parameter to carry it back, the same `next` is a token.
    let (_, p) = import(&doc(
        "/things",
        &[("limit", integer()), ("cursor", string())],
        object(json!({"items": things(),
            "paging": object(json!({"next": string(), "previous": string()}))})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Token));
    assert_eq!(p.token_field.as_deref(), Some("paging.next"));
    assert_eq!(p.token_param.as_deref(), Some("cursor"));
}

#[test]
fn a_token_field_pairs_with_its_query_parameter() {
    let (_, p) = import(&doc(
        "/things",
        &[("page_token", string()), ("page_size", integer())],
        object(json!({"things": things(), "next_page_token": string()})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Token));
    assert_eq!(p.token_field.as_deref(), Some("next_page_token"));
    assert_eq!(p.token_param.as_deref(), Some("page_token"));
    assert_eq!(p.limit_param.as_deref(), Some("page_size"));

    // A cursor in a metadata object, sent back as `cursor`.
    let (_, p) = import(&doc(
        "/things",
        &[("cursor", string())],
        object(
            json!({"members": things(), "response_metadata": object(json!({"next_cursor": string()}))}),
        ),
    ));
    let p = p.unwrap();
    assert_eq!(
        p.token_field.as_deref(),
        Some("response_metadata.next_cursor")
    );
    assert_eq!(p.token_param.as_deref(), Some("cursor"));
}

#[test]
fn an_after_cursor_goes_back_in_the_parameter_named_after_and_a_described_link_is_a_url() {
    // Sunshine Conversations: `meta.afterCursor` goes back in the deep-object `page[after]`.
    let (_, p) = import(&doc(
        "/things",
        &[
            ("page[after]", string()),
            ("page[before]", string()),
            ("page[size]", integer()),
        ],
        object(json!({"things": things(), "meta": object(json!({
            "hasMore": {"type": "boolean"},
            "afterCursor": string(),
            "beforeCursor": string(),
        }))})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Token));
    assert_eq!(p.token_field.as_deref(), Some("meta.afterCursor"));
    assert_eq!(p.token_param.as_deref(), Some("page[after]"));
    assert_eq!(p.limit_param.as_deref(), Some("page[size]"));

    // Front: `_pagination.next` is described as a link, beside a `page_token` parameter it
    // already carries: the next page's URL, not a token.
    let next = json!({"type": "string", "description": "Link to next page of results"});
    let (_, p) = import(&doc(
        "/things",
        &[("page_token", string()), ("limit", integer())],
        object(json!({"_results": things(), "_pagination": object(json!({"next": next}))})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::NextUrl));
    assert_eq!(p.next_field.as_deref(), Some("_pagination.next"));
}

#[test]
fn a_token_inside_one_variant_of_a_metadata_union_pages_by_token() {
    // Slack's `users.list`: `response_metadata` is one of two objects (a draft-4 tuple), one
    // with `next_cursor`. The operation was refused by the checker, then left unpaged.
    let metadata = json!({"items": [
        {"type": "object", "required": ["next_cursor"], "properties": {"next_cursor": string()}},
        {"type": "object", "required": ["messages"], "properties": {"messages": {"type": "array", "items": string()}}},
    ]});
    let (imported, p) = import(&doc(
        "/things",
        &[("cursor", string()), ("limit", integer())],
        object(json!({"members": things(), "response_metadata": metadata})),
    ));
    let p = p.unwrap_or_else(|| panic!("{}", imported.report));
    assert_eq!(p.style, Some(PageKind::Token));
    assert_eq!(
        p.token_field.as_deref(),
        Some("response_metadata.next_cursor")
    );
    assert_eq!(p.token_param.as_deref(), Some("cursor"));
}

#[test]
fn a_token_field_without_a_parameter_to_send_it_back_leaves_the_gap() {
    let (imported, p) = import(&doc(
        "/things",
        &[("page_size", integer())],
        object(json!({"things": things(), "next_page_token": string()})),
    ));
    assert_eq!(p, None);
    assert!(gap_of(&imported), "{}", imported.yaml);
    let counts = &imported.report.pagination;
    assert_eq!((counts.page_lists, counts.paginated()), (1, 0));
}

#[test]
fn has_more_with_starting_after_and_a_limit_is_the_cursor_style_on_item_ids() {
    let (_, p) = import(&doc(
        "/things",
        &[("limit", integer()), ("starting_after", string())],
        object(json!({"data": things(), "has_more": {"type": "boolean"}, "object": string()})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Cursor));
    assert_eq!(p.has_more_field.as_deref(), Some("has_more"));
    assert_eq!(p.cursor_field.as_deref(), Some("id"));
    assert_eq!(p.after_param.as_deref(), Some("starting_after"));
    assert_eq!(p.limit_param.as_deref(), Some("limit"));

    // Without a page size parameter the cursor style cannot be written.
    let (imported, p) = import(&doc(
        "/things",
        &[("starting_after", string())],
        object(json!({"data": things(), "has_more": {"type": "boolean"}})),
    ));
    assert_eq!(p, None);
    assert!(gap_of(&imported));
}

#[test]
fn a_limit_typed_as_text_beside_an_offset_is_the_page_size() {
    // Mailgun's `GET /v3/lists`: `limit` and `skip` are strings ("Defaults to 100"); without
    // the limit the sandbox paged by its own size and ignored what was asked.
    let (_, p) = import(&doc(
        "/lists",
        &[("limit", string()), ("skip", string())],
        object(json!({"items": things(), "total_count": integer()})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Offset));
    assert_eq!(p.offset_param.as_deref(), Some("skip"));
    assert_eq!(p.limit_param.as_deref(), Some("limit"));
}

#[test]
fn offset_and_limit_with_a_total_is_the_offset_style() {
    let (_, p) = import(&doc(
        "/things",
        &[("count", integer()), ("offset", integer())],
        object(json!({"TotalCount": integer(), "Things": things()})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Offset));
    assert_eq!(p.offset_param.as_deref(), Some("offset"));
    assert_eq!(p.limit_param.as_deref(), Some("count"));
    assert_eq!(p.total_field.as_deref(), Some("TotalCount"));

    // The total under `count` in a metadata object (SendGrid's `_metadata.count`).
    let (_, p) = import(&doc(
        "/things",
        &[("limit", integer()), ("offset", integer())],
        object(json!({"result": things(), "_metadata": object(json!({"count": integer()}))})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Offset));
    assert_eq!(p.total_field.as_deref(), Some("_metadata.count"));
}

#[test]
fn offset_and_limit_without_a_total_page_until_a_short_or_empty_page() {
    // No total: a page shorter than the limit asked for (or empty) is the last.
    let (imported, p) = import(&doc(
        "/things",
        &[("limit", integer()), ("offset", integer())],
        object(json!({"result": things()})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Offset));
    assert_eq!(p.limit_param.as_deref(), Some("limit"));
    assert_eq!(p.total_field, None);
    assert!(!gap_of(&imported));

    // A `count` beside the items may be the page's own size: not taken for a total.
    let (_, p) = import(&doc(
        "/things",
        &[("limit", integer()), ("offset", integer())],
        object(json!({"result": things(), "count": integer()})),
    ));
    assert_eq!(p.unwrap().total_field, None);

    // An offset with neither a page size nor a total says nothing about where the list ends.
    let (imported, p) = import(&doc(
        "/things",
        &[("offset", integer())],
        object(json!({"result": things()})),
    ));
    assert_eq!(p, None);
    assert!(gap_of(&imported));
}

#[test]
fn a_bare_array_pages_by_offset_and_limit_or_by_page_and_size() {
    let (_, p) = import(&doc(
        "/things",
        &[("limit", integer()), ("offset", integer())],
        things(),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Offset));
    assert_eq!(p.items_field, "");
    assert_eq!(p.limit_param.as_deref(), Some("limit"));
    assert_eq!(p.total_field, None);

    let (_, p) = import(&doc(
        "/things",
        &[("page", integer()), ("page_size", integer())],
        things(),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Page));
    assert_eq!(p.items_field, "");
    assert_eq!(p.size_param.as_deref(), Some("page_size"));

    // An offset alone on a bare array: nothing says where it ends.
    let (_, p) = import(&doc("/things", &[("offset", integer())], things()));
    assert_eq!(p, None);
}

#[test]
fn page_numbers_with_a_page_count_or_an_echoed_page_are_the_page_style() {
    let (_, p) = import(&doc(
        "/things",
        &[("page", integer()), ("per_page", integer())],
        object(json!({"things": things(), "meta": object(json!({"total_pages": integer()}))})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Page));
    assert_eq!(p.page_param.as_deref(), Some("page"));
    assert_eq!(p.size_param.as_deref(), Some("per_page"));
    assert_eq!(p.total_pages_field.as_deref(), Some("meta.total_pages"));
    assert_eq!(p.first_page, None, "from 1, the default");

    // A page number that may be 0 counts from 0.
    let (_, p) = import(&doc(
        "/things",
        &[
            ("Page", json!({"type": "integer", "minimum": 0})),
            ("PageSize", integer()),
        ],
        object(json!({"things": things(), "page": integer()})),
    ));
    let p = p.unwrap();
    assert_eq!(p.first_page, Some(0));
    assert_eq!(p.total_pages_field, None);

    // A page number with a page size and nothing in the answer (SendGrid's contact lists):
    // numbered pages, a short or empty one the last.
    let (_, p) = import(&doc(
        "/things",
        &[("page", integer()), ("page_size", integer())],
        object(json!({"recipients": things()})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Page));
    assert_eq!(p.page_param.as_deref(), Some("page"));
    assert_eq!(p.size_param.as_deref(), Some("page_size"));
    assert_eq!(p.total_pages_field, None);

    // A page parameter alone: nothing says it is a numbered page of a given size.
    let (imported, p) = import(&doc(
        "/things",
        &[("page", integer())],
        object(json!({"recipients": things()})),
    ));
    assert_eq!(p, None);
    assert!(gap_of(&imported));
}

#[test]
fn a_next_url_wins_over_a_token_parameter_that_it_already_carries() {
    let (_, p) = import(&doc(
        "/things",
        &[("page_token", string()), ("page_size", integer())],
        object(json!({"result": things(), "next_page_token": string(), "next_page_url": string()})),
    ));
    assert_eq!(p.unwrap().style, Some(PageKind::NextUrl));
}

#[test]
fn an_item_with_a_list_field_and_a_bare_array_are_not_paged() {
    let (imported, p) = import(&doc(
        "/things/{id}",
        &[],
        object(json!({"id": string(), "versions": things()})),
    ));
    assert_eq!(p, None);
    let counts = &imported.report.pagination;
    assert_eq!((counts.page_lists, counts.bare_lists), (0, 0), "not a list");
    assert!(
        !imported.yaml.contains("\n  pagination:"),
        "no gap: {}",
        imported.yaml
    );

    let (imported, p) = import(&doc("/things", &[("limit", integer())], things()));
    assert_eq!(p, None);
    assert_eq!(imported.report.pagination.bare_lists, 1);
    assert!(gap_of(&imported));
    assert!(
        imported
            .report
            .to_string()
            .contains("pagination: 0 of 1 list operations (1 answer a bare array)"),
        "{}",
        imported.report
    );
}

#[test]
fn a_list_is_counted_alike_by_the_report_the_gaps_and_the_fidelity_report() {
    // Unpaged, neither a list of plain values (a configuration's `filters`) nor a list inside
    // one object field (`{profile: {fields: [...]}}`) is a list operation; a list of records
    // is, and each of the three counts says so.
    let cases = [
        (
            object(json!({"filters": {"type": "array", "items": string()}})),
            0,
        ),
        (
            object(json!({"profile": object(json!({"fields": things()}))})),
            0,
        ),
        (object(json!({"things": things()})), 1),
    ];
    for (page, lists) in cases {
        let text = doc("/things", &[], page);
        let (imported, _) = import(&text);
        let fidelity =
            tidings_codegen::import::fidelity_report(&text, &imported, "things").unwrap();
        let counts = &imported.report.pagination;
        assert_eq!(
            counts.page_lists + counts.bare_lists,
            lists,
            "{}",
            imported.yaml
        );
        assert_eq!(fidelity.lists_paged + fidelity.lists_unpaged.len(), lists);
        assert_eq!(gap_of(&imported), lists == 1, "{}", imported.yaml);
    }
}

#[test]
fn a_next_beside_the_items_is_a_token_where_the_operation_takes_one_back() {
    // Sendbird's lists: `{users: [...], next: "..."}` with `?token=` and `?limit=`, the
    // `next` described nowhere. Was left unpaged (every item on one page, `limit` ignored).
    let (imported, p) = import(&doc(
        "/things",
        &[("token", string()), ("limit", integer())],
        object(json!({"things": things(), "next": string()})),
    ));
    let p = p.expect("paged");
    assert_eq!(p.style, Some(PageKind::Token), "{}", imported.yaml);
    assert_eq!(p.token_field.as_deref(), Some("next"));
    assert_eq!(p.token_param.as_deref(), Some("token"));
    // A link is no token, and without a parameter to take it back a `next` beside the items
    // pages nothing.
    let (_, p) = import(&doc(
        "/things",
        &[("token", string()), ("limit", integer())],
        object(json!({"things": things(), "next": {"type": "string", "format": "uri"}})),
    ));
    assert_ne!(p.and_then(|p| p.style), Some(PageKind::Token));
    let (_, p) = import(&doc(
        "/things",
        &[("limit", integer())],
        object(json!({"things": things(), "next": string()})),
    ));
    assert_eq!(p, None);
}

#[test]
fn a_wire_name_with_a_dot_is_never_part_of_a_field_path() {
    // `next.page.uri` is one field whose name has dots (its words read `next_page_uri`): no
    // dot path can name it, and the operation is imported without pagination rather than
    // refused by the checker.
    let (imported, p) = import(&doc(
        "/things",
        &[("page_size", integer())],
        object(json!({"things": things(), "next.page.uri": string()})),
    ));
    assert_eq!(p, None);
    assert_eq!(imported.report.operations_imported, 1);
}

/// `doc` with a `Link` header documented on the 200 answer.
fn with_link_header(text: &str) -> String {
    let mut doc: Value = serde_json::from_str(text).unwrap();
    doc["paths"]["/things"]["get"]["responses"]["200"]["headers"] =
        json!({"Link": {"description": "RFC 8288 links", "schema": {"type": "string"}}});
    doc.to_string()
}

#[test]
fn a_bare_array_with_a_documented_link_header_pages_by_the_header() {
    let text = with_link_header(&doc("/things", &[("per_page", integer())], things()));
    let (imported, pagination) = import(&text);
    let p = pagination.unwrap_or_else(|| panic!("{}", imported.yaml));
    assert_eq!(p.style, Some(PageKind::LinkHeader));
    assert_eq!(p.items_field, "");
    assert_eq!(p.limit_param.as_deref(), Some("per_page"));
    // Without the header, a bare array shows no way to page.
    let (imported, pagination) = import(&doc("/things", &[("per_page", integer())], things()));
    assert!(pagination.is_none());
    assert!(gap_of(&imported));
}

#[test]
fn an_object_page_with_only_a_link_header_pages_by_the_header() {
    let page = object(json!({"things": things()}));
    let text = with_link_header(&doc("/things", &[], page));
    let (_, pagination) = import(&text);
    let p = pagination.unwrap();
    assert_eq!(p.style, Some(PageKind::LinkHeader));
    assert_eq!(p.items_field, "things");
}

#[test]
fn hal_embedded_items_page_by_record_index_page_index_or_a_page_index() {
    // Vonage: items under `_embedded`, paged by `record_index` (an offset) with `page_size`,
    // by `page_index` (0 unless given) or by `index` ("Page index") with `size`.
    let embedded = |extra: Value| {
        let mut props =
            json!({"_embedded": object(json!({"calls": things()})), "count": integer()});
        props
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        object(props)
    };
    let (_, p) = import(&doc(
        "/things",
        &[("page_size", integer()), ("record_index", integer())],
        embedded(json!({"record_index": integer()})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Offset));
    assert_eq!(p.items_field, "_embedded.calls");
    assert_eq!(p.offset_param.as_deref(), Some("record_index"));
    assert_eq!(p.limit_param.as_deref(), Some("page_size"));

    let (_, p) = import(&doc(
        "/things",
        &[
            ("page_size", integer()),
            ("page_index", json!({"type": "integer", "default": 0})),
        ],
        embedded(json!({})),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::Page));
    assert_eq!(p.items_field, "_embedded.calls");
    assert_eq!(p.page_param.as_deref(), Some("page_index"));
    assert_eq!(p.first_page, Some(0));

    // `index` is a page number only when its description says so.
    let described = |doc_text: &str| {
        let text = doc(
            "/things",
            &[("size", integer()), ("index", integer())],
            object(json!({"things": things(), "count": integer()})),
        );
        let mut value: Value = serde_json::from_str(&text).unwrap();
        value["paths"]["/things"]["get"]["parameters"][1]["description"] = json!(doc_text);
        import(&value.to_string()).1
    };
    let p = described("Page index").unwrap();
    assert_eq!(p.page_param.as_deref(), Some("index"));
    assert_eq!(p.size_param.as_deref(), Some("size"));
    assert_eq!(p.first_page, None);
    assert!(described("Index of the search").is_none());

    // Vonage's conversations v2: one object down (`_embedded.data.conversations`), the next
    // page at HAL's `_links.next.href`; its lists were neither paged nor listed.
    let link = object(json!({"href": {"type": "string"}}));
    let (_, p) = import(&doc(
        "/things",
        &[
            ("page_size", integer()),
            ("cursor", json!({"type": "string"})),
        ],
        object(json!({
            "page_size": integer(),
            "_embedded": object(json!({"data": object(json!({"calls": things()}))})),
            "_links": object(json!({"self": link.clone(), "next": link}))
        })),
    ));
    let p = p.unwrap();
    assert_eq!(p.style, Some(PageKind::NextUrl));
    assert_eq!(p.items_field, "_embedded.data.calls");
    assert_eq!(p.next_field.as_deref(), Some("_links.next.href"));
}
