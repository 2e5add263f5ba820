//! Per-address limits: how many matches one address may create, and how
//! many connections it may open, per minute. A stranger who floods gets
//! `429` and everyone else is served as before.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
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
