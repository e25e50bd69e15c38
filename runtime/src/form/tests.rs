use super::*;
use serde_json::json;

const STYLE: FormStyle = FormStyle::DEFAULT;

#[test]
fn twilio_style_keeps_field_order_repeats_arrays_and_encodes_plus_signs() {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "PascalCase")]
    struct Create {
        to: &'static str,
        from: &'static str,
        body: &'static str,
        media_url: Vec<&'static str>,
        status_callback: Option<&'static str>,
    }
    let body = Create {
        to: "+15558675310",
        from: "+15017122661",
        body: "Hi there & welcome",
        media_url: vec!["https://e.x/a.png", "https://e.x/b.png"],
        status_callback: None,
    };
    assert_eq!(
        encode(&body, STYLE).unwrap(),
        "To=%2B15558675310&From=%2B15017122661&Body=Hi+there+%26+welcome\
         &MediaUrl=https%3A%2F%2Fe.x%2Fa.png&MediaUrl=https%3A%2F%2Fe.x%2Fb.png"
    );
}

#[test]
fn every_array_and_nesting_style_round_trips() {
    let body = json!({"to": ["a", "b"], "meta": {"k": "v", "deep": {"n": "1"}}, "skip": null});
    for arrays in [
        ArrayStyle::Repeat,
        ArrayStyle::Brackets,
        ArrayStyle::Indexed,
        ArrayStyle::Comma,
        ArrayStyle::Json,
    ] {
        for nested in [NestedStyle::Brackets, NestedStyle::Dots] {
            let style = FormStyle { arrays, nested };
            let text = encode(&body, style).unwrap();
            let back: Value = decode(text.as_bytes(), style).unwrap();
            assert_eq!(
                back,
                json!({"to": if arrays == ArrayStyle::Comma { json!("a,b") } else { json!(["a", "b"]) },
                    "meta": {"k": "v", "deep": {"n": "1"}}}),
                "{style:?}: {text}"
            );
        }
    }
    let style = FormStyle {
        arrays: ArrayStyle::Indexed,
        nested: NestedStyle::Dots,
    };
    assert_eq!(
        encode(&body, style).unwrap(),
        "meta.deep.n=1&meta.k=v&to%5B0%5D=a&to%5B1%5D=b"
    );
}

#[test]
fn the_json_array_style_sends_each_top_level_list_as_its_json_text_and_reads_it_back() {
    // Zulip's subscribe: `principals=[9,10]`, `subscriptions=[{"name":"Denmark"}]`.
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Sub {
        name: String,
    }
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Body {
        principals: Vec<u64>,
        subscriptions: Vec<Sub>,
        names: Vec<String>,
        none: Vec<u8>,
        invite_only: bool,
    }
    let style = FormStyle {
        arrays: ArrayStyle::Json,
        nested: NestedStyle::Json,
    };
    let body = Body {
        principals: vec![9, 10],
        subscriptions: vec![Sub {
            name: "Denmark".into(),
        }],
        names: vec!["a,b".into(), "c".into()],
        none: vec![],
        invite_only: true,
    };
    let text = encode(&body, style).unwrap();
    assert_eq!(
        text,
        "principals=%5B9%2C10%5D&subscriptions=%5B%7B%22name%22%3A%22Denmark%22%7D%5D\
         &names=%5B%22a%2Cb%22%2C%22c%22%5D&none=%5B%5D&invite_only=true"
    );
    let back: Body = decode(text.as_bytes(), style).unwrap();
    assert_eq!(back, body);
    // In a multipart body, each list is a part of type `application/json`.
    let (bytes, _) = multipart(&body, style).unwrap();
    let bytes = String::from_utf8(bytes).unwrap();
    assert!(
        bytes.contains("name=\"principals\"\r\ncontent-type: application/json\r\n\r\n[9,10]")
            || bytes
                .contains("name=\"principals\"\r\nContent-Type: application/json\r\n\r\n[9,10]"),
        "{bytes}"
    );
}

#[test]
fn decoding_converts_text_to_the_types_asked_for() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Body {
        n: u32,
        f: f64,
        on: bool,
        one: Vec<String>,
        tags: Option<Vec<u8>>,
    }
    let style = FormStyle {
        arrays: ArrayStyle::Comma,
        nested: NestedStyle::Brackets,
    };
    let got: Body = decode(b"n=7&f=1.5&on=true&one=x&tags=1,2", style).unwrap();
    assert_eq!(
        got,
        Body {
            n: 7,
            f: 1.5,
            on: true,
            one: vec!["x".into()],
            tags: Some(vec![1, 2])
        }
    );
    let err = decode::<Body>(b"n=seven&f=1&on=true&one=x", style).unwrap_err();
    assert!(err.to_string().contains("`seven` is not a"), "{err}");
}

