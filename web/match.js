// The match page: one WebSocket, the board module for the game, the clocks,
// the move box and the end screen. Everything shown comes from the server's
// messages for this viewer; the page never filters anything itself.
import { ClockBoard, formatMs } from './clock.js';
import { Connection, wsUrl } from './connection.js';
import { boardFor, doingFor, promptFor } from './games/index.js';
import { copyText, describeSeat, esc, getJson, refusalHtml } from './util.js';

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const token = new URLSearchParams(location.search).get('t');

const page = {
  you: null,
  game: null,
  name: null,
  board: null,
  state: null,
  pending: null,
};

const GENERIC_SEATS = {
  P1: { label: 'Player 1', mark: '1', className: 'p1' },
  P2: { label: 'Player 2', mark: '2', className: 'p2' },
};

/// A game without a board module still plays: its legal actions (when the
/// server lists them and they are this few) become buttons.
const MAX_ACTION_BUTTONS = 40;

const seatsInfo = () => page.board?.seats ?? GENERIC_SEATS;
const isSeat = (who) => who === 'P1' || who === 'P2';
/// The seats that must still act, and what each decides (`{kind, step,
/// simultaneous}`, as this viewer may know it).
const waiting = (state) => (state.outcome ? [] : (state.decision?.seats ?? []));
const pendingOf = (state, seat) => (isSeat(seat) ? (state.decision?.[seat] ?? null) : null);

function chip(seat) {
  const s = seatsInfo()[seat];
  return `<span class="chip-mark" aria-hidden="true">${esc(s.mark)}</span> ${esc(s.label)} <span class="chip-seat">${seat}</span>`;
}

// --- clocks ---------------------------------------------------------------

const clocks = new ClockBoard((seat, shown) => {
  const turn = $(`clock-${seat}-turn`);
  const bank = $(`clock-${seat}-bank`);
  if (!turn) return;
  turn.textContent = formatMs(shown.turn);
  let extra = '';
  // The bank, when the game has one (still shown once spent, while in use).
  if (shown.bank > 0 || (shown.running && shown.overtime && shown.turn === 0 && !shown.periods)) {
    extra = `bank ${formatMs(shown.bank)}`;
  }
  if (shown.periods > 0) extra += `${extra ? ' · ' : ''}${shown.periods} × ${formatMs(shown.period)}`;
  if (shown.running && !shown.overtime) extra += `${extra ? ' · ' : ''}no overtime`;
  bank.textContent = extra;
  const box = $(`clock-${seat}`);
  box.classList.toggle('running', shown.running);
  box.classList.toggle('low', shown.running && shown.turn < 10_000 && shown.bank < 30_000);
  box.classList.toggle('in-bank', shown.running && shown.turn === 0);
});

// --- rendering ------------------------------------------------------------

function acting(state) {
  return waiting(state).includes(page.you) && !!pendingOf(state, page.you);
}

/// Sets a text only when it changed, so live regions do not repeat.
function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

function render() {
  const state = page.state;
  if (!state) return;
  const view = state.view;
  const me = acting(state);
  const board = $('board');
  // For tests and user styles: where the match stands.
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.over = state.outcome ? 'yes' : 'no';

  // Players.
  for (const seat of ['P1', 'P2']) {
    const info = state.seats?.[seat];
    $(`chip-${seat}`).innerHTML = chip(seat);
    let who = describeSeat(info);
    if (seat === page.you) who += ' · you';
    $(`who-${seat}`).textContent = who;
    const toMove = waiting(state).includes(seat);
    const card = $(`player-${seat}`);
    card.classList.toggle('to-move', toMove);
    card.classList.toggle('away', info?.kind === 'person' && info?.connected === false);
    card.setAttribute('aria-label', `${seat}${toMove ? ', to move' : ''}`);
  }
  if (state.clocks) clocks.set(state.clocks);
  else {
    clocks.set(null);
    for (const seat of ['P1', 'P2']) {
      $(`clock-${seat}-turn`).textContent = 'untimed';
      $(`clock-${seat}-bank`).textContent = '';
      $(`clock-${seat}`).classList.remove('running');
    }
  }

  // Board.
  const ctx = {
    you: page.you,
    acting: me,
    kind: pendingOf(state, page.you)?.kind ?? null,
    decision: state.decision ?? null,
    legal: state.legal,
    submit: act,
    check,
    final: !!state.outcome,
  };
  if (page.board) {
    page.board.render(board, view, ctx);
    setText('last', page.board.status(view));
  } else {
    board.innerHTML = rawBoard(view, me ? state.legal : null);
    if (me && state.legal?.length) $('move-text').placeholder = state.legal[0];
  }

  // Whose turn.
  setText('turn', turnText(state, me));
  $('turn').classList.toggle('mine', me);
  document.body.classList.toggle('my-turn', me);
  document.title = `${me ? '● Your turn · ' : ''}${page.name ?? 'Match'} · Umpire`;

  // Controls.
  $('move').hidden = !isSeat(page.you) || !!state.outcome;
  // The box stays usable out of turn (no focus lost mid-typing); the server
  // answers an early move with its reason.
  $('seat-actions').hidden = !isSeat(page.you) || !!state.outcome;
  const them = page.you === 'P1' ? 'P2' : 'P1';
  const opp = state.seats?.[them];
  renderTakeover(opp);

  renderEnd(state);
}

