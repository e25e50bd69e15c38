//! [`Background`]: the tasks a sandbox runs besides answering requests (status lifecycles,
//! webhook deliveries, SMTP sessions), all stopped together at shutdown.

use std::future::Future;
use std::sync::{Arc, Mutex};

use tokio::task::JoinSet;

/// A set of background tasks, aborted together by [`Background::shutdown`] (or when the last
/// clone is dropped).
#[derive(Debug, Clone, Default)]
pub struct Background {
    tasks: Arc<Mutex<JoinSet<()>>>,
}

impl Background {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `task` until it ends or the set shuts down.
    pub fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        let mut tasks = self
            .tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Reap finished tasks so a long-running sandbox does not accumulate them.
        while tasks.try_join_next().is_some() {}
        tasks.spawn(task);
    }

    /// Aborts every task.
    pub fn shutdown(&self) {
        self.tasks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .abort_all();
    }
}
