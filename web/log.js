// The match log (the server's: crates/server/src/log.rs): the public events
// in the game's words, the notation beside them, a time-out said as one.
import { esc } from './util.js';

/// One log line as HTML. `words(text)` names the seats; `time(ms)` writes
/// match time.
export function logLineHtml(line, words, seatLabel, time) {
  const out = (line.timed_out ?? []).map((s) => `${seatLabel(s)}’s time ran out.`).join(' ');
  const said = line.text ? words(line.text).replace(/\.$/, '') : '';
  const text = [out, said ? `${said[0].toUpperCase()}${said.slice(1)}.` : ''].filter(Boolean).join(' ');
  const code = line.notation ? ` <code class="log-notation">${esc(line.notation)}</code>` : '';
  return `<li class="log-line"><span class="hint log-at">${esc(time(line.at_ms))}</span> ${esc(text)}${code}</li>`;
}

/// Keeps the lines a `log` message gives (from index `from` on) and draws
/// them into `list`, latest last.
export class MatchLog {
  constructor(list, draw) {
    this.list = list;
    this.lines = [];
    this.lineHtml = draw;
  }

  receive(msg) {
    const from = Number.isInteger(msg.from) ? msg.from : this.lines.length;
    this.lines = [...this.lines.slice(0, from), ...(msg.lines ?? [])];
    this.draw();
  }

  draw() {
    const html = this.lines.length ? this.lines.map(this.lineHtml).join('') : '<li class="hint">Nothing yet.</li>';
    if (this.list.innerHTML !== html) {
      this.list.innerHTML = html;
      this.list.scrollTop = this.list.scrollHeight;
    }
  }
}