/// The takeover button: shown while the opponent (a person) is away, usable
/// once they have been away past the grace period the server announced.
let takeoverTimer = null;
function renderTakeover(opp) {
  const button = $('takeover');
  clearTimeout(takeoverTimer);
  const allowed = page.takeover?.allowed !== false;
  const away = isSeat(page.you) && !page.state?.outcome && opp?.kind === 'person' && opp?.connected === false;
  button.hidden = !(allowed && away);
  if (button.hidden) return;
  const grace = page.takeover?.grace_ms ?? 0;
  const wait = Math.max(0, grace - (opp.away_ms ?? grace) - (performance.now() - page.stateAt));
  button.disabled = wait > 0;
  button.textContent = wait > 0
    ? `Hand the absent opponent to a bot (in ${Math.ceil(wait / 1000)} s)`
    : 'Hand the absent opponent to a bot';
  if (wait > 0) takeoverTimer = setTimeout(() => renderTakeover(opp), Math.min(wait, 1000));
}

/// A game without a board module: its view as JSON, and the legal actions
/// as buttons when there are few enough.
function rawBoard(view, legal) {
  let html = `<pre class="raw-view">${esc(JSON.stringify(view, null, 1))}</pre>`;
  if (Array.isArray(legal) && legal.length && legal.length <= MAX_ACTION_BUTTONS) {
    html +=
      '<div class="legal-actions" role="group" aria-label="Your legal actions">' +
      legal.map((a) => `<button type="button" data-action="${esc(a)}">${esc(a)}</button>`).join('') +
      '</div>';
  }
  return html;
}

/// "Red (P1)", with the bot's name for a bot seat.
function seatName(state, seat) {
  const info = state.seats?.[seat];
  const bot = info?.kind === 'bot' ? `, bot ${info.bot ?? ''}`.trimEnd() : '';
  return `${seatsInfo()[seat].label} (${seat}${bot})`;
}

function turnText(state, me) {
  if (state.outcome) {
    const w = state.outcome.winner;
    if (!w) return 'Game over: a draw.';
    if (w === page.you) return 'Game over: you won.';
    if (isSeat(page.you)) return 'Game over: you lost.';
    return `Game over: ${seatsInfo()[w].label} (${w}) wins.`;
  }
  if (me) return promptFor(page.board, pendingOf(state, page.you).kind, state.view);
  const seats = waiting(state);
  if (!seats.length) return 'Waiting…';
  const kinds = seats.map((s) => pendingOf(state, s)?.kind ?? null);
  if (kinds.every((k) => k === kinds[0])) {
    return `${seats.map((s) => seatName(state, s)).join(' and ')} to ${doingFor(page.board, kinds[0])}.`;
  }
  return `${seats.map((s, i) => `${seatName(state, s)} to ${doingFor(page.board, kinds[i])}`).join('; ')}.`;
}

function renderEnd(state) {
  const end = $('end');
  const outcome = state.outcome;
  if (!outcome) {
    end.hidden = true;
    return;
  }
  const wasHidden = end.hidden;
  const winner = outcome.winner;
  let title = 'Draw';
  if (winner) title = winner === page.you ? 'You won' : isSeat(page.you) ? 'You lost' : `${seatsInfo()[winner].label} (${winner}) wins`;
  $('end-title').textContent = title;
  $('end-reason').textContent = outcome.reason ?? '';
  $('end-decided').innerHTML = outcome.decided_by ? `Decided by: <strong>${esc(outcome.decided_by)}</strong>` : '';
  const scores = outcome.scores ?? {};
  $('end-scores').innerHTML =
    ['P1', 'P2']
      .map((s) => `<span class="score${winner === s ? ' won' : ''}"><span class="chip ${seatsInfo()[s].className}">${chip(s)}</span> <strong>${esc(scores[s] ?? 0)}</strong></span>`)
      .join('');
  $('end-detail').innerHTML = page.board?.ending(state.view, outcome) ?? '';
  const record = `/api/matches/${encodeURIComponent(id)}/record`;
  $('record-link').href = record;
  $('record-link').setAttribute('download', `${page.game ?? 'match'}-${id}.json`);
  $('replay-link').href = `/replay/${encodeURIComponent(id)}${token && page.you === 'umpire' ? `?t=${encodeURIComponent(token)}` : ''}`;
  end.hidden = false;
  if (wasHidden) $('end-title').focus({ preventScroll: true });
}

