// Small helpers shared by the pages.

/// Escapes text for HTML.
export function esc(text) {
  return String(text ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/// Fetches JSON; throws an Error carrying the server's `error` text and the
/// HTTP status.
export async function getJson(url, init) {
  const res = await fetch(url, init);
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (!res.ok) {
    const err = new Error(body?.error || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return body;
}

export function postJson(url, value) {
  return getJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });
}

/// "a person", "bot greedy", from a summary's seat.
export function describeSeat(seat) {
  if (!seat) return '?';
  if (seat.kind === 'bot') return `bot ${seat.bot ?? ''}`.trim();
  return seat.connected === false ? 'person, not connected' : 'person';
}

/// Copies text to the clipboard, falling back to a selection copy where the
/// Clipboard API is not offered (plain http on another host).
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/// "3 min ago" style time from a Unix ms time.
export function ago(ms) {
  if (!ms) return '';
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}

/// Shows the game's rules text (markdown) as plain preformatted text.
export function rulesText(md) {
  return esc(md);
}

/// A refusal (`{rule, message, at, expected, suggestion}`) as HTML: the
/// message, the text `sent` with its rest marked from `at` (where it went
/// wrong), what was expected there, a suggestion, and the rule's key last.
export function refusalHtml(msg, sent) {
  let html = esc(msg.message ?? 'refused');
  if (Number.isInteger(msg.at) && typeof sent === 'string' && msg.at >= 0 && msg.at <= sent.length) {
    const chars = Array.from(sent); // `at` counts characters, not UTF-16 units
    const head = chars.slice(0, msg.at).join('');
    const rest = chars.slice(msg.at).join('');
    html += `: <code class="error-at">${esc(head)}<mark>${rest ? esc(rest) : '&nbsp;'}</mark></code>`;
  }
  if (Array.isArray(msg.expected) && msg.expected.length) {
    html += `. Expected ${msg.expected.map((e) => `<code>${esc(e)}</code>`).join(', ')}`;
  }
  if (msg.suggestion) html += `. Did you mean <code>${esc(msg.suggestion)}</code>?`;
  if (msg.rule) html += ` (${esc(msg.rule)})`;
  return html;
}
