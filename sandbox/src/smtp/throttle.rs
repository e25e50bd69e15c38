//! AUTH failures counted per client address over a time window, so password guessing is slowed
//! across connections too; the table itself is bounded in entries.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Most addresses remembered; past it expired entries go first, then the oldest.
const MAX_ADDRESSES: usize = 4096;

/// Failures per address within a window.
#[derive(Debug)]
pub(super) struct AuthThrottle {
    limit: u32,
    window: Duration,
    table: Mutex<HashMap<IpAddr, (u32, Instant)>>,
}

impl AuthThrottle {
    pub(super) fn new(limit: u32, window: Duration) -> AuthThrottle {
        AuthThrottle {
            limit,
            window,
            table: Mutex::new(HashMap::new()),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, (u32, Instant)>> {
        // A panic while holding the lock leaves only counters behind: keep using them.
        self.table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// True when `ip` has had `limit` failures within the window.
    pub(super) fn locked(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        self.table()
            .get(&ip)
            .is_some_and(|(failures, since)| *failures >= self.limit && now - *since < self.window)
    }

    /// Counts one failure of `ip`; true when it is now locked.
    pub(super) fn fail(&self, ip: IpAddr) -> bool {
        let now = Instant::now();
        let mut table = self.table();
        if !table.contains_key(&ip) && table.len() >= MAX_ADDRESSES {
            table.retain(|_, (_, since)| now - *since < self.window);
            if table.len() >= MAX_ADDRESSES {
                let oldest = table
                    .iter()
                    .min_by_key(|(_, (_, since))| *since)
                    .map(|(ip, _)| *ip);
                if let Some(oldest) = oldest {
                    table.remove(&oldest);
                }
            }
        }
        let entry = table.entry(ip).or_insert((0, now));
        if now - entry.1 >= self.window {
            *entry = (0, now);
        }
        entry.0 = entry.0.saturating_add(1);
        entry.0 >= self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_locked_after_its_limit_within_the_window() {
        let throttle = AuthThrottle::new(3, Duration::from_secs(60));
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        assert!(!throttle.fail(a));
        assert!(!throttle.fail(a));
        assert!(!throttle.locked(a));
        assert!(throttle.fail(a));
        assert!(throttle.locked(a));
        assert!(!throttle.locked(b));
    }

    #[test]
    fn failures_expire_with_the_window() {
        let throttle = AuthThrottle::new(1, Duration::from_millis(20));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        assert!(throttle.fail(a));
        std::thread::sleep(Duration::from_millis(30));
        assert!(!throttle.locked(a));
    }

    #[test]
    fn the_table_stays_bounded() {
        let throttle = AuthThrottle::new(5, Duration::from_secs(60));
        for i in 0..(MAX_ADDRESSES as u32 + 100) {
            throttle.fail(IpAddr::from(i.to_be_bytes()));
        }
        assert_eq!(throttle.table().len(), MAX_ADDRESSES);
    }
}
