// The match page: one WebSocket, the board module for the game, the clocks,
// the move box and the end screen. Everything shown comes from the server's
// messages for this viewer; the page never filters anything itself.
import { ClockBoard, formatMs } from './clock.js';
import { Connection, wsUrl } from './connection.js';
import { boardFor } from './games/index.js';
import { copyText, describeSeat, esc, getJson } from './util.js';

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

const seatsInfo = () => page.board?.seats ?? GENERIC_SEATS;
const isSeat = (who) => who === 'P1' || who === 'P2';

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
  if (shown.bank > 0 || shown.running) extra = `bank ${formatMs(shown.bank)}`;
  if (shown.periods > 0) extra += ` · ${shown.periods} × ${formatMs(shown.period)}`;
  bank.textContent = extra;
  const box = $(`clock-${seat}`);
  box.classList.toggle('running', shown.running);
  box.classList.toggle('low', shown.running && shown.turn < 10_000 && shown.bank < 30_000);
  box.classList.toggle('in-bank', shown.running && shown.turn === 0);
});

// --- rendering ------------------------------------------------------------

function acting(state) {
  return isSeat(page.you) && !state.outcome && (state.decision?.seats ?? []).includes(page.you);
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
    const toMove = !state.outcome && (state.decision?.seats ?? []).includes(seat);
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
    kind: state.decision?.kind,
    legal: state.legal,
    submit: act,
    showArmies: !!state.outcome,
  };
  if (page.board) {
    page.board.render(board, view, ctx);
    setText('last', page.board.status(view));
  } else {
    board.innerHTML = `<pre class="raw-view">${esc(JSON.stringify(view, null, 1))}</pre>`;
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

function turnText(state, me) {
  if (state.outcome) {
    const w = state.outcome.winner;
    if (!w) return 'Game over: a draw.';
    if (w === page.you) return 'Game over: you won.';
    if (isSeat(page.you)) return 'Game over: you lost.';
    return `Game over: ${seatsInfo()[w].label} (${w}) wins.`;
  }
  const seats = state.decision?.seats ?? [];
  if (me) {
    if (state.decision?.kind === 'first') return 'Your turn: choose who places first.';
    return page.board?.prompt ?? 'Your turn.';
  }
  if (!seats.length) return 'Waiting…';
  const names = seats.map((s) => `${seatsInfo()[s].label} (${s}${state.seats?.[s]?.kind === 'bot' ? `, bot ${state.seats[s].bot ?? ''}`.trimEnd() : ''})`);
  return `${names.join(' and ')} to ${state.decision?.kind === 'first' ? 'choose who starts' : 'move'}.`;
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
      if (page.board?.example) $('move-text').placeholder = page.board.example;
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
    case 'error':
      showError(`${msg.message}${msg.rule ? ` (${msg.rule})` : ''}`);
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

async function start() {
  const spectator = new URL(`/m/${encodeURIComponent(id)}`, location.href).href;
  $('spectator-link').href = spectator;
  $('spectator-link').textContent = spectator;
  // Ask over HTTP first, so a bad link or an unknown match gets a clear
  // message instead of endless reconnection.
  try {
    await getJson(`/api/matches/${encodeURIComponent(id)}${token ? `?t=${encodeURIComponent(token)}` : ''}`);
  } catch (x) {
    if (x.status === 403 || x.status === 404) {
      const text = x.status === 404 ? 'There is no such match.' : 'This link’s key was refused.';
      $('turn').textContent = text;
      onStatus('closed', x.status === 404 ? 'no such match' : 'link refused');
      return;
    }
  }
  conn.open();
}

start();
