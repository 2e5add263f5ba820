//! Per-address limits: how many matches one address may create, and how
//! many connections it may open, per minute; how many bytes of request
//! bodies it may have on the way at once. A stranger who floods gets `429`
//! and everyone else is served as before.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Addresses tracked before the full buckets (idle addresses) are dropped.
const PRUNE_AT: usize = 10_000;

/// A token bucket per address: `per_minute` a minute, bursts of as many.
pub struct PerAddress {
    per_minute: u32,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl PerAddress {
    /// `per_minute` 0: no limit.
    pub fn new(per_minute: u32) -> PerAddress {
        PerAddress {
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Its allowance a minute (0: none).
    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    /// Takes one from `ip`'s bucket; false when it is empty.
    pub fn allow(&self, ip: IpAddr) -> bool {
        if self.per_minute == 0 {
            return true;
        }
        let full = f64::from(self.per_minute);
        let rate = full / 60.0;
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= PRUNE_AT {
            buckets.retain(|_, (tokens, at)| *tokens + at.elapsed().as_secs_f64() * rate < full);
        }
        let (tokens, at) = buckets.entry(ip).or_insert((full, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * rate).min(full);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Bytes of bodies one address may have on the way at once.
pub const PER_ADDRESS: usize = 4 * 1024 * 1024;

/// The bytes each address has on the way.
#[derive(Default)]
pub struct Budget(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// Bytes taken from an address's budget, given back on drop.
pub struct Taken(Arc<Mutex<HashMap<IpAddr, usize>>>, IpAddr, usize);

impl Drop for Taken {
    fn drop(&mut self) {
        let mut used = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = used.get_mut(&self.1) {
            *n = n.saturating_sub(self.2);
            if *n == 0 {
                used.remove(&self.1);
            }
        }
    }
}

impl Budget {
    pub fn take(&self, ip: IpAddr, bytes: usize) -> Option<Taken> {
        let mut used = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = used.entry(ip).or_insert(0);
        if *n + bytes > PER_ADDRESS {
            return None;
        }
        *n += bytes;
        Some(Taken(self.0.clone(), ip, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_gets_its_burst_then_waits_and_others_are_apart() {
        let limit = PerAddress::new(3);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        assert!((0..3).all(|_| limit.allow(a)));
        assert!(!limit.allow(a));
        assert!(limit.allow(b));
        assert!(
            (0..100).all(|_| PerAddress::new(0).allow(a)),
            "0 is no limit"
        );
    }
}
