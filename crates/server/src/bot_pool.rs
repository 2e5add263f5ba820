//! Where bots think: a few threads of their own, run at a lower priority
//! than the server's, so that however many bots search at once, people's
//! actions are answered first. A bot waiting for a thread spends its own
//! time budget waiting (its deadline is fixed when its seat must act), so a
//! crowd of bots makes bots play faster, never late.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

type Job = Box<dyn FnOnce() + Send>;

/// The bots' threads; cheap to clone.
#[derive(Clone)]
pub struct BotPool {
    jobs: mpsc::Sender<Job>,
}

/// The niceness of the bots' threads (0 is the server's; 19 the lowest).
const NICE: i32 = 10;

impl BotPool {
    /// `threads` threads (at least one). They end once every handle is dropped.
    pub fn new(threads: usize) -> BotPool {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..threads.max(1) {
            let queue = queue.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("umpire-bot-{i}"))
                .spawn(move || {
                    lower_priority();
                    loop {
                        // The lock is held only to take the next job.
                        let job = match queue.lock() {
                            Ok(queue) => queue.recv(),
                            Err(_) => return,
                        };
                        match job {
                            // A panic loses that job's answer, not the thread.
                            Ok(job) => {
                                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                            }
                            Err(_) => return,
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::error!("cannot start a bot thread: {e}");
            }
        }
        BotPool { jobs }
    }

    /// Runs `work` on a bot thread; its result comes back on the receiver
    /// (which reports an error if the work panicked).
    pub fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> oneshot::Receiver<T> {
        let (done, result) = oneshot::channel();
        let job: Job = Box::new(move || {
            let _ = done.send(work());
        });
        if self.jobs.send(job).is_err() {
            tracing::error!("the bot threads are gone");
        }
        result
    }
}

/// Lowers the calling thread's priority (Linux gives each thread its own
/// niceness); elsewhere, or if refused, the thread keeps the server's.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority has no memory effects; `0` names this thread.
        let r = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, NICE) };
        if r != 0 {
            tracing::debug!(
                "bot thread keeps its priority: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_a_niced_bot_thread_and_answers() {
        let pool = BotPool::new(2);
        let (name, nice) = pool
            .run(|| {
                let name = std::thread::current().name().map(str::to_string);
                #[cfg(target_os = "linux")]
                // SAFETY: as above; reads this thread's niceness.
                let nice = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
                #[cfg(not(target_os = "linux"))]
                let nice = NICE;
                (name, nice)
            })
            .await
            .expect("an answer");
        assert!(name.is_some_and(|n| n.starts_with("umpire-bot-")));
        // (At least: a server started niced stays as nice.)
        assert!(nice >= NICE, "niceness {nice}");
        // A panic loses only that job's answer; the threads go on.
        assert!(pool.run(|| panic!("a bot's bug")).await.is_err());
        assert!(pool.run(|| 1).await.is_ok());
    }
}
