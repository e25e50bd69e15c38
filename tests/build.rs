//! Generates clients from `specs/*.yaml` into `OUT_DIR`: test services that exercise spec
//! constructs the real services do not use yet (form bodies, answer kinds, pagination styles).

fn main() {
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
        eprintln!("error: OUT_DIR is not set; run this through cargo");
        std::process::exit(1);
    });
    comms_codegen::Generator::new("specs")
        .out_dir(out_dir)
        .run_build_script();
}
