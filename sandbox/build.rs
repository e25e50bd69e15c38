//! Generates the server side of every service (`<service>_server.rs`: a server trait and an axum
//! router, using the `comms` client types) from `../spec/*.yaml` into `OUT_DIR`, so the sandbox
//! serves exactly what the clients send. A broken spec fails the build with one line pointing at
//! the `comms` build, which lists every problem (so each is printed once).

fn main() {
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| {
        eprintln!("error: OUT_DIR is not set; run this through cargo");
        std::process::exit(1);
    });
    comms_codegen::Generator::new("../spec")
        .out_dir(out_dir)
        .server("::comms")
        .server_support("crate::server")
        .problems_reported_by("comms")
        .run_build_script();
}
