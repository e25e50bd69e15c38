//! `comms-sandbox`: runs the local stand-ins on loopback and prints their URLs and test
//! credentials, until Ctrl-C.
//!
//! ```console
//! $ cargo run -p comms-sandbox
//! $ cargo run -p comms-sandbox -- --email-port 8025 --messaging-port 8026 --realtime-port 6001
//! ```

use std::process::ExitCode;

use comms_sandbox::{Sandbox, SandboxConfig};

const USAGE: &str =
    "comms-sandbox [--email-port N] [--smtp-port N] [--messaging-port N] [--realtime-port N]

Runs local stand-ins of the email, messaging and realtime services on 127.0.0.1 (free ports
unless given) and prints their URLs and test credentials.";

fn port(value: Option<&String>, flag: &str) -> Result<u16, String> {
    value
        .ok_or_else(|| format!("{flag} needs a port number"))?
        .parse()
        .map_err(|_| format!("{flag}: not a port number"))
}

fn config(args: &[String]) -> Result<SandboxConfig, String> {
    let mut config = SandboxConfig::default();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--email-port" => config.email.port = port(iter.next(), arg)?,
            "--smtp-port" => {
                let p = port(iter.next(), arg)?;
                if let Some(smtp) = config.email.smtp.as_mut() {
                    smtp.port = p;
                }
            }
            "--messaging-port" => config.messaging.port = port(iter.next(), arg)?,
            "--realtime-port" => {
                let p = port(iter.next(), arg)?;
                config.realtime = config
                    .realtime
                    .addr(std::net::SocketAddr::from(([127, 0, 0, 1], p)));
            }
            "-h" | "--help" => return Err(USAGE.to_owned()),
            other => return Err(format!("unknown argument `{other}`\n\n{USAGE}")),
        }
    }
    Ok(config)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match config(&args) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::FAILURE;
        }
    };
    let sandbox = match Sandbox::start_with(config).await {
        Ok(sandbox) => sandbox,
        Err(e) => {
            eprintln!("comms-sandbox: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "comms-sandbox is running (Ctrl-C to stop)\n\n{}",
        sandbox.describe()
    );
    let _ = tokio::signal::ctrl_c().await;
    sandbox.shutdown().await;
    ExitCode::SUCCESS
}
