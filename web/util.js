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

/// `text` with the seat names P1 and P2 replaced by `label(seat)` (the
/// colour each plays), outside `code` spans: an action's notation keeps
/// its own words. The game crates speak of P1 and P2; the pages of colours.
export function seatWords(text, label) {
  return String(text ?? '')
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/\b(P1|P2)('s)?\b/g, (_, seat, s) => `${label(seat)}${s ? '’s' : ''}`)))
    .join('');
}

/// "a person", "bot greedy", "Ada, person", from a summary's seat.
export function describeSeat(seat) {
  if (!seat) return '?';
  const name = seat.name ? `${seat.name}, ` : '';
  if (seat.kind === 'bot') return `${name}bot ${seat.bot ?? ''}`.trim();
  return `${name}${seat.connected === false ? 'person, not connected' : 'person'}`;
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

/// Match time as m:ss (h:mm:ss past an hour), as the record counts it.
export function matchTime(ms) {
  const s = Math.floor(Math.max(0, ms ?? 0) / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
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

/// The matches this browser created or joined, kept in localStorage so that
/// a player who closed the tab finds their seat again from the lobby. Each
/// entry: {id, game, name, seat, link (with the seat's key), invite (the
/// opponent's, while this browser may still hand it out), at (ms)}. A page
/// that learns of a seat (the lobby, the invite page, a match page) calls
/// `rememberMatch`; nothing leaves the browser.
const MINE_KEY = 'umpire.my-matches';
const MINE_MAX = 100;

export function myMatches() {
  try {
    const list = JSON.parse(localStorage.getItem(MINE_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((m) => m && typeof m.id === 'string' && typeof m.link === 'string') : [];
  } catch {
    return [];
  }
}

function saveMine(list) {
  try {
    localStorage.setItem(MINE_KEY, JSON.stringify(list.slice(0, MINE_MAX)));
  } catch {
    // storage full or refused: the list is a convenience only
  }
}

/// Adds (or updates, by its link) a match this browser holds a seat of.
export function rememberMatch(entry) {
  if (!entry?.id || !entry?.link) return;
  const link = new URL(entry.link, location.href);
  const path = link.pathname + link.search; // same-origin path, no host
  const list = myMatches();
  const old = list.find((m) => m.link === path);
  const merged = { at: Date.now(), ...old, ...entry, link: path };
  saveMine([merged, ...list.filter((m) => m.link !== path)]);
}

/// Forgets one entry (by its link).
export function forgetMatch(link) {
  saveMine(myMatches().filter((m) => m.link !== link));
}