// --- acting ----------------------------------------------------------------

function showError(text) {
  const el = $('error');
  el.textContent = text;
  el.hidden = !text;
}

/// A refusal from the server, for the action text `sent` (see refusalHtml).
function showRefusal(msg, sent) {
  const el = $('error');
  el.innerHTML = refusalHtml(msg, sent);
  el.hidden = false;
  // The text box still holds what was sent: put the caret where it went wrong.
  const box = $('move-text');
  const start = typeof sent === 'string' ? box.value.indexOf(sent) : -1;
  if (Number.isInteger(msg.at) && start >= 0 && document.activeElement === box) {
    const head = Array.from(sent).slice(0, msg.at).join('');
    box.setSelectionRange(start + head.length, start + sent.length);
  }
}

function act(text) {
  const action = text.trim();
  if (!action) return;
  showError('');
  if (!conn.send({ type: 'act', action })) {
    showError('Not connected: your move was not sent. Reconnecting…');
    return;
  }
  page.pending = action;
}

/// Asks the server whether `text` would be accepted now, changing nothing:
/// resolves to its `checked` answer ({ok, action} or {ok: false, rule,
/// message, at?, expected?, suggestion?}). Boards use it to validate a
/// choice while the player builds it.
const CHECK_MS = 10_000;
const checks = new Map();
let checkSeq = 0;
function check(text) {
  return new Promise((resolve) => {
    const cid = ++checkSeq;
    if (!conn.send({ type: 'check', action: String(text ?? ''), id: cid })) {
      resolve({ type: 'checked', id: cid, ok: false, rule: 'offline', message: 'not connected' });
      return;
    }
    const timer = setTimeout(() => {
      checks.delete(cid);
      resolve({ type: 'checked', id: cid, ok: false, rule: 'timeout', message: 'the server did not answer the check' });
    }, CHECK_MS);
    checks.set(cid, (msg) => {
      clearTimeout(timer);
      resolve(msg);
    });
  });
}

/// The answer to check `msg.id`, if one waits for it.
function onChecked(msg) {
  const done = checks.get(msg.id);
  if (!done) return;
  checks.delete(msg.id);
  done(msg);
}

$('board').addEventListener('click', (e) => {
  // A board module handles its own clicks; these are the generic buttons.
  const button = e.target.closest('.legal-actions button[data-action]');
  if (button && !page.board) act(button.dataset.action);
});

$('move').addEventListener('submit', (e) => {
  e.preventDefault();
  act($('move-text').value);
});

let resignArmed = null;
$('resign').addEventListener('click', () => {
  const button = $('resign');
  if (!resignArmed) {
    button.textContent = 'Really resign? Click again';
    button.classList.add('danger');
    resignArmed = setTimeout(() => {
      resignArmed = null;
      button.textContent = 'Resign';
      button.classList.remove('danger');
    }, 4000);
    return;
  }
  clearTimeout(resignArmed);
  resignArmed = null;
  button.textContent = 'Resign';
  button.classList.remove('danger');
  if (!conn.send({ type: 'resign' })) showError('Not connected: could not resign.');
});

$('takeover').addEventListener('click', () => {
  if (!conn.send({ type: 'takeover' })) showError('Not connected.');
});

$('copy-spectator').addEventListener('click', async () => {
  const ok = await copyText($('spectator-link').href);
  $('copy-spectator').textContent = ok ? 'Copied' : 'Copy failed';
  setTimeout(() => ($('copy-spectator').textContent = 'Copy'), 1500);
});

// --- messages --------------------------------------------------------------

