//! Generator benchmarks: load, check, emit and format, for the three real specs and for
//! synthetic specs of 10, 100 and 1,000 operations (see `comms_codegen::synthetic`), to show how
//! the cost grows. Run with `cargo bench -p comms-codegen --bench generator`.

use std::hint::black_box;
use std::path::PathBuf;

use comms_codegen::{check, emit, load, synthetic};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

fn inputs() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let mut out: Vec<(String, String)> = ["email", "messaging", "realtime"]
        .iter()
        .map(|name| {
            let text =
                std::fs::read_to_string(dir.join(format!("{name}.yaml"))).expect("spec file");
            ((*name).to_owned(), text)
        })
        .collect();
    for n in [10, 100, 1000] {
        out.push((format!("synthetic_{n}"), synthetic::spec(n)));
    }
    out
}

fn stages(c: &mut Criterion) {
    for (name, text) in inputs() {
        let mut group = c.benchmark_group(format!("generator/{name}"));
        group.sample_size(20);
        let loaded = load::load_str("bench.yaml", &text).expect("loads");
        let service = check::check(&loaded).expect("checks");
        let tokens = emit::service_tokens(&service);
        group.bench_function("load", |b| {
            b.iter(|| load::load_str("bench.yaml", black_box(&text)).expect("loads"))
        });
        group.bench_function("check", |b| {
            b.iter(|| check::check(black_box(&loaded)).expect("checks"))
        });
        group.bench_function("emit", |b| {
            b.iter(|| emit::service_tokens(black_box(&service)))
        });
        group.bench_function("format", |b| {
            b.iter(|| {
                let file: syn::File = syn::parse2(black_box(tokens.clone())).expect("parses");
                prettyplease::unparse(&file)
            })
        });
        group.bench_with_input(BenchmarkId::new("all", &name), &text, |b, text| {
            b.iter(|| {
                let loaded = load::load_str("bench.yaml", text).expect("loads");
                let service = check::check(&loaded).expect("checks");
                emit::emit_service(&service).expect("emits")
            })
        });
        group.finish();
    }
}

criterion_group!(benches, stages);
criterion_main!(benches);
