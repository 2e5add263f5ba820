//! Criterion's time as this thread's CPU time instead of the wall clock: on
//! a machine other work shares, a benchmark is charged only for the time it
//! ran, not for the time it waited its turn.

use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};

/// CPU time of the measuring thread (`CLOCK_THREAD_CPUTIME_ID`).
pub struct ThreadCpu;

fn now() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // Cannot fail for this clock on Linux; a zero reads as no time passed.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

impl Measurement for ThreadCpu {
    type Intermediate = Duration;
    type Value = Duration;

    fn start(&self) -> Duration {
        now()
    }

    fn end(&self, start: Duration) -> Duration {
        now().saturating_sub(start)
    }

    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        WallTime.formatter()
    }
}