function onMessage(msg) {
  switch (msg.type) {
    case 'hello': {
      page.you = msg.you;
      page.game = msg.game;
      page.name = msg.name;
      page.board = boardFor(msg.game);
      page.takeover = msg.takeover ?? null;
      $('game-name').textContent = msg.name ?? msg.game;
      $('role').innerHTML = roleText(msg.you);
      $('help').textContent = page.board?.help ?? 'Type your action in the game’s notation.';
      // Players on a wide screen see how to play at once; phones keep it folded.
      if (!page.greeted && isSeat(msg.you) && matchMedia('(min-width: 761px)').matches) $('help-box').open = true;
      page.greeted = true;
      $('move-text').placeholder = page.board?.example ?? 'your action';
      break;
    }
    case 'state':
      if (page.state && msg.seq < page.state.seq && !msg.outcome) break;
      page.state = msg;
      page.stateAt = performance.now();
      if (page.pending && !acting(msg)) page.pending = null;
      render();
      break;
    case 'accepted':
      page.pending = null;
      $('move-text').value = '';
      showError('');
      break;
    case 'checked':
      onChecked(msg);
      break;
    case 'error':
      // A check the server could not read (an older server, or an
      // oversized text) is answered by an error with its id, or none:
      // it goes to the checks waiting, not to the move box.
      if (msg.rule === 'protocol' && !page.pending && (checks.has(msg.id) || (msg.id === undefined && checks.size))) {
        for (const [cid, done] of [...checks]) {
          if (msg.id !== undefined && cid !== msg.id) continue;
          checks.delete(cid);
          done({ ...msg, type: 'checked', id: cid, ok: false });
        }
        break;
      }
      if (msg.rule === 'gone') {
        showGone('off', msg.message);
        break;
      }
      showRefusal(msg, page.pending);
      page.pending = null;
      if (page.board && page.state) page.board.reset?.($('board'));
      break;
    default:
      break;
  }
}

function roleText(you) {
  if (isSeat(you)) return `You play <span class="chip ${seatsInfo()[you].className}">${chip(you)}</span>`;
  if (you === 'umpire') return 'Umpire view: you see everything';
  return 'Spectator';
}

const STATUS_TEXT = {
  connecting: 'Connecting…',
  open: 'Connected',
  retrying: 'Reconnecting',
  closed: 'Disconnected',
};

function onStatus(status, detail) {
  const conn = $('conn');
  conn.dataset.state = status;
  let text = STATUS_TEXT[status];
  if (status === 'retrying') text = `Connection lost; retrying in ${Math.max(1, Math.round(detail / 1000))} s…`;
  if (status === 'closed' && detail) text = `Disconnected: ${detail}`;
  $('conn-text').textContent = text;
  document.body.classList.toggle('offline', status !== 'open');
}

const conn = new Connection(wsUrl(id, token), { onMessage, onStatus });

/// A link that opens nothing: one clear page, with the way back to the lobby
/// (and, for a refused key, the spectator's link), instead of empty seats.
/// `why`: 'unknown' (no such match), 'refused' (a wrong key) or 'off' (the
/// match was called off; `detail` is the server's sentence).
function showGone(why, detail = '') {
  const title = { unknown: 'No such match', refused: 'This link’s key was refused', off: 'This match was called off' }[why];
  const text = {
    unknown: 'There is no match at this link: it may be mistyped.',
    refused: 'The key in this link does not open this match. Ask whoever sent it for your link, or watch as a spectator.',
    off: `${detail ? `${detail[0].toUpperCase()}${detail.slice(1)}.` : ''} Create a new match from the lobby.`,
  }[why];
  const watch = why === 'refused' ? ` <a class="button" href="/m/${encodeURIComponent(id)}">Watch as a spectator</a>` : '';
  document.querySelector('main').innerHTML =
    `<section class="gone" aria-labelledby="gone-title"><h1 id="gone-title">${esc(title)}</h1>` +
    `<p>${esc(text)}</p><p><a class="button primary" href="/">Go to the lobby</a>${watch}</p></section>`;
  document.title = `${title} · Umpire`;
}

async function start() {
  const spectator = new URL(`/m/${encodeURIComponent(id)}`, location.href).href;
  $('spectator-link').href = spectator;
  $('spectator-link').textContent = spectator;
  // Ask over HTTP first, so a bad link or an unknown match gets a clear
  // message instead of endless reconnection.
  try {
    await getJson(`/api/matches/${encodeURIComponent(id)}${token ? `?t=${encodeURIComponent(token)}` : ''}`);
  } catch (x) {
    if (x.status === 403 || x.status === 404 || x.status === 410) {
      showGone({ 403: 'refused', 404: 'unknown', 410: 'off' }[x.status], x.message);
      onStatus('closed', { 403: 'link refused', 404: 'no such match', 410: 'called off' }[x.status]);
      return;
    }
  }
  conn.open();
}

start();
