//! Target directories of their own that some tests build in (a copy of the workspace, a crate
//! of generated clients): kept between local runs so those are incremental, and removed under
//! CI once the last test using one ends, so that a fresh machine's disk holds at most one of
//! them beside the workspace's own target directory.

use std::path::PathBuf;
use std::sync::Mutex;

/// Tests of this process using each directory.
static USERS: Mutex<Vec<(PathBuf, usize)>> = Mutex::new(Vec::new());

/// A test's use of a scratch target directory; see [`ScratchTarget::enter`].
#[derive(Debug)]
pub struct ScratchTarget {
    dir: PathBuf,
}

impl ScratchTarget {
    /// Counts this test as a user of `dir` until the value is dropped.
    pub fn enter(dir: impl Into<PathBuf>) -> ScratchTarget {
        let dir = dir.into();
        let mut users = USERS.lock().unwrap_or_else(|e| e.into_inner());
        match users.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, n)) => *n += 1,
            None => users.push((dir.clone(), 1)),
        }
        ScratchTarget { dir }
    }
}

impl Drop for ScratchTarget {
    /// The last user removes the directory when `CI` is set (to anything but `false` or `0`).
    fn drop(&mut self) {
        let mut users = USERS.lock().unwrap_or_else(|e| e.into_inner());
        let Some(at) = users.iter().position(|(d, _)| *d == self.dir) else {
            return;
        };
        users[at].1 -= 1;
        if users[at].1 > 0 {
            return;
        }
        users.remove(at);
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        if ci {
            // Best effort: a directory that cannot be removed only costs disk.
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
