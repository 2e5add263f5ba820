// One WebSocket to the server that reconnects by itself. The server sends a
// full `state` after every (re)connection, so nothing needs replaying.

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_MS = 25_000;

/// `onMessage(msg)` gets every parsed server message; `onStatus(status,
/// detail)` gets `connecting`, `open`, `retrying` (detail: ms until the next
/// try) and `closed` (given up: detail says why).
export class Connection {
  constructor(url, { onMessage, onStatus }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    window.addEventListener('online', () => this.retryNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.retryNow();
    });
  }

  open() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.onStatus('connecting');
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (ws !== this.ws) return;
      this.attempt = 0;
      this.onStatus('open');
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), PING_MS);
    });
    ws.addEventListener('message', (e) => {
      if (ws !== this.ws) return;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === 'error' && msg.rule === 'auth') this.stop(msg.message || 'this link was refused');
      // A match called off (its seats never arrived) stays off.
      if (msg.type === 'error' && msg.rule === 'gone') this.stop('the match was called off');
      if (msg.type === 'error' && msg.rule === 'replaced') this.stop('opened in newer pages');
      if (msg.type === 'error' && msg.rule === 'private') this.stop('not open to the audience yet');
      this.onMessage(msg);
    });
    ws.addEventListener('close', () => {
      if (ws !== this.ws) return;
      clearInterval(this.pingTimer);
      this.ws = null;
      if (this.stopped) return;
      const wait = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      this.onStatus('retrying', wait);
      this.retryTimer = setTimeout(() => this.open(), wait);
    });
  }

  /// Sends a message; false when not connected.
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  get connected() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  retryNow() {
    if (!this.stopped && !this.ws && this.retryTimer) this.open();
  }

  /// Closes for good.
  stop(reason) {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    this.onStatus('closed', reason);
  }
}

/// The WebSocket URL for a match, on the page's own host.
export function wsUrl(id, token) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = token ? `?t=${encodeURIComponent(token)}` : '';
  return `${scheme}//${location.host}/ws/${encodeURIComponent(id)}${query}`;
}
