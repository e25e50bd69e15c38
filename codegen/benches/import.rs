//! Import benchmarks: an OpenAPI document of about 200 operations (the export of a synthetic
//! 200-operation spec) imported, checked and generated, as `import openapi` then `generate` do;
//! with `COMMS_IMPORT_BENCH_DOC=path/to/openapi.json` a provider's document too.
//! Run with `cargo bench -p tidings-codegen --bench import`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use tidings_codegen::import::{ImportOptions, import_openapi};
use tidings_codegen::{check, emit, export, load};

// The binary's synthetic specs, included (they are not in the library).
#[allow(dead_code)]
#[path = "../src/cli/synthetic.rs"]
mod synthetic;

fn synthetic_document(operations: usize) -> String {
    let loaded = load::load_str("synth.yaml", &synthetic::spec(operations)).expect("loads");
    let service = check::check(&loaded).expect("checks");
    export::to_json(&export::openapi::document(&service))
}

fn import_check_generate(text: &str, service: &str) -> String {
    let imported =
        import_openapi(text, &ImportOptions::new(service, "bench.json"), None).expect("imports");
    let loaded = load::load_str("bench.yaml", &imported.yaml).expect("loads");
    let checked = check::check(&loaded).expect("checks");
    emit::emit_service(&checked).expect("emits")
}

fn import(c: &mut Criterion) {
    let mut docs = vec![("synthetic_200".to_owned(), synthetic_document(200))];
    if let Ok(path) = std::env::var("COMMS_IMPORT_BENCH_DOC")
        && let Ok(text) = std::fs::read_to_string(&path)
    {
        docs.push(("provider".to_owned(), text));
    }
    for (name, text) in docs {
        let mut group = c.benchmark_group(format!("import/{name}"));
        group.sample_size(10);
        group.measurement_time(Duration::from_secs(10));
        group.bench_function("import", |b| {
            b.iter(|| {
                import_openapi(
                    black_box(&text),
                    &ImportOptions::new("bench", "bench.json"),
                    None,
                )
                .expect("imports")
            })
        });
        group.bench_function("import+check+generate", |b| {
            b.iter(|| import_check_generate(black_box(&text), "bench"))
        });
        group.finish();
    }
}

criterion_group!(benches, import);
criterion_main!(benches);
