//! `--data` holds the sandbox's keys, webhook secrets and captured emails (password-reset
//! links among them): a directory the binary creates is readable by its user only, and one
//! that other users can read is named in a warning on stderr.

#![cfg(unix)]
#![allow(clippy::unwrap_used)] // tests: a failed unwrap is a failed test

mod binary_support;

use std::os::unix::fs::PermissionsExt as _;

use binary_support::start;

const WARNING: &str = "can be read by other users of this machine";

#[test]
fn the_binary_makes_its_data_directory_private_and_warns_about_an_open_one() {
    let root = tempfile::tempdir().unwrap();
    let fresh = root.path().join("fresh");
    let running = start(
        &["--data", fresh.to_str().unwrap(), "--no-smtp"],
        &root.path().join("fresh.log"),
        "",
        &[],
    );
    let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    for sub in ["resources", "idempotency"] {
        let mode = std::fs::metadata(fresh.join(sub))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o700, "{sub}");
    }
    assert!(!running.stderr().contains(WARNING), "{}", running.stderr());
    running.stop();

    let open = root.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
    let running = start(
        &["--data", open.to_str().unwrap(), "--no-smtp"],
        &root.path().join("open.log"),
        "",
        &[],
    );
    let log = running.wait_log(WARNING);
    assert!(log.contains(WARNING) && log.contains("chmod 700"), "{log}");
    running.stop();
}
