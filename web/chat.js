// The chat beside a match (the server's rules: crates/server/src/chat.rs):
// the players' room, read by everyone, and the spectators' room, which the
// players see only once the match is over. Each room can be muted (kept in
// this browser). Lines are shown as text, never as markup.
import { esc } from './util.js';

const MUTE_KEY = (room) => `umpire.mute-chat.${room}`;

function muted(room) {
  try {
    return localStorage.getItem(MUTE_KEY(room)) === 'on';
  } catch {
    return false;
  }
}

function setMuted(room, on) {
  try {
    localStorage.setItem(MUTE_KEY(room), on ? 'on' : 'off');
  } catch {
    // private mode: for this page only
  }
}

/// A speaker as the page names them: a seat by its colour, the umpire,
/// "Spectator 2".
export function speakerName(by, seatLabel) {
  if (by === 'P1' || by === 'P2') return seatLabel(by);
  if (by === 'umpire') return 'Umpire';
  return `${by[0]?.toUpperCase() ?? ''}${by.slice(1)}`;
}

/// One line as HTML: who, when (match time), what (as text).
export function lineHtml(line, seatLabel, time) {
  const seat = line.by === 'P1' ? 'p1' : line.by === 'P2' ? 'p2' : 'other';
  return (
    `<li class="chat-line" data-by="${esc(line.by)}"><span class="chat-by seat-name ${seat}">${esc(speakerName(line.by, seatLabel))}</span> ` +
    `<span class="chat-text">${esc(line.text)}</span> <span class="hint chat-at">${esc(time(line.at_ms))}</span></li>`
  );
}

/// The chat panel of the match page. `send(text)` sends a line; returns
/// false when not connected.
export class ChatPanel {
  constructor({ seatLabel, time, send }) {
    this.lines = [];
    this.seatLabel = seatLabel;
    this.time = time;
    this.send = send;
    this.you = null;
    this.over = false;
    const $ = (id) => document.getElementById(id);
    this.$ = $;
    for (const box of document.querySelectorAll('[data-mute]')) {
      box.checked = muted(box.dataset.mute);
      box.addEventListener('change', () => {
        setMuted(box.dataset.mute, box.checked);
        this.draw();
      });
    }
    $('chat-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const text = $('chat-text').value.trim();
      if (!text) return;
      if (!this.send(text)) {
        this.said('Not connected: the line was not sent.');
        return;
      }
      $('chat-text').value = '';
      this.said('');
    });
  }

  /// Who this page is ('P1', 'P2', 'spectator', 'umpire'), and whether the
  /// match is over (the players then read the spectators' room too).
  setViewer(you, over) {
    this.you = you;
    this.over = over;
    this.$('chat-box').hidden = false;
    const player = you === 'P1' || you === 'P2' || you === 'umpire';
    this.$('chat-label').textContent = player ? 'Say to the players (spectators read it too)' : 'Say to the spectators (the players do not see it until the end)';
    this.draw();
  }

  /// A `chat` message: every readable line (`all`), or new ones.
  receive(msg) {
    const lines = Array.isArray(msg.lines) ? msg.lines : [];
    this.lines = msg.all ? lines : [...this.lines, ...lines];
    this.draw();
  }

  /// A refusal of a line, said under the box.
  said(text) {
    this.$('chat-error').textContent = text;
  }

  draw() {
    const seat = this.you === 'P1' || this.you === 'P2';
    for (const room of ['players', 'spectators']) {
      const box = this.$(`room-${room}`);
      box.hidden = room === 'spectators' && seat && !this.over;
      const lines = this.lines.filter((l) => l.room === room);
      const list = this.$(`chat-${room}`);
      let html;
      if (muted(room)) html = `<li class="hint">Muted (${lines.length} line${lines.length === 1 ? '' : 's'}).</li>`;
      else if (!lines.length) html = '<li class="hint">Nothing said yet.</li>';
      else html = lines.map((l) => lineHtml(l, this.seatLabel, this.time)).join('');
      if (list.innerHTML !== html) {
        list.innerHTML = html;
        list.scrollTop = list.scrollHeight;
      }
    }
  }
}
