//! Threads for work too heavy for the async workers: bots thinking,
//! judging a costly action, checks, replays. Work nobody's move waits for
//! (bots, checks, replays) runs at a lower priority than the server's, so
//! however much of it waits, people's actions are answered first. Two
//! queues: work marked [`Priority::First`] (a person waits for it) is taken
//! before the rest.
//!
//! A bot waiting for a thread spends its own time budget waiting (its
//! deadline is fixed when its seat must act), so a crowd of bots makes bots
//! play faster, never late.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex};

use tokio::sync::oneshot;

type Job = Box<dyn FnOnce() + Send>;

/// Which queue a job joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// A person is waiting for it.
    First,
    /// Everything else: bots between bots, checks, replays.
    Later,
}

#[derive(Default)]
struct Queues {
    first: VecDeque<Job>,
    later: VecDeque<Job>,
    closed: bool,
}

#[derive(Default)]
struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next job, first queue first; `None` once the pool is closed.
    fn next(&self) -> Option<Job> {
        let mut q = self.lock();
        loop {
            if let Some(job) = q.first.pop_front().or_else(|| q.later.pop_front()) {
                return Some(job);
            }
            if q.closed {
                return None;
            }
            q = self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Closes the queues once the last handle is dropped: the threads end.
struct Owner(Arc<Shared>);

impl Drop for Owner {
    fn drop(&mut self) {
        self.0.lock().closed = true;
        self.0.ready.notify_all();
    }
}

/// A pool of threads; cheap to clone.
#[derive(Clone)]
pub struct Pool(Arc<Owner>);

/// The niceness of a background pool's threads (0 is the server's; 19 the
/// lowest).
pub const NICE: i32 = 10;

/// How far below the server's own priority a pool's threads run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Below {
    /// Not: at the server's priority.
    Not,
    /// At niceness [`NICE`]: background work someone waits for (checks,
    /// replays), which must still be done in time on a busy machine.
    Nice,
    /// At niceness [`NICE`] under Linux's idle policy too, run only when
    /// no thread of normal policy is ready: the bots, whose late answer
    /// falls back to a random move (niceness alone let busy bots delay
    /// people's moves by tens of milliseconds).
    Idle,
}

impl Pool {
    /// `threads` threads (at least one) named `name-N`, running `below`
    /// the server's own priority.
    pub fn new(name: &str, threads: usize, below: Below) -> Pool {
        let shared = Arc::new(Shared::default());
        for i in 0..threads.max(1) {
            let shared = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-{i}"))
                .spawn(move || {
                    if below != Below::Not {
                        lower_priority(below);
                    }
                    while let Some(job) = shared.next() {
                        // A panic loses that job's answer, not the thread.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                    }
                });
            if let Err(e) = spawned {
                tracing::error!("cannot start a {name} thread: {e}");
            }
        }
        Pool(Arc::new(Owner(shared)))
    }

    /// Runs `work` on one of the threads; its result comes back on the
    /// receiver (which reports an error if the work panicked).
    pub fn run<T: Send + 'static>(
        &self,
        priority: Priority,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> oneshot::Receiver<T> {
        let (done, result) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = done.send(work());
        });
        let shared = &self.0.0;
        {
            let mut q = shared.lock();
            match priority {
                Priority::First => q.first.push_back(job),
                Priority::Later => q.later.push_back(job),
            }
        }
        shared.ready.notify_one();
        result
    }
}

/// Lowers the calling thread's priority as `below` says (Linux gives each
/// thread its own niceness and policy, and threads it starts inherit
/// them); elsewhere, or if refused, the thread keeps the server's.
fn lower_priority(below: Below) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority has no memory effects; `0` names this thread.
        let mut r = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, NICE) };
        if below == Below::Idle {
            let idle = libc::sched_param { sched_priority: 0 };
            // SAFETY: as above; `idle` outlives the call that reads it.
            r |= unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &idle) };
        }
        if r != 0 {
            tracing::debug!(
                "pool thread keeps its priority: {}",
                std::io::Error::last_os_error()
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = below;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_a_niced_idle_thread_and_answers() {
        let pool = Pool::new("umpire-bot", 2, Below::Idle);
        let (name, nice, idle) = pool
            .run(Priority::Later, || {
                let name = std::thread::current().name().map(str::to_string);
                // A thread the job starts (the expert bot's) is as low.
                std::thread::scope(|s| s.spawn(|| (name, niceness(), idle())).join())
                    .expect("the job's own thread")
            })
            .await
            .expect("an answer");
        assert!(name.is_some_and(|n| n.starts_with("umpire-bot-")));
        // (At least: a server started niced stays as nice.)
        assert!(nice >= NICE, "niceness {nice}");
        assert!(idle, "under the idle policy");
        // A panic loses only that job's answer; the threads go on.
        assert!(
            pool.run(Priority::Later, || panic!("a bot's bug"))
                .await
                .is_err()
        );
        assert!(pool.run(Priority::Later, || 1).await.is_ok());
    }

    /// This thread's niceness.
    fn niceness() -> i32 {
        #[cfg(target_os = "linux")]
        // SAFETY: no memory effects; `0` names this thread.
        return unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        #[cfg(not(target_os = "linux"))]
        NICE
    }

    /// Whether this thread runs under Linux's idle policy.
    fn idle() -> bool {
        #[cfg(target_os = "linux")]
        // SAFETY: no memory effects; `0` names this thread.
        return unsafe { libc::sched_getscheduler(0) } == libc::SCHED_IDLE;
        #[cfg(not(target_os = "linux"))]
        true
    }

    #[tokio::test]
    async fn first_work_overtakes_what_waits() {
        let pool = Pool::new("umpire-test", 1, Below::Nice);
        let order = Arc::new(Mutex::new(Vec::new()));
        // The one thread is busy until `go` is sent.
        let (go, wait) = std::sync::mpsc::channel::<()>();
        let busy = pool.run(Priority::Later, move || wait.recv().is_ok());
        let mut answers = Vec::new();
        for (i, priority) in [Priority::Later, Priority::Later, Priority::First]
            .into_iter()
            .enumerate()
        {
            let order = order.clone();
            answers.push(pool.run(priority, move || order.lock().unwrap().push(i)));
        }
        go.send(()).unwrap();
        assert!(busy.await.unwrap());
        for a in answers {
            a.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), vec![2, 0, 1]);
    }
}
