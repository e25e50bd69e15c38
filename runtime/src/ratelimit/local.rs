//! The in-process limiter: a sliding-window log of finished attempts kept in this process
//! ([`Window`]), and [`LocalLimiter`], the default [`Limiter`] that uses it.

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

// tokio's clock, so tests can run the limiter on paused (virtual) time.
use tokio::time::Instant;

use super::{BoxFuture, LimitScope, Limiter, Permit, Refusal};

/// Longest log kept; larger limits are scaled down (same rate, shorter window).
pub(crate) const MAX_SLOTS: u32 = 4096;

/// The default [`Limiter`]: every client keeps its own window in this process. Clones of one
/// client share it; separate processes (or separately built clients) do not.
#[derive(Debug, Default, Clone, Copy)]
#[non_exhaustive]
pub struct LocalLimiter;

impl Limiter for LocalLimiter {
    fn acquire<'a>(
        &'a self,
        scope: &'a LimitScope,
        deadline: Option<std::time::Instant>,
    ) -> BoxFuture<'a, Result<Permit<'a>, Refusal>> {
        Box::pin(async move { scope.acquire_local(deadline).await.map_err(Refusal::Wait) })
    }

    fn pause(&self, scope: &LimitScope, pause: Duration) {
        scope.pause_local(pause);
    }
}

/// A bucket of `slots` tokens where each spent token comes back exactly one window after the
/// call that spent it has finished (a sliding-window log). Unlike a bucket that refills at a
/// steady rate, this never lets more than `slots` calls into any window, even right after an
/// idle spell, while still allowing a burst of `slots` at once.
///
/// The window is counted from when the attempt *finished* (answer read, or failed), not from
/// when its slot was granted: the server stamps a request somewhere between the two, and
/// counting from the grant let a request that waited longer on its way (a new connection, a
/// busy proxy) be counted by the server in the same window as the one that took its slot a
/// window later — one request over the limit, a 429 at the window's edge. Counting from the
/// finish is the latest time the server can have seen it, so no window the server can draw
/// holds more than `slots` (at the price of one round trip per window of throughput).
#[derive(Debug)]
pub(crate) struct Window {
    pub(crate) slots: usize,
    pub(crate) window: Duration,
    state: Mutex<State>,
    /// Wakes callers waiting for an in-flight call to finish.
    released: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct State {
    /// When the finished calls of the current window finished, oldest first.
    sent: VecDeque<Instant>,
    /// Calls granted a slot that have not finished yet.
    in_flight: usize,
    /// The server asked us to hold off until then.
    paused_until: Option<Instant>,
}

impl Window {
    /// A window of `requests` per `per`, scaled down to at most [`MAX_SLOTS`] slots.
    pub(crate) fn new(requests: u32, per: Duration) -> Window {
        let requests = requests.max(1);
        let scale = requests.div_ceil(MAX_SLOTS);
        Window {
            slots: (requests / scale) as usize,
            window: per / scale,
            state: Mutex::new(State::default()),
            released: tokio::sync::Notify::new(),
        }
    }

    /// When the server's pause ends, if one is in force.
    pub(crate) fn paused_for(&self) -> Option<Duration> {
        let now = Instant::now();
        self.lock()
            .paused_until
            .filter(|&until| until > now)
            .map(|until| until - now)
    }

    /// A slot when one is free now; `None` when the caller must wait ([`Window::acquire`]).
    pub(crate) fn try_acquire(&self) -> Option<Permit<'_>> {
        self.try_acquire_at(Instant::now())
    }

    /// [`Window::try_acquire`] with the clock already read.
    pub(crate) fn try_acquire_at(&self, now: Instant) -> Option<Permit<'_>> {
        self.look(now).is_none().then(|| Permit::local(self))
    }

    /// Waits for a slot. `Err(wait)` when the slot would come after `deadline`. The slot is
    /// held until the returned [`Permit`] is released or dropped, when the attempt has
    /// finished; its window starts then.
    pub(crate) async fn acquire(
        &self,
        deadline: Option<std::time::Instant>,
    ) -> Result<Permit<'_>, Duration> {
        let deadline = deadline.map(Instant::from_std);
        // Most calls find a slot free: no waiter registration (two more locks) for them.
        if let Some(permit) = self.try_acquire() {
            return Ok(permit);
        }
        loop {
            // Registered before looking, so a release between the look and the wait is seen.
            let released = self.released.notified();
            tokio::pin!(released);
            released.as_mut().enable();
            let now = Instant::now();
            let Some((ready_at, all_in_flight)) = self.look(now) else {
                return Ok(Permit::local(self));
            };
            if deadline.is_some_and(|d| ready_at > d) {
                return Err(ready_at - now);
            }
            tracing::trace!(
                wait_ms = u64::try_from((ready_at - now).as_millis()).unwrap_or(u64::MAX),
                "rate limiter: waiting for a slot"
            );
            if all_in_flight {
                // Look again when a call finishes (its slot's return time is known then).
                released.await;
            } else {
                tokio::time::sleep_until(ready_at).await;
            }
        }
    }

    /// Takes a slot when one is free at `now` (`None`); else when one may come back, and
    /// whether every slot is held by a running call (it comes back a window after that ends).
    fn look(&self, now: Instant) -> Option<(Instant, bool)> {
        let mut state = self.lock();
        let mut ready_at = now;
        match state.paused_until {
            Some(until) if until > now => ready_at = until,
            Some(_) => state.paused_until = None,
            None => {}
        }
        while state.sent.front().is_some_and(|&t| t + self.window <= now) {
            state.sent.pop_front();
        }
        let mut all_in_flight = false;
        if state.sent.len() + state.in_flight >= self.slots {
            match state.sent.front() {
                Some(&oldest) => ready_at = ready_at.max(oldest + self.window),
                None => {
                    all_in_flight = true;
                    ready_at = ready_at.max(now + self.window);
                }
            }
        }
        if ready_at <= now {
            state.in_flight += 1;
            return None;
        }
        Some((ready_at, all_in_flight))
    }

    /// Holds every caller off for `pause` (or longer, if a longer pause is in force).
    pub(crate) fn pause(&self, pause: Duration) {
        let until = Instant::now() + pause;
        let mut state = self.lock();
        state.paused_until = Some(state.paused_until.map_or(until, |p| p.max(until)));
    }

    /// Counts an attempt a shared limiter granted as in flight here too (whether or not this
    /// window has a slot free), so that if the shared limiter becomes unreachable the window
    /// already holds what this process sent: failing open never lets one process past the
    /// limit it would keep alone. [`Window::finish`] ends it like any other.
    pub(crate) fn hold_granted_elsewhere(&self) {
        self.lock().in_flight += 1;
    }

    /// Marks a granted slot's attempt finished: its window starts now.
    pub(crate) fn finish(&self) {
        {
            let mut state = self.lock();
            state.in_flight = state.in_flight.saturating_sub(1);
            state.sent.push_back(Instant::now());
        }
        self.released.notify_waiters();
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent even if a holder panicked: every update is one step.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
