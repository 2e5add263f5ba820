//! A client's outgoing frames. Whoever sends them (the match's task, or the
//! client's reader answering it directly) writes them to the socket on the
//! spot when the socket takes them without waiting, which is almost always;
//! only what must wait goes to a queue that the connection's writer task
//! drains. So an ordinary move costs no task hand-off per recipient.
//!
//! Order is kept: while anything waits in the queue, new frames join it.
//! Every sender that meets a socket not ready wakes the writer, which polls
//! again with its own waker (a sender's poll leaves only a no-op waker
//! behind).

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

use axum::extract::ws::{Message, Utf8Bytes};
use futures_util::Sink;
use tokio::sync::Notify;

/// Frames that may wait for a client's socket. A client further behind is
/// too slow and is disconnected rather than allowed to hold anything up.
pub const OUT_QUEUE: usize = 64;

/// What a client is sent at once: one message, or two that leave in one
/// socket write (a mover's `accepted` and its new `state`).
pub enum Outgoing {
    One(Utf8Bytes),
    Two(Utf8Bytes, Utf8Bytes),
}

impl From<String> for Outgoing {
    fn from(text: String) -> Outgoing {
        Outgoing::One(text.into())
    }
}

impl From<Utf8Bytes> for Outgoing {
    fn from(text: Utf8Bytes) -> Outgoing {
        Outgoing::One(text)
    }
}

/// Somewhere a client's messages go.
pub trait Deliver: Send + Sync {
    /// Sends `out`; false if the client is gone or cannot keep up.
    fn send(&self, out: Outgoing) -> bool;
    /// Takes no more messages; what was sent still goes out, then the
    /// connection closes.
    fn close(&self);
}

/// The frames of one client, over its socket's sending half `S`.
pub struct Outbox<S> {
    state: Mutex<State<S>>,
    /// Wakes the writer task: something waits, or the outbox closed.
    wake: Notify,
}

struct State<S> {
    sink: S,
    /// Frames the socket could not take at once, in order.
    queue: VecDeque<Message>,
    /// No more frames are taken: the client is gone, too slow, or let go.
    closed: bool,
}

/// Why the writer stops.
#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    /// Closed on purpose: what was queued went out.
    Closed,
    /// The socket failed.
    Failed,
}

