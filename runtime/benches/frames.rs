//! WebSocket frame decode throughput: `Frame::parse` plus reading the event's payload, for the
//! three shapes servers send (`data` as a JSON string holding JSON, as an object, absent),
//! each beside a peer: two `serde_json::Value` parses, as a generic client decodes a frame.
//!
//! Run: `cargo bench -p tidings-runtime --features realtime --bench frames`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tidings_runtime::realtime::Frame;

fn frames(c: &mut Criterion) {
    let event_data = r#"{"order":1234,"status":"shipped","items":[{"sku":"A-1","qty":2},{"sku":"B-7","qty":1}],"note":"leave at the door"}"#;
    let as_string = serde_json::json!({"event": "order-updated", "channel": "private-orders", "data": event_data}).to_string();
    let as_object =
        format!(r#"{{"event":"order-updated","channel":"private-orders","data":{event_data}}}"#);
    let bare = r#"{"event":"pusher:pong","data":{}}"#.to_owned();
    let mut group = c.benchmark_group("frame_decode");
    for (name, text) in [
        ("data_as_json_string", &as_string),
        ("data_as_object", &as_object),
        ("control", &bare),
    ] {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let frame = Frame::parse(black_box(text)).expect("valid frame");
                let payload: Option<serde_json::Value> = frame.payload().ok();
                black_box(payload)
            })
        });
        // The peer: what a generic client does (pusher-js: `JSON.parse` of the frame, then of
        // `data` when it is a string), here with `serde_json::Value`.
        group.bench_function(format!("{name}/peer_serde_json_value"), |b| {
            b.iter(|| {
                let mut frame: serde_json::Value =
                    serde_json::from_str(black_box(text)).expect("valid frame");
                let data = frame.get_mut("data").map(serde_json::Value::take);
                let payload = match data {
                    Some(serde_json::Value::String(s)) => serde_json::from_str(&s).ok(),
                    other => other,
                };
                black_box((frame, payload))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
