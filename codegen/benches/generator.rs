//! Generator benchmarks: load, check, emit (tokens only) and emit+format (the text, as
//! `generate` makes it), for the three real specs and for
//! synthetic specs of 10, 100 and 1,000 operations (see `src/cli/synthetic.rs`), to show how
//! the cost grows. Run with `cargo bench -p tidings-codegen --bench generator`.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use tidings_codegen::{check, emit, load};

// The binary's synthetic specs, included (they are not in the library).
#[allow(dead_code)]
#[path = "../src/cli/synthetic.rs"]
mod synthetic;

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
        group.bench_function("load", |b| {
            b.iter(|| load::load_str("bench.yaml", black_box(&text)).expect("loads"))
        });
        group.bench_function("check", |b| {
            b.iter(|| check::check(black_box(&loaded)).expect("checks"))
        });
        group.bench_function("emit", |b| {
            b.iter(|| emit::service_tokens(black_box(&service)))
        });
        // What `generate` does after checking: emit and format a chunk at a time.
        group.bench_function("emit+format", |b| {
            b.iter(|| emit::emit_service(black_box(&service)).expect("emits"))
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

/// Growth from 100 to 1,000 operations, measured in pairs so load on a shared machine hits both
/// sides alike: each round runs a stage ten times on the 100-operation spec, then once on the
/// 1,000-operation spec, and the ratio of the time per run is printed (10.0 = linear).
fn growth(_: &mut Criterion) {
    fn pair(name: &str, rounds: u32, small: &dyn Fn(), large: &dyn Fn()) {
        let (mut t_small, mut t_large) = (Duration::ZERO, Duration::ZERO);
        small();
        large();
        for _ in 0..rounds {
            let start = Instant::now();
            for _ in 0..10 {
                small();
            }
            t_small += start.elapsed();
            let start = Instant::now();
            large();
            t_large += start.elapsed();
        }
        println!(
            "growth/{name}: 1,000 ops / 100 ops = {:.1}x ({:.2?} vs {:.2?} per run, {rounds} paired rounds)",
            t_large.as_secs_f64() * 10.0 / t_small.as_secs_f64(),
            t_large / rounds,
            t_small / (rounds * 10),
        );
    }
    let texts = [synthetic::spec(100), synthetic::spec(1000)];
    let loaded = texts
        .each_ref()
        .map(|t| load::load_str("bench.yaml", t).expect("loads"));
    let services = loaded.each_ref().map(|l| check::check(l).expect("checks"));
    let run = |i: usize, stage: &str| match stage {
        "load" => drop(black_box(load::load_str("bench.yaml", &texts[i]))),
        "check" => drop(black_box(check::check(&loaded[i]))),
        "emit" => drop(black_box(emit::service_tokens(&services[i]))),
        "emit+format" => drop(black_box(emit::emit_service(&services[i]))),
        _ => drop(black_box(emit::emit_service(
            &check::check(&load::load_str("bench.yaml", &texts[i]).expect("loads"))
                .expect("checks"),
        ))),
    };
    for stage in ["load", "check", "emit", "emit+format", "all"] {
        pair(stage, 8, &|| run(0, stage), &|| run(1, stage));
    }
}

criterion_group!(benches, growth, stages);
criterion_main!(benches);
