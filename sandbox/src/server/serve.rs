//! [`Serving`]: one axum server task with graceful shutdown, shared by the sandboxes.

use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// An axum router served on a bound listener in a task, until [`Serving::stop`].
pub(crate) struct Serving {
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl Serving {
    /// Serves `router` on `listener`; `name` labels the log line if the server fails.
    pub(crate) fn spawn(
        listener: TcpListener,
        router: axum::Router,
        name: &'static str,
    ) -> Serving {
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            let serve = axum::serve(listener, router).with_graceful_shutdown(async move {
                let _ = stopped.await;
            });
            if let Err(e) = serve.await {
                tracing::warn!(error = %e, "{name} sandbox server stopped");
            }
        });
        Serving {
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Stops accepting and lets open requests finish; does not wait. Idempotent.
    pub(crate) fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// [`Self::stop`], then waits for the server task to end, at most `limit`.
    pub(crate) async fn stop_and_wait(&mut self, limit: Duration) {
        self.stop();
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(limit, task).await;
        }
    }
}
