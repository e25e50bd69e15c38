//! `comms-sandbox`: runs the local stand-ins on loopback and prints their URLs and test credentials.

fn main() {
    println!("comms-sandbox: not wired yet");
}
