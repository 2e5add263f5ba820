//! What a database behind the store does, and how a failed migration is
//! told.

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio::sync::oneshot;

use super::error::StoreError;
use super::types::{FinishedSummary, Loaded, Op};

/// What a database behind the store does.
pub trait Backend: Send + Sync {
    /// Writes `op` for the owner of its match in `epoch` (refused as
    /// [`StoreError::Moved`] once the epoch moved on; a store only one node
    /// uses has epoch 0 for good); resolves once it is committed and durable.
    fn write(&self, op: Op, epoch: u64) -> BoxFuture<'_, Result<(), StoreError>>;
    /// One match with its actions.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<Loaded>, StoreError>>;
    /// The latest finished matches, newest first.
    fn finished(
        &self,
        limit: usize,
        offset: usize,
    ) -> BoxFuture<'_, Result<Vec<FinishedSummary>, StoreError>>;
    /// Every unfinished match, to resume.
    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<Loaded>, StoreError>>;
}

/// How a writer task answers a write.
pub type Ack = oneshot::Sender<Result<(), StoreError>>;

/// Hands a write to a writer task with `send` (false: the task is gone);
/// resolves with the task's answer on the [`Ack`].
pub fn to_writer(send: impl FnOnce(Ack) -> bool) -> BoxFuture<'static, Result<(), StoreError>> {
    let (ack, done) = oneshot::channel();
    let sent = send(ack);
    async move {
        let stopped = || StoreError::Failed("the writer has stopped".into());
        if !sent {
            return Err(stopped());
        }
        done.await.map_err(|_| stopped())?
    }
    .boxed()
}

/// A failed migration in words: a schema from a newer umpire says so.
pub fn migration_error(e: &refinery::Error) -> String {
    match e.kind() {
        refinery::error::Kind::MissingVersion(m) => format!(
            "its schema has migration {} ({}), which this umpire does not know: \
             a newer umpire made it; run that version, or a newer one",
            m.version(),
            m.name()
        ),
        refinery::error::Kind::DivergentVersion(applied, ours) => format!(
            "its migration {} ({}) differs from this umpire's ({}): it was made by another build",
            applied.version(),
            applied.name(),
            ours.name()
        ),
        // The deepest cause says what went wrong (the database's message).
        _ => {
            let mut cause: &dyn std::error::Error = e;
            while let Some(next) = cause.source() {
                cause = next;
            }
            format!("{e}: {cause}")
        }
    }
}
