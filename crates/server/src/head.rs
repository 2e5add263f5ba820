//! A connection's first request head is read and checked here before hyper
//! sees it, so that a request hyper would refuse with a bare status line (a
//! malformed request line, a head too long) gets this server's JSON error
//! and security headers instead. (Later requests on a kept-alive
//! connection are hyper's to refuse.)

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

/// A head longer than this is refused (`431`).
pub const MAX_HEAD: usize = 64 * 1024;
/// Header lines at most.
const MAX_HEADERS: usize = 100;

/// Why the first head is not handed on.
pub enum Refused {
    /// Answer with this status and words, then close.
    Answer(u16, &'static str),
    /// The client went away or sent nothing: just close.
    Gone,
}

/// Reads from `stream` until its first request head is complete; returns
/// every byte read, to be read again ([`Prefixed`]).
pub async fn first<S: AsyncRead + Unpin>(stream: &mut S) -> Result<Vec<u8>, Refused> {
    let mut buf = Vec::with_capacity(1024);
    loop {
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        match httparse::Request::new(&mut headers).parse(&buf) {
            Ok(httparse::Status::Complete(_)) => return Ok(buf),
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => {
                return Err(Refused::Answer(
                    431,
                    "the request has too many header lines",
                ));
            }
            Err(_) => return Err(Refused::Answer(400, "the request is not well-formed HTTP")),
        }
        if buf.len() >= MAX_HEAD {
            return Err(Refused::Answer(431, "the request's head is too long"));
        }
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.map_err(|_| Refused::Gone)?;
        if n == 0 {
            return Err(Refused::Gone);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// Writes the refusal as an HTTP answer with a JSON body and the security
/// headers, and closes.
pub async fn refuse<S: AsyncWrite + Unpin>(stream: &mut S, status: u16, words: &str) {
    let body = serde_json::json!({ "error": words }).to_string();
    let mut headers = axum::http::HeaderMap::new();
    crate::reply::security_headers(&mut headers);
    let reason = axum::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    let mut answer = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (name, value) in &headers {
        answer.push_str(&format!(
            "{name}: {}\r\n",
            value.to_str().unwrap_or_default()
        ));
    }
    answer.push_str("\r\n");
    answer.push_str(&body);
    let _ = stream.write_all(answer.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// A stream whose first bytes are ones already read from it.
pub struct Prefixed<S> {
    read: Vec<u8>,
    at: usize,
    inner: S,
}

impl<S> Prefixed<S> {
    pub fn new(read: Vec<u8>, inner: S) -> Prefixed<S> {
        Prefixed { read, at: 0, inner }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Prefixed<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.at < self.read.len() {
            let n = (self.read.len() - self.at).min(buf.remaining());
            let at = self.at;
            buf.put_slice(&self.read[at..at + n]);
            self.at += n;
            if self.at == self.read.len() {
                self.read = Vec::new();
                self.at = 0;
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Prefixed<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_good_head_is_read_again_and_a_bad_one_refused() {
        let sent = b"GET / HTTP/1.1\r\nHost: x\r\n\r\nrest".to_vec();
        let mut stream = &sent[..];
        let read = first(&mut stream).await.ok().expect("a head");
        let mut again = Vec::new();
        Prefixed::new(read, stream)
            .read_to_end(&mut again)
            .await
            .unwrap();
        assert_eq!(again, sent);
        let mut bad = &b"NOT HTTP AT ALL\r\n\r\n"[..];
        assert!(matches!(
            first(&mut bad).await,
            Err(Refused::Answer(400, _))
        ));
        let long = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD));
        let mut long = long.as_bytes();
        assert!(matches!(
            first(&mut long).await,
            Err(Refused::Answer(431, _))
        ));
        let mut nothing = &b""[..];
        assert!(matches!(first(&mut nothing).await, Err(Refused::Gone)));
    }
}
