//! The spec pipeline on arbitrary text: load (YAML → model, with locations), check, and — for
//! a spec that checks — emit the Rust code. Must never panic: every problem is a diagnostic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (loaded, problems) = tidings_codegen::load::load_str_partial("fuzz.yaml", text);
    let _ = problems.to_string();
    let Some(loaded) = loaded else {
        return;
    };
    match tidings_codegen::check::check(&loaded) {
        Ok(service) => {
            // A spec the checker accepts must emit (or fail with a message), never panic.
            let _ = tidings_codegen::emit::emit_service(&service);
        }
        Err(problems) => {
            let _ = problems.to_string();
        }
    }
});
