//! `comms-sandbox`: local servers that behave like the email, messaging and realtime services as
//! their specs describe them, in memory, on loopback. Tests and examples start them in-process on
//! free ports; the `comms-sandbox` binary runs them for other programs.

pub mod email;
pub mod messaging;
pub mod realtime;
pub mod server;
pub mod smtp;
