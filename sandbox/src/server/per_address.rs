//! A cap on the connections one client address holds at once, below a listener's own cap, so
//! one client (one address) cannot take every slot: a quarter of the listener's connections
//! stays for other addresses ([`per_address_cap`]). Shared by the HTTP listeners and the SMTP
//! relay; the excess is answered like the listener's own excess (HTTP 503, SMTP 421) and
//! logged.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// The connections one address may hold on a listener capped at `max`: three quarters of it
/// (all of it below 4, where there is no quarter to keep).
pub fn per_address_cap(max: usize) -> usize {
    (max - max / 4).max(1)
}

/// Open connections per client address.
#[derive(Debug)]
pub(crate) struct PerAddress {
    cap: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection counted against its address until dropped.
#[derive(Debug)]
pub(crate) struct AddressSlot {
    owner: Arc<PerAddress>,
    ip: IpAddr,
}

impl PerAddress {
    /// A counter for a listener capped at `max` connections.
    pub(crate) fn for_listener(max: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            cap: per_address_cap(max),
            open: Mutex::new(HashMap::new()),
        })
    }

    /// The cap per address.
    pub(crate) fn cap(&self) -> usize {
        self.cap
    }

    /// Counts one more connection from `ip`, or `None` when it already holds the cap.
    pub(crate) fn take(self: &Arc<Self>, ip: IpAddr) -> Option<AddressSlot> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(ip).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            owner: self.clone(),
            ip,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self
            .owner
            .open
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.ip) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_address_holds_three_quarters_and_gives_slots_back() {
        assert_eq!(per_address_cap(256), 192);
        assert_eq!(per_address_cap(3), 3);
        assert_eq!(per_address_cap(1), 1);
        let counter = PerAddress::for_listener(8);
        let a: IpAddr = "127.0.0.2".parse().unwrap();
        let slots: Vec<_> = (0..6).map(|_| counter.take(a).unwrap()).collect();
        assert!(counter.take(a).is_none());
        assert!(counter.take("127.0.0.1".parse().unwrap()).is_some());
        drop(slots);
        assert!(counter.take(a).is_some());
        assert!(counter.open.lock().unwrap().len() <= 1);
    }
}