#[test]
fn limits_refuse_deep_and_huge_bodies() {
    let mut deep = json!("x");
    for _ in 0..=MAX_DEPTH + 1 {
        deep = json!({ "a": deep });
    }
    let err = encode(&deep, STYLE).unwrap_err();
    assert!(err.to_string().contains("nested at most"), "{err}");
    let many: Vec<u32> = (0..=u32::try_from(MAX_FIELDS).unwrap()).collect();
    let err = encode(&json!({ "n": many }), STYLE).unwrap_err();
    assert!(err.to_string().contains("at most 10000 fields"), "{err}");
    let huge = "a=1&".repeat(MAX_FIELDS + 1);
    let err = decode_value(huge.as_bytes(), STYLE).unwrap_err();
    assert!(err.to_string().contains("at most 10000 fields"), "{err}");
    let deep_name = format!("a{}=1", "[b]".repeat(MAX_DEPTH + 2));
    assert!(decode_value(deep_name.as_bytes(), STYLE).is_err());
    assert!(decode_value(b"a=1&a[b]=2", STYLE).is_err());
    assert!(decode_value(b"a[5]=1", STYLE).is_err());
    assert!(encode(&json!([1, 2]), STYLE).is_err());
}

#[test]
fn multipart_writes_text_and_file_parts() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Upload {
        to: Vec<String>,
        file: FilePart,
    }
    let body = Upload {
        to: vec!["a".into(), "b".into()],
        file: FilePart::new("x\".png", "image/png", vec![0u8, 1, 2]),
    };
    let (bytes, content_type) = multipart(&body, STYLE).unwrap();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(text.matches("name=\"to\"").count(), 2);
    assert!(text.contains("filename=\"x%22.png\"\r\nContent-Type: image/png\r\n\r\n"));
    assert!(bytes.windows(3).any(|w| w == [0, 1, 2]));
    assert!(text.ends_with(&format!("--{boundary}--\r\n")));
    let back: Upload = decode_multipart(&bytes, &content_type, STYLE).unwrap();
    assert_eq!(back.to, body.to);
    assert_eq!(back.file.data, [0, 1, 2]);
    assert_eq!(back.file.filename, "x%22.png");
    let err =
        decode_multipart::<Upload>(b"--x\r\nno end", "multipart/form-data; boundary=x", STYLE)
            .unwrap_err();
    assert!(err.to_string().contains("multipart body"), "{err}");
    assert!(decode_multipart_value(&bytes, "multipart/form-data", STYLE).is_err());
}

#[test]
fn a_multipart_body_with_other_keys_sends_each_as_a_part_beside_its_file() {
    // What a generated type with `additional` writes: its fields, then the other keys, as
    // one map (Mailgun's list update sends `list_id`, which its schema does not declare).
    struct Update {
        name: String,
        file: FilePart,
        additional: std::collections::BTreeMap<String, Value>,
    }
    impl serde::Serialize for Update {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap as _;
            let mut s = serializer.serialize_map(Some(2 + self.additional.len()))?;
            s.serialize_entry("name", &self.name)?;
            s.serialize_entry("file", &self.file)?;
            for (key, value) in &self.additional {
                s.serialize_entry(key, value)?;
            }
            s.end()
        }
    }
    let body = Update {
        name: "Developers".into(),
        file: FilePart::new("a.txt", "text/plain", b"hi".to_vec()),
        additional: [("list_id".to_owned(), json!("123"))].into(),
    };
    let (bytes, content_type) = multipart(&body, STYLE).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("name=\"list_id\"\r\n\r\n123\r\n"), "{text}");
    assert!(text.contains("filename=\"a.txt\""), "{text}");
    let back = decode_multipart_value(&bytes, &content_type, STYLE).unwrap();
    assert_eq!(
        (&back["name"], &back["list_id"]),
        (&json!("Developers"), &json!("123"))
    );
}

#[test]
fn the_json_nested_style_sends_an_object_field_whole_and_reads_it_back() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Contact {
        email: String,
        tags: Vec<String>,
        attributes: std::collections::BTreeMap<String, Value>,
        lists: Vec<std::collections::BTreeMap<String, u32>>,
    }
    let style = FormStyle {
        arrays: ArrayStyle::Repeat,
        nested: NestedStyle::Json,
    };
    let contact = Contact {
        email: "ada@example.com".into(),
        tags: vec!["a".into(), "b".into()],
        attributes: [
            ("plan".to_owned(), json!("pro")),
            ("seats".to_owned(), json!(3)),
        ]
        .into_iter()
        .collect(),
        lists: vec![[("id".to_owned(), 7)].into_iter().collect()],
    };
    // A form: the object as its JSON text, a list of scalars as the array style says.
    let text = encode(&contact, style).unwrap();
    assert_eq!(
        text,
        "email=ada%40example.com&tags=a&tags=b\
         &attributes=%7B%22plan%22%3A%22pro%22%2C%22seats%22%3A3%7D&lists=%5B%7B%22id%22%3A7%7D%5D"
    );
    assert_eq!(decode::<Contact>(text.as_bytes(), style).unwrap(), contact);
    // Multipart: a part of type `application/json` per object field.
    let (body, content_type) = multipart(&contact, style).unwrap();
    let wire = String::from_utf8(body.clone()).unwrap();
    assert!(
        wire.contains(
            "name=\"attributes\"\r\nContent-Type: application/json\r\n\r\n{\"plan\":\"pro\",\"seats\":3}\r\n"
        ),
        "{wire}"
    );
    assert!(!wire.contains("attributes[plan]"), "{wire}");
    assert_eq!(
        decode_multipart::<Contact>(&body, &content_type, style).unwrap(),
        contact
    );
}
