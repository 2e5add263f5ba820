//! A small client for the protocol, for the load tool and the tests:
//! plain HTTP/1.0 requests and WebSocket clients (tokio-tungstenite).

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// An HTTP request; returns the status and the body. HTTP/1.0 keeps the
/// answer unchunked, so reading to the end is all there is to it.
pub async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, String), String> {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .await
        .map_err(|e| e.to_string())?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("bad HTTP answer: {answer}"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad HTTP status line: {head}"))?;
    Ok((status, body.to_string()))
}

/// `http` and parse the body as JSON.
pub async fn http_json(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    let (status, text) = http(addr, method, path, body).await?;
    let value = serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))?;
    Ok((status, value))
}

/// The token in a link such as `/m/{id}?t={token}`.
pub fn token_of(link: &Value) -> Option<String> {
    link.as_str()?.split_once("?t=").map(|(_, t)| t.to_string())
}

/// One WebSocket client.
pub struct Ws {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Ws {
    /// Connects to `/ws/{id}` with `token` (none for a spectator).
    pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Result<Ws, String> {
        Ws::open(addr, id, token, None, &[]).await
    }

    /// [`Ws::connect`] from the local address `from` (any on 127/8 works
    /// on loopback), with extra request `headers` (an `Origin`, say).
    pub async fn open(
        addr: SocketAddr,
        id: &str,
        token: Option<&str>,
        from: Option<std::net::IpAddr>,
        headers: &[(&str, &str)],
    ) -> Result<Ws, String> {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let url = match token {
            Some(t) => format!("ws://{addr}/ws/{id}?t={t}"),
            None => format!("ws://{addr}/ws/{id}"),
        };
        let mut request = url.into_client_request().map_err(|e| e.to_string())?;
        for (name, value) in headers {
            let name =
                tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes())
                    .map_err(|e| e.to_string())?;
            request
                .headers_mut()
                .insert(name, value.parse().map_err(|_| "a bad header value")?);
        }
        let socket = match addr {
            SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
            SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
        }
        .map_err(|e| e.to_string())?;
        if let Some(from) = from {
            socket
                .bind(SocketAddr::new(from, 0))
                .map_err(|e| format!("bind {from}: {e}"))?;
        }
        let stream = socket
            .connect(addr)
            .await
            .map_err(|e| format!("connect {addr}: {e}"))?;
        // Without nodelay a second small frame waits for the delayed ACK.
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (stream, _) = tokio_tungstenite::client_async(request, MaybeTlsStream::Plain(stream))
            .await
            .map_err(|e| format!("WebSocket connect: {e}"))?;
        Ok(Ws { stream })
    }

    /// Reads until the server closes; whether it sent a closing frame.
    pub async fn closed_with_frame(&mut self, limit: Duration) -> Result<bool, String> {
        let closing = async {
            loop {
                match self.stream.next().await {
                    Some(Ok(Message::Close(_))) => return true,
                    None | Some(Err(_)) => return false,
                    Some(Ok(_)) => continue,
                }
            }
        };
        tokio::time::timeout(limit, closing)
            .await
            .map_err(|_| format!("not closed within {limit:?}"))
    }

    pub async fn send(&mut self, msg: &Value) -> Result<(), String> {
        self.send_text(msg.to_string()).await
    }

    pub async fn send_text(&mut self, text: String) -> Result<(), String> {
        self.stream
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| format!("WebSocket send: {e}"))
    }

    pub async fn send_raw(&mut self, msg: Message) -> Result<(), String> {
        self.stream
            .send(msg)
            .await
            .map_err(|e| format!("WebSocket send: {e}"))
    }

    /// The next JSON message; `None` once the server closed the socket.
    pub async fn recv(&mut self) -> Result<Option<Value>, String> {
        loop {
            match self.stream.next().await {
                None | Some(Ok(Message::Close(_))) => return Ok(None),
                Some(Err(e)) => return Err(format!("WebSocket receive: {e}")),
                Some(Ok(Message::Text(text))) => {
                    return serde_json::from_str(&text)
                        .map(Some)
                        .map_err(|e| format!("bad JSON from the server: {e}"));
                }
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The next text message, unparsed; `None` once closed. A timeout is an error.
    pub async fn recv_text(&mut self, limit: Duration) -> Result<Option<String>, String> {
        let next = async {
            loop {
                match self.stream.next().await {
                    None | Some(Ok(Message::Close(_))) => return Ok(None),
                    Some(Err(e)) => return Err(format!("WebSocket receive: {e}")),
                    Some(Ok(Message::Text(text))) => return Ok(Some(text.to_string())),
                    Some(Ok(_)) => continue,
                }
            }
        };
        tokio::time::timeout(limit, next)
            .await
            .map_err(|_| format!("no message within {limit:?}"))?
    }

    /// `recv` with a time limit; a timeout is an error.
    pub async fn recv_within(&mut self, limit: Duration) -> Result<Option<Value>, String> {
        tokio::time::timeout(limit, self.recv())
            .await
            .map_err(|_| format!("no message within {limit:?}"))?
    }

    /// Receives until a message of `kind` arrives; returns it with everything
    /// received before it.
    pub async fn until(
        &mut self,
        kind: &str,
        limit: Duration,
    ) -> Result<(Value, Vec<Value>), String> {
        self.until_any(&[kind], limit).await
    }

    /// Receives until a message of one of `kinds` arrives; returns it with
    /// everything received before it.
    pub async fn until_any(
        &mut self,
        kinds: &[&str],
        limit: Duration,
    ) -> Result<(Value, Vec<Value>), String> {
        let mut before = Vec::new();
        loop {
            match self.recv_within(limit).await? {
                Some(m) if kinds.iter().any(|k| m["type"] == *k) => return Ok((m, before)),
                Some(m) => before.push(m),
                None => return Err(format!("closed while waiting for {kinds:?}: {before:?}")),
            }
        }
    }

    /// Receives until the seats table (of a `state` or a `presence`) shows
    /// `seat` connected or not.
    pub async fn until_seat(
        &mut self,
        seat: &str,
        connected: bool,
        limit: Duration,
    ) -> Result<Value, String> {
        loop {
            let (m, _) = self.until_any(&["state", "presence"], limit).await?;
            if m["seats"][seat]["connected"] == connected {
                return Ok(m);
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }
}
