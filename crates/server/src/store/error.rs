//! Why the store could not do what it was asked.

/// A store failure. Only [`StoreError::Unavailable`] is worth trying again
/// as it is; the others will fail the same way.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The database cannot be reached now (down, restarting, the
    /// connection lost). Nothing is acknowledged that was not written;
    /// whether an unacknowledged write landed is known once it is back.
    #[error("store: the database is unavailable ({0}); try again")]
    Unavailable(String),
    /// The write contradicts what is stored (an entry out of order, a
    /// match no longer played): nothing of it was written.
    #[error("store: {0}")]
    Refused(String),
    /// The match is run by another node now (it took the match over, and
    /// the epoch moved on): this node may no longer write to it.
    #[error("store: {0}")]
    Moved(String),
    /// The database, or what it holds, cannot be used: a schema from a
    /// newer umpire, a value that does not read back, a failed migration.
    #[error("store: {0}")]
    Failed(String),
}

impl StoreError {
    /// Whether the same request may succeed later as it is.
    pub fn is_retryable(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }
}

impl From<StoreError> for String {
    fn from(e: StoreError) -> String {
        e.to_string()
    }
}