impl<S: Sink<Message> + Unpin + Send> Outbox<S> {
    pub fn new(sink: S) -> Outbox<S> {
        Outbox {
            state: Mutex::new(State {
                sink,
                queue: VecDeque::new(),
                closed: false,
            }),
            wake: Notify::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State<S>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `frame` (a ping) behind anything waiting.
    pub fn queue(&self, frame: Message) {
        self.lock().queue.push_back(frame);
        self.wake.notify_one();
    }

    /// The writer task's wake-up: something waits, or the outbox closed.
    pub async fn woken(&self) {
        self.wake.notified().await
    }

    /// Writes what waits and flushes it, with the writer's waker `cx`:
    /// `Ready(None)` when all went out and the outbox is still open.
    pub fn poll_drain(&self, cx: &mut Context<'_>) -> Poll<Option<Stop>> {
        let mut state = self.lock();
        let state = &mut *state;
        while !state.queue.is_empty() {
            match Pin::new(&mut state.sink).poll_ready(cx) {
                Poll::Ready(Ok(())) => {}
                Poll::Ready(Err(_)) => return Poll::Ready(Some(Stop::Failed)),
                Poll::Pending => return Poll::Pending,
            }
            let frame = state.queue.pop_front().expect("not empty");
            if Pin::new(&mut state.sink).start_send(frame).is_err() {
                return Poll::Ready(Some(Stop::Failed));
            }
        }
        match Pin::new(&mut state.sink).poll_flush(cx) {
            Poll::Ready(Ok(())) => Poll::Ready(state.closed.then_some(Stop::Closed)),
            Poll::Ready(Err(_)) => Poll::Ready(Some(Stop::Failed)),
            Poll::Pending => Poll::Pending,
        }
    }

    /// Sends the closing frame and flushes it, with the writer's waker.
    pub fn poll_close(&self, cx: &mut Context<'_>) -> Poll<()> {
        let mut state = self.lock();
        match Pin::new(&mut state.sink).poll_close(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(_) => Poll::Ready(()),
        }
    }
}

impl<S: Sink<Message> + Unpin + Send> Deliver for Outbox<S> {
    fn send(&self, out: Outgoing) -> bool {
        let frames = match out {
            Outgoing::One(text) => [Some(Message::Text(text)), None],
            Outgoing::Two(first, second) => {
                [Some(Message::Text(first)), Some(Message::Text(second))]
            }
        };
        let mut state = self.lock();
        if state.closed {
            return false;
        }
        let state = &mut *state;
        let mut cx = Context::from_waker(Waker::noop());
        let mut waits = false;
        for frame in frames.into_iter().flatten() {
            if !state.queue.is_empty() {
                state.queue.push_back(frame);
                continue;
            }
            match Pin::new(&mut state.sink).poll_ready(&mut cx) {
                Poll::Ready(Ok(())) => {
                    if Pin::new(&mut state.sink).start_send(frame).is_err() {
                        state.closed = true;
                    }
                }
                Poll::Ready(Err(_)) => state.closed = true,
                Poll::Pending => state.queue.push_back(frame),
            }
        }
        if !state.closed && state.queue.is_empty() {
            match Pin::new(&mut state.sink).poll_flush(&mut cx) {
                Poll::Ready(Ok(())) => {}
                Poll::Ready(Err(_)) => state.closed = true,
                Poll::Pending => waits = true,
            }
        }
        // A client this far behind is not reading: it is let go.
        if state.queue.len() > OUT_QUEUE {
            state.closed = true;
        }
        let sent = !state.closed;
        if waits || !state.queue.is_empty() || state.closed {
            self.wake.notify_one();
        }
        sent
    }

    fn close(&self) {
        self.lock().closed = true;
        self.wake.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    /// A socket that takes frames only while `open`.
    #[derive(Clone, Default)]
    struct Socket(Arc<Mutex<Seen>>);

    #[derive(Default)]
    struct Seen {
        open: bool,
        /// Frames taken, and how many of them were flushed.
        taken: Vec<String>,
        flushed: usize,
    }

    impl Socket {
        fn set_open(&self, open: bool) {
            self.0.lock().unwrap().open = open;
        }

        /// The frames flushed so far.
        fn flushed(&self) -> Vec<String> {
            let seen = self.0.lock().unwrap();
            seen.taken[..seen.flushed].to_vec()
        }
    }

    impl Sink<Message> for Socket {
        type Error = ();

        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), ()>> {
            match self.0.lock().unwrap().open {
                true => Poll::Ready(Ok(())),
                false => Poll::Pending,
            }
        }

        fn start_send(self: Pin<&mut Self>, frame: Message) -> Result<(), ()> {
            let text = match frame {
                Message::Text(text) => text.to_string(),
                other => format!("{other:?}"),
            };
            self.0.lock().unwrap().taken.push(text);
            Ok(())
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), ()>> {
            let mut seen = self.0.lock().unwrap();
            if !seen.open {
                return Poll::Pending;
            }
            seen.flushed = seen.taken.len();
            Poll::Ready(Ok(()))
        }

        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), ()>> {
            Poll::Ready(Ok(()))
        }
    }

    fn one(text: &str) -> Outgoing {
        Outgoing::from(text.to_string())
    }

    fn drain(outbox: &Outbox<Socket>) -> Poll<Option<Stop>> {
        outbox.poll_drain(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn a_ready_socket_takes_frames_at_once_and_in_order() {
        let socket = Socket::default();
        socket.set_open(true);
        let outbox = Outbox::new(socket.clone());
        assert!(outbox.send(one("a")));
        let two = Outgoing::Two("b".to_string().into(), "c".to_string().into());
        assert!(outbox.send(two));
        assert_eq!(socket.flushed(), ["a", "b", "c"]);
        assert_eq!(drain(&outbox), Poll::Ready(None));
    }

    #[test]
    fn frames_wait_in_order_while_the_socket_is_not_ready() {
        let socket = Socket::default();
        let outbox = Outbox::new(socket.clone());
        assert!(outbox.send(one("a")));
        socket.set_open(true);
        // Once something waits, later frames wait behind it.
        assert!(outbox.send(one("b")));
        assert_eq!(socket.flushed(), Vec::<String>::new());
        assert_eq!(drain(&outbox), Poll::Ready(None));
        assert_eq!(socket.flushed(), ["a", "b"]);
        assert!(outbox.send(one("c")));
        assert_eq!(socket.flushed(), ["a", "b", "c"]);
    }

    #[test]
    fn a_client_too_far_behind_is_let_go_and_a_closed_outbox_drains_first() {
        let socket = Socket::default();
        let outbox = Outbox::new(socket.clone());
        for n in 0..OUT_QUEUE {
            assert!(outbox.send(one(&n.to_string())), "frame {n}");
        }
        assert!(!outbox.send(one("late")), "past the queue's bound");
        assert!(!outbox.send(one("later")), "closed");
        socket.set_open(true);
        // What was queued before the close still goes out, then it stops.
        assert_eq!(drain(&outbox), Poll::Ready(Some(Stop::Closed)));
        assert_eq!(socket.flushed().len(), OUT_QUEUE + 1);
        assert_eq!(socket.flushed()[0], "0");
    }
}
