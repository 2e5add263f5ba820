//! Where the store is, as `--store` gives it.

use std::path::PathBuf;
use std::str::FromStr;

use super::error::StoreError;
use super::postgres;

/// Where the store is: `sqlite:PATH` (or a plain path), or a PostgreSQL
/// URL (`postgres://USER:PASSWORD@HOST:PORT/DB`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    Sqlite(PathBuf),
    Postgres(String),
}

impl FromStr for Place {
    type Err = String;

    fn from_str(text: &str) -> Result<Place, String> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            return Ok(Place::Postgres(text.to_string()));
        }
        let path = text.strip_prefix("sqlite:").unwrap_or(text);
        if path.is_empty() || path.contains("://") {
            return Err(format!(
                "`{text}` is not a store: give sqlite:PATH, a file path, or postgres://USER@HOST/DB"
            ));
        }
        Ok(Place::Sqlite(PathBuf::from(path)))
    }
}

impl std::fmt::Display for Place {
    /// The place without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Sqlite(path) => write!(f, "sqlite:{}", path.display()),
            Place::Postgres(url) => f.write_str(&postgres::without_password(url)),
        }
    }
}

/// A PostgreSQL place in a schema of its own, named after `key`, in the
/// database at `base` ([`postgres::scratch_schema`]).
pub async fn scratch_schema(base: &str, key: &std::path::Path) -> Result<Place, StoreError> {
    postgres::scratch_schema(base, &key.to_string_lossy())
        .await
        .map(Place::Postgres)
}

/// A plain connection to the PostgreSQL database at `url`, for tests that
/// reach past the store ([`postgres::connect_url`]).
pub async fn connect_postgres(url: &str) -> Result<tokio_postgres::Client, StoreError> {
    postgres::connect_url(url).await
}
