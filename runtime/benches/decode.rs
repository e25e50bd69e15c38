//! Decoding speed of a generated struct: through the runtime's field table
//! (`tidings_runtime::object`, what generated code does) against serde's derive for the same
//! struct, from the same JSON (an email event as the email API answers it: a dozen fields,
//! optional ones absent or `null`, a list, a map and one unknown field to skip).
//!
//! Run: `cargo bench -p tidings-runtime --bench decode`

use std::collections::BTreeMap;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::Deserialize;
use serde::de::{Error, MapAccess};
use tidings_runtime::object::{self, Decode};

const JSON: &str = r#"{"id":"ev_01HZX3","type":"email.delivered","email_id":"em_01HZX2",
"created_at":"2026-11-24T10:00:00Z","to":["ada@example.com","grace@example.com"],
"subject":"Your order has shipped","status":"delivered","attempts":2,"bounce":null,
"tags":{"campaign":"autumn","tier":"gold"},"smtp_response":"250 2.0.0 OK","future_field":{"a":[1,2,3]},
"opened":false}"#;

/// The struct as the derive reads it.
#[derive(Debug, PartialEq, Deserialize)]
struct Derived {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    email_id: String,
    created_at: String,
    to: Vec<String>,
    subject: Option<String>,
    status: String,
    attempts: Option<i64>,
    bounce: Option<String>,
    tags: Option<BTreeMap<String, String>>,
    smtp_response: Option<String>,
    opened: Option<bool>,
}

/// The same struct as generated code reads it.
#[derive(Debug, PartialEq)]
struct Walked {
    id: String,
    kind: String,
    email_id: String,
    created_at: String,
    to: Vec<String>,
    subject: Option<String>,
    status: String,
    attempts: Option<i64>,
    bounce: Option<String>,
    tags: Option<BTreeMap<String, String>>,
    smtp_response: Option<String>,
    opened: Option<bool>,
}

impl Decode for Walked {
    const NAME: &'static str = "Walked";
    const FIELDS: &'static [&'static str] = &[
        "id",
        "type",
        "email_id",
        "created_at",
        "to",
        "subject",
        "status",
        "attempts",
        "bounce",
        "tags",
        "smtp_response",
        "opened",
    ];
    #[allow(clippy::type_complexity)]
    type Partial = (
        Option<String>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<Vec<String>>,
        Option<Option<String>>,
        Option<String>,
        Option<Option<i64>>,
        Option<Option<String>>,
        Option<Option<BTreeMap<String, String>>>,
        Option<Option<String>>,
        Option<Option<bool>>,
    );
    fn start() -> Self::Partial {
        (
            None, None, None, None, None, None, None, None, None, None, None, None,
        )
    }
    fn field<'de, A: MapAccess<'de>>(
        p: &mut Self::Partial,
        index: usize,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match index {
            0 => object::value(&mut p.0, map, "id"),
            1 => object::value(&mut p.1, map, "type"),
            2 => object::value(&mut p.2, map, "email_id"),
            3 => object::value(&mut p.3, map, "created_at"),
            4 => object::value(&mut p.4, map, "to"),
            5 => object::value(&mut p.5, map, "subject"),
            6 => object::value(&mut p.6, map, "status"),
            7 => object::value(&mut p.7, map, "attempts"),
            8 => object::value(&mut p.8, map, "bounce"),
            9 => object::value(&mut p.9, map, "tags"),
            10 => object::value(&mut p.10, map, "smtp_response"),
            _ => object::value(&mut p.11, map, "opened"),
        }
    }
    fn finish<E: Error>(p: Self::Partial) -> Result<Self, E> {
        Ok(Self {
            id: object::required(p.0, "id")?,
            kind: object::required(p.1, "type")?,
            email_id: object::required(p.2, "email_id")?,
            created_at: object::required(p.3, "created_at")?,
            to: object::required(p.4, "to")?,
            subject: p.5.flatten(),
            status: object::required(p.6, "status")?,
            attempts: p.7.flatten(),
            bounce: p.8.flatten(),
            tags: p.9.flatten(),
            smtp_response: p.10.flatten(),
            opened: p.11.flatten(),
        })
    }
}

impl<'de> Deserialize<'de> for Walked {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        object::deserialize(d)
    }
}

fn decode(c: &mut Criterion) {
    // Both read the same thing before anything is timed.
    let derived: Derived = serde_json::from_str(JSON).expect("derive decodes the event");
    let walked: Walked = serde_json::from_str(JSON).expect("field table decodes the event");
    assert_eq!(
        (derived.id, derived.to, derived.tags, derived.opened),
        (walked.id, walked.to, walked.tags, walked.opened)
    );

    let mut group = c.benchmark_group("decode_event");
    group.throughput(Throughput::Bytes(JSON.len() as u64));
    group.bench_function("serde_derive", |b| {
        b.iter(|| serde_json::from_str::<Derived>(std::hint::black_box(JSON)))
    });
    group.bench_function("field_table", |b| {
        b.iter(|| serde_json::from_str::<Walked>(std::hint::black_box(JSON)))
    });
    group.finish();
}

criterion_group!(benches, decode);
criterion_main!(benches);
