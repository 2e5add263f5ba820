// The match page: one WebSocket, the board module for the game, the clocks,
// the move box and the end screen. Everything shown comes from the server's
// messages for this viewer; the page never filters anything itself.
import { ClockBoard, formatMs } from './clock.js';
import { Connection, wsUrl } from './connection.js';
import { boardFor, doingFor, promptFor, seatsOf } from './games/index.js';
import { ChatPanel } from './chat.js';
import { MatchLog, logLineHtml } from './log.js';
import { copyText, describeSeat, esc, getJson, matchTime, myMatches, refusalHtml, rememberMatch, seatWords } from './util.js';

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
  staged: null,
};

/// A game without a board module still plays: its legal actions (when the
/// server lists them and they are this few) become buttons.
const MAX_ACTION_BUTTONS = 40;

const seatsInfo = () => seatsOf(page.board);
const isSeat = (who) => who === 'P1' || who === 'P2';
/// The seats that must still act, and what each decides (`{kind, step,
/// simultaneous}`, as this viewer may know it).
const waiting = (state) => (state.outcome ? [] : (state.decision?.seats ?? []));
const pendingOf = (state, seat) => (isSeat(seat) ? (state.decision?.[seat] ?? null) : null);

/// A seat's chip: its mark and its name (no seat number: the colour says it).
function chip(seat) {
  const s = seatsInfo()[seat];
  const name = page.state?.seats?.[seat]?.name;
  const label = name ? `${name} · ${s.label}` : s.label;
  return `<span class="chip-mark" aria-hidden="true">${esc(s.mark)}</span> ${esc(label)}`;
}

// --- clocks ---------------------------------------------------------------

/// Under these a running clock is low on time.
const LOW_TURN_MS = 10_000;
const LOW_BANK_MS = 30_000;

/// The seat that lost on time, once the match is over: its clock shows 0:00.
function flaggedSeat() {
  const o = page.state?.outcome;
  if (!o || !isSeat(o.winner) || !/^time\b/i.test(o.decided_by ?? '')) return null;
  return o.winner === 'P1' ? 'P2' : 'P1';
}

const clocks = new ClockBoard((seat, shown) => {
  const turn = $(`clock-${seat}-turn`);
  const bank = $(`clock-${seat}-bank`);
  if (!turn) return;
  const box = $(`clock-${seat}`);
  const flagged = flaggedSeat() === seat;
  // A seat that is not deciding and has no turn time yet (it has not
  // moved) shows the time it has in reserve, never a bare 0.
  const idle = !shown.running && shown.turn === 0 && (shown.bank > 0 || shown.periods > 0);
  let extra = '';
  if (flagged) {
    turn.textContent = '0:00';
    extra = 'out of time';
  } else if (idle) {
    turn.textContent = formatMs(shown.bank > 0 ? shown.bank : shown.period);
    if (shown.bank > 0) extra = 'in reserve';
    if (shown.periods > 0) extra += `${extra ? ' · ' : ''}${shown.periods} × ${formatMs(shown.period)}`;
  } else {
    turn.textContent = formatMs(shown.turn);
    // The bank, when the game has one (still shown once spent, while in use).
    if (shown.bank > 0 || (shown.running && shown.overtime && shown.turn === 0 && !shown.periods)) {
      extra = `bank ${formatMs(shown.bank)}`;
    }
    if (shown.periods > 0) extra += `${extra ? ' · ' : ''}${shown.periods} × ${formatMs(shown.period)}`;
    if (shown.running && !shown.overtime) extra += `${extra ? ' · ' : ''}no overtime`;
  }
  bank.textContent = extra;
  const low = !flagged && shown.running && shown.turn < LOW_TURN_MS && (!shown.overtime || shown.bank < LOW_BANK_MS);
  // The warning sounds when this seat's running clock crosses into low
  // time, not for a decision that is short from its start.
  const wasOk = box.classList.contains('running') && !box.classList.contains('low');
  if (low && seat === page.you && wasOk) playSound('low-time');
  box.classList.toggle('running', shown.running);
  box.classList.toggle('low', low);
  box.classList.toggle('flagged', flagged);
  box.classList.toggle('in-bank', shown.running && shown.turn === 0);
  $(`clock-${seat}-low`).hidden = !low;
  box.setAttribute('aria-label', `${seatLabel(seat)}’s clock${low ? ', low time' : ''}${flagged ? ', out of time' : ''}`);
});

// --- sounds ----------------------------------------------------------------

/// Short tones made on the page (no files): [frequency Hz, start s, length s].
const SOUNDS = {
  'your-turn': [[660, 0, 0.12], [880, 0.13, 0.16]],
  'move-played': [[520, 0, 0.07]],
  'low-time': [[990, 0, 0.08], [990, 0.16, 0.08], [990, 0.32, 0.08]],
  'game-over': [[784, 0, 0.16], [659, 0.18, 0.16], [523, 0.36, 0.3]],
};
const SOUND_KEY = 'umpire.sound';
const CONFIRM_KEY = 'umpire.confirm-moves';

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // private mode: the setting lasts for this page only
  }
}

const soundOn = () => (stored(SOUND_KEY) ?? 'on') === 'on';
let audio = null;

/// Plays sound `name` unless muted; its name goes to
/// `document.body.dataset.sound` (for tests and user scripts).
function playSound(name) {
  if (!soundOn() || !SOUNDS[name]) return;
  document.body.dataset.sound = name;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') audio.resume().catch(() => {});
    const t0 = audio.currentTime + 0.01;
    for (const [freq, at, len] of SOUNDS[name]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.2, t0 + at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len + 0.02);
    }
  } catch {
    // no audio here: the name above is still set
  }
}

// --- rendering ------------------------------------------------------------

function acting(state) {
  return waiting(state).includes(page.you) && !!pendingOf(state, page.you);
}

/// Sets a text only when it changed, so live regions do not repeat.
function setText(id, text) {
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

/// A selector that finds `el` again after a redraw: its id, or its data-*
/// attributes inside the board.
function focusKey(el) {
  if (!el || el === document.body) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const board = $('board');
  if (!board.contains(el)) return null;
  const attrs = Object.keys(el.dataset).map((k) => {
    const name = k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    return `[data-${name}="${CSS.escape(el.dataset[k])}"]`;
  });
  return attrs.length ? `#board ${el.localName}${attrs.join('')}` : '#board';
}

/// Keeps the keyboard focus across a redraw: the same element if it is
/// still there, its redrawn twin, or the board it was in.
function keepFocus(before, key, draw) {
  draw();
  const now = document.activeElement;
  const lost = !now || now === document.body || !!now.closest('[hidden]');
  if (!before || before === document.body || (!lost && now !== before)) return;
  if (before.isConnected && !before.closest('[hidden]')) {
    if (now !== before) before.focus({ preventScroll: true });
    return;
  }
  let target = null;
  try {
    target = key ? document.querySelector(key) : null;
  } catch {
    target = null;
  }
  if (target && !target.closest('[hidden]')) target.focus({ preventScroll: true });
  else if ($('board').contains(before) || !before.isConnected) $('board').focus({ preventScroll: true });
}

/// Whether a render is under way (dropping a staged action during one
/// needs no render of its own).
let rendering = false;

/// A press on the board holds redraws until it is let go: a state that
/// arrives between a button's press and its release would replace the
/// button under the pointer, and the click would be lost. The release is
/// seen anywhere (the browser sends it to the page the press began in);
/// leaving the window lets go too.
const press = { down: false, held: false };

function releasePress() {
  if (!press.down) return;
  press.down = false;
  // Redrawn after the click this release makes, not before it.
  if (press.held) setTimeout(() => !press.down && render(), 0);
}

$('board').addEventListener('pointerdown', () => {
  press.down = true;
  press.held = false;
}, true);
for (const type of ['pointerup', 'pointercancel']) addEventListener(type, releasePress, true);
// Only the window's own blur: an element's (the focus moving on a press)
// reaches the window too.
addEventListener('blur', (e) => e.target === window && releasePress());

function render() {
  if (press.down) {
    press.held = true;
    return;
  }
  press.held = false;
  const before = document.activeElement;
  rendering = true;
  try {
    keepFocus(before, focusKey(before), renderNow);
  } finally {
    rendering = false;
  }
}

function renderNow() {
  const state = page.state;
  if (!state) return;
  const view = state.view;
  const me = acting(state);
  const board = $('board');
  // For tests and user styles: where the match stands.
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.over = state.outcome ? 'yes' : 'no';

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
    staged: me && !state.outcome ? (page.staged ?? page.pending ?? null) : null,
  };
  if (page.board) {
    page.board.render(board, view, ctx);
    markStaged(ctx.staged);
    setText('last', withSeatNames(page.board.status(view)));
  } else {
    board.innerHTML = rawBoard(view, me ? state.legal : null);
    if (me && state.legal?.length) $('move-text').placeholder = state.legal[0];
  }

  // Players (the role too), once the board has named the seats from the view.
  if (page.you) $('role').innerHTML = roleText(page.you);
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
    card.setAttribute('aria-label', `${seatLabel(seat)}${toMove ? ', to move' : ''}`);
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
  $('play-settings').hidden = false;
  $('confirm-moves-label').hidden = !isSeat(page.you) || !!state.outcome;
  $('confirm-moves').checked = confirmOn();
  $('sound-on').checked = soundOn();
  if (!me || state.outcome) dropStaged();
  const them = page.you === 'P1' ? 'P2' : 'P1';
  const opp = state.seats?.[them];
  renderTakeover(opp);
  renderInvite(opp);

  renderEnd(state);
  chat.setViewer(page.you, !!state.outcome);
  matchLog.draw();
}

/// The takeover button: shown while the opponent (a person) is away, usable
/// once they have been away past the grace period the server announced.
let takeoverTimer = null;
function renderTakeover(opp) {
  const button = $('takeover');
  clearTimeout(takeoverTimer);
  const allowed = page.takeover?.allowed !== false;
  // Only a seat its person left: an invited player who never came has
  // nothing to hand over (their invite is shown instead).
  const away = isSeat(page.you) && !page.state?.outcome && opp?.kind === 'person' && opp?.connected === false && opp?.arrived !== false;
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

/// The invite for the opponent, on the page of the player who created the
/// match (this browser keeps it), while nobody has taken the other seat.
function renderInvite(opp) {
  const entry = isSeat(page.you) ? myMatches().find((m) => m.id === id && m.invite) : null;
  const waiting = !!entry && !page.state?.outcome && opp?.kind === 'person' && opp?.arrived === false;
  $('invite-box').hidden = !waiting;
  if (!waiting) return;
  const url = new URL(entry.invite, location.href).href;
  if ($('invite-link').href !== url) {
    $('invite-link').href = url;
    $('invite-link').textContent = url;
  }
}

$('copy-invite').addEventListener('click', async () => {
  const ok = await copyText($('invite-link').href);
  $('copy-invite').textContent = ok ? 'Copied' : 'Copy failed';
  setTimeout(() => ($('copy-invite').textContent = 'Copy invite'), 1500);
});

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

/// "Red", with the bot's name for a bot seat: "Blue (bot greedy)".
function seatName(state, seat) {
  const info = state.seats?.[seat];
  const bot = info?.kind === 'bot' ? ` (bot ${info.bot ?? ''})`.replace(' )', ')') : '';
  return `${seatLabel(seat)}${bot}`;
}

function turnText(state, me) {
  if (state.outcome) {
    const w = state.outcome.winner;
    if (!w) return 'Game over: a draw.';
    if (w === page.you) return 'Game over: you won.';
    if (isSeat(page.you)) return 'Game over: you lost.';
    return `Game over: ${seatLabel(w)} wins.`;
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
  if (winner) title = winner === page.you ? 'You won' : isSeat(page.you) ? 'You lost' : `${seatLabel(winner)} wins`;
  $('end-title').textContent = title;
  $('end-summary').textContent = endSummary(outcome);
  $('end-reason').textContent = outcome.reason ?? '';
  // The summary says it in the seats' names; the game's own sentence stays
  // in the page for scripts.
  $('end-reason').hidden = !!$('end-summary').textContent;
  const gloss = DECIDED_WORDS[String(outcome.decided_by ?? '').toLowerCase()];
  $('end-decided').innerHTML = outcome.decided_by
    ? `Decided by: <strong>${esc(outcome.decided_by)}</strong>${gloss ? ` (${esc(gloss)})` : ''}`
    : '';
  const scores = outcome.scores ?? {};
  $('end-scores').innerHTML =
    ['P1', 'P2']
      .map((s) => `<span class="score${winner === s ? ' won' : ''}"><span class="chip ${seatsInfo()[s].className}">${chip(s)}</span> <strong>${esc(scores[s] ?? 0)}</strong></span>`)
      .join('');
  $('end-detail').innerHTML = page.board?.ending(state.view, outcome) ?? '';
  focusableTables($('end-detail'));
  const record = `/api/matches/${encodeURIComponent(id)}/record`;
  $('record-link').href = record;
  $('record-link').setAttribute('download', `${page.game ?? 'match'}-${id}.json`);
  $('replay-link').href = `/replay/${encodeURIComponent(id)}${token && page.you === 'umpire' ? `?t=${encodeURIComponent(token)}` : ''}`;
  end.hidden = false;
  renderRematch();
  if (wasHidden) $('end-title').focus({ preventScroll: true });
}

// --- rematch ---------------------------------------------------------------

/// Where the rematch stands: the server's last `rematch` message.
page.rematch = null;

/// The end screen's rematch part: ask, accept, wait, or go. A rematch has
/// the same settings and the seats swapped; each key opens its new seat.
function renderRematch() {
  const box = $('rematch');
  const state = page.state;
  const r = page.rematch ?? { offers: [], match: null };
  const button = $('rematch-button');
  const link = $('rematch-link');
  const other = page.you === 'P1' ? 'P2' : 'P1';
  const person = (seat) => state?.seats?.[seat]?.kind === 'person';
  const player = isSeat(page.you) && person(page.you);
  box.hidden = !state?.outcome || (!player && !r.offers.length && !r.match);
  if (box.hidden) return;
  button.hidden = !player || !!r.match;
  link.hidden = !r.match;
  let status;
  if (r.match) {
    const mine = player ? `?t=${encodeURIComponent(token)}` : page.you === 'umpire' && token ? `?t=${encodeURIComponent(token)}` : '';
    link.href = `/m/${encodeURIComponent(r.match)}${mine}`;
    link.textContent = player ? `Play the rematch as ${seatLabel(other)}` : 'Watch the rematch';
    status = player ? `Rematch agreed: you play ${seatLabel(other)}’s seat now.` : 'Rematch agreed: the seats are swapped.';
  } else if (player && r.offers.includes(page.you)) {
    button.disabled = true;
    button.textContent = 'Rematch asked';
    status = person(other) ? `Waiting for ${seatLabel(other)} to accept the rematch.` : 'Starting the rematch…';
  } else if (player && r.offers.includes(other)) {
    button.disabled = false;
    button.textContent = 'Accept the rematch';
    status = `${seatLabel(other)} asks for a rematch: same settings, seats swapped.`;
  } else if (player) {
    button.disabled = false;
    button.textContent = 'Rematch';
    status = 'Play again with the same settings, seats swapped (the advantage changes hands).';
  } else {
    status = `${r.offers.map(seatLabel).join(' and ')} asked for a rematch.`;
  }
  setText('rematch-status', status);
}

function onRematch(msg) {
  page.rematch = { offers: msg.offers ?? [], match: msg.match ?? null };
  renderRematch();
  // Both agreed: a player goes on to their new seat (kept in "Your matches").
  if (msg.match && isSeat(page.you) && token && !page.leaving) {
    page.leaving = true;
    const other = page.you === 'P1' ? 'P2' : 'P1';
    const link = `/m/${encodeURIComponent(msg.match)}?t=${encodeURIComponent(token)}`;
    rememberMatch({ id: msg.match, seat: other, game: page.game, name: page.name, link, at: Date.now() });
    setTimeout(() => location.assign(link), REMATCH_PAUSE_MS);
  }
}

/// How long the "rematch agreed" note shows before a player moves on.
const REMATCH_PAUSE_MS = 1200;

$('rematch-button').addEventListener('click', () => {
  if (!conn.send({ type: 'rematch' })) showError('Not connected: could not ask for a rematch.');
  else {
    $('rematch-button').disabled = true;
  }
});

/// What the shared ways to end say, in words; a game's own steps speak for
/// themselves.
const DECIDED_WORDS = {
  time: 'a clock ran out',
  resignation: 'a player resigned',
};

/// A seat in sentences: its player's name where the match names one, else
/// the game's label for it (the colour it plays).
function seatLabel(seat) {
  return page.state?.seats?.[seat]?.name ?? seatsInfo()[seat]?.label ?? seat;
}

const withSeatNames = (text) => seatWords(text, seatLabel);

/// "Orange wins: Blue ran out of time.", "Draw: equal points.": who won and
/// why, in the seats' names.
function endSummary(outcome) {
  const w = outcome.winner;
  let why = withSeatNames(outcome.reason ?? '').trim().replace(/\.$/, '');
  if (!why && outcome.decided_by) why = DECIDED_WORDS[outcome.decided_by] ?? `decided by ${outcome.decided_by}`;
  if (!isSeat(w)) {
    why = why.replace(/^(a\s+)?draw\b[:;,.]?\s*/i, '');
    return why ? `Draw: ${why}.` : 'Draw.';
  }
  const label = seatLabel(w);
  const quoted = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A reason that starts by saying who won is the whole sentence already.
  if (new RegExp(`^${quoted} wins\\b`, 'i').test(why)) return `${label}${why.slice(label.length)}.`;
  // One that ends by saying who won drops that end: the head says it.
  why = why.replace(new RegExp(`[;,.:]\\s*${quoted} wins[.!]?$`, 'i'), '').trim();
  return why ? `${label} wins: ${why}.` : `${label} wins.`;
}

// --- acting ----------------------------------------------------------------

function showError(text) {
  const el = $('error');
  el.textContent = text;
  el.hidden = !text;
  delete el.dataset.rule;
}

/// The seats (labels) the match waits for, other than this viewer.
function waitingLabels(message) {
  const named = /waiting for (.+?)\.?$/.exec(message ?? '')?.[1];
  let seats = named ? named.split(/\s+and\s+/).filter(isSeat) : [];
  if (!seats.length && page.state) seats = waiting(page.state);
  return seats.filter((s) => s !== page.you).map(seatLabel);
}

/// A refusal in plain words: the turn rules as a short sentence with the
/// seats' names, any other rule as the server says it, seats named.
function plainRefusal(msg) {
  const wait = () => {
    const labels = waitingLabels(msg.message);
    return labels.length ? `: waiting for ${labels.join(' and ')}` : '';
  };
  switch (msg.rule) {
    case 'not-your-turn':
      return { ...msg, message: `Not your turn${wait()}` };
    case 'already-submitted':
      return { ...msg, message: `You have already played this turn${wait()}` };
    case 'game-over':
      return { ...msg, message: 'The game is over' };
    default:
      return { ...msg, message: withSeatNames(msg.message) };
  }
}

/// A refusal from the server, for the action text `sent` (see refusalHtml),
/// shown next to the board; its rule key stays in `data-rule`.
function showRefusal(msg, sent) {
  const el = $('error');
  const html = refusalHtml(plainRefusal(msg), sent);
  // The rule key, last in the sentence, is for scripts and bug reports.
  el.innerHTML = msg.rule ? html.replace(/ \(([^()]*)\)$/, ' <span class="rule-key">($1)</span>') : html;
  el.dataset.rule = msg.rule ?? '';
  el.hidden = false;
  // A short shake says the click or the key did something, and was refused.
  el.classList.remove('cue');
  void el.offsetWidth;
  el.classList.add('cue');
  // The text box still holds what was sent: put the caret where it went wrong.
  const box = $('move-text');
  const start = typeof sent === 'string' ? box.value.indexOf(sent) : -1;
  if (Number.isInteger(msg.at) && start >= 0 && document.activeElement === box) {
    const head = Array.from(sent).slice(0, msg.at).join('');
    box.setSelectionRange(start + head.length, start + sent.length);
  }
}

/// Whether actions wait for a confirmation: the player's choice, else on
/// in timed matches and off in untimed ones.
function confirmOn() {
  const choice = stored(CONFIRM_KEY);
  if (choice) return choice === 'on';
  return !!page.state?.clocks;
}

/// An action built by the board or typed: sent at once, or first shown in
/// the confirm bar. The same action again (a second click) confirms it.
function act(text) {
  const action = String(text ?? '').trim();
  if (!action) return;
  if (confirmOn() && isSeat(page.you)) {
    if (page.staged === action) {
      confirmStaged();
      return;
    }
    stage(action);
    return;
  }
  send(action);
}

function send(action) {
  showError('');
  if (!conn.send({ type: 'act', action })) {
    showError('Not connected: your move was not sent. Reconnecting…');
    return;
  }
  // Drawn on the board until the server's answer.
  page.pending = action;
  if (!rendering) render();
}

function stage(action) {
  showError('');
  // Where the focus was when the action was built: it goes back there once
  // the action is confirmed or cancelled, even by the bar's buttons.
  if (!$('confirm-bar').contains(document.activeElement)) page.stagedFrom = document.activeElement;
  page.staged = action;
  $('confirm-text').innerHTML = stagedHtml(action);
  $('confirm-bar').hidden = false;
  document.body.dataset.staged = action;
  render();
  syncBarSubmit();
}

/// The action waiting for confirmation in words (the board's, when it has
/// them), its notation beside them.
function stagedHtml(action) {
  const words = page.board?.describe?.(action, page.state?.view) ?? null;
  const code = `<code class="staged-notation">${esc(action)}</code>`;
  return words ? `${esc(words)}? ${code}` : `Play ${code}?`;
}

/// A board button whose action waits for confirmation is shown pressed
/// (the board has just been drawn afresh); the board modules draw the rest
/// of a staged action themselves, marking what they draw with data-staged.
function markStaged(action) {
  if (!action) return;
  for (const el of $('board').querySelectorAll('button[data-action]')) {
    if (el.dataset.action !== action) continue;
    el.dataset.staged = '';
    el.setAttribute('aria-pressed', 'true');
  }
}

/// Hides the confirm bar; `reset` also drops the board's half-made choice.
function dropStaged(reset = false) {
  if (page.staged === null || page.staged === undefined) return;
  page.staged = null;
  $('confirm-bar').hidden = true;
  delete document.body.dataset.staged;
  if (reset && page.board && page.state) page.board.reset?.($('board'));
  if (!rendering) render();
  syncBarSubmit();
}

/// The element to keep the focus on across a confirm or a cancel.
function stagedFocus() {
  const active = document.activeElement;
  return $('confirm-bar').contains(active) ? (page.stagedFrom ?? $('board')) : active;
}

function confirmStaged() {
  const action = page.staged;
  if (!action) return;
  const before = stagedFocus();
  if (before !== document.activeElement) before?.focus?.({ preventScroll: true });
  keepFocus(before, focusKey(before), () => {
    dropStaged();
    send(action);
  });
}

function cancelStaged() {
  const before = stagedFocus();
  if (before !== document.activeElement) before?.focus?.({ preventScroll: true });
  keepFocus(before, focusKey(before), () => dropStaged(true));
}

/// The board's own submit button (marked `data-submit`, outside any part
/// the board has put away), mirrored in the action bar so that a phone
/// reaches it without scrolling; the phone's layout hides the board's copy
/// (app.css). A click on the bar's button is a click on the board's.
function boardSubmit() {
  for (const button of $('board').querySelectorAll('[data-submit]')) {
    if (!button.closest('[hidden], .put-away')) return button;
  }
  return null;
}

function syncBarSubmit() {
  const button = boardSubmit();
  const shown = !!button && !page.staged && !page.state?.outcome;
  $('bar-act').hidden = !shown;
  document.body.classList.toggle('bar-submit', shown);
  if (!shown) return;
  const copy = $('bar-submit');
  const text = button.cloneNode(true);
  for (const kbd of text.querySelectorAll('kbd')) kbd.remove();
  if (copy.innerHTML !== text.innerHTML) copy.innerHTML = text.innerHTML;
  copy.disabled = button.disabled;
  copy.title = button.title;
}

$('bar-submit').addEventListener('click', () => boardSubmit()?.click());
new MutationObserver(syncBarSubmit).observe($('board'), { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden'] });

$('confirm-yes').addEventListener('click', () => confirmStaged());
$('confirm-no').addEventListener('click', () => cancelStaged());
// Enter confirms and Escape cancels wherever the focus is, before a board
// or the text box reads the key.
document.addEventListener(
  'keydown',
  (e) => {
    if (!page.staged || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape' || (e.key === 'Enter' && e.target === $('confirm-no'))) {
      e.preventDefault();
      e.stopPropagation();
      cancelStaged();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      e.stopPropagation();
      confirmStaged();
    }
  },
  true,
);

$('confirm-moves').addEventListener('change', (e) => {
  store(CONFIRM_KEY, e.target.checked ? 'on' : 'off');
  if (!e.target.checked) dropStaged(true);
});
$('sound-on').addEventListener('change', (e) => {
  store(SOUND_KEY, e.target.checked ? 'on' : 'off');
  if (e.target.checked) playSound('move-played');
});

/// Asks the server whether `text` would be accepted now, changing nothing:
/// resolves to its `checked` answer ({ok, action} or {ok: false, rule,
/// message, at?, expected?, suggestion?}). Boards use it to validate a
/// choice while the player builds it.
///
/// The server judges one check of a seat at a time (a `busy` answer
/// otherwise): this page sends its checks one after another, and tries
/// again a moment later when another page of the seat has one out.
const CHECK_MS = 10_000;
const checks = new Map();
let checkSeq = 0;
let lastCheck = Promise.resolve();
function check(text) {
  const answer = lastCheck.then(() => checkAgainIfBusy(text));
  lastCheck = answer;
  return answer;
}

async function checkAgainIfBusy(text) {
  for (let tries = 1; ; tries++) {
    const answer = await sendCheck(text);
    if (answer.rule !== 'busy' || tries === 5) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200 * tries));
  }
}

function sendCheck(text) {
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

/// Asks the host about the action in the text box (a host's match): the
/// host sees it with the umpire's verdict, and has the final call.
$('ask-host').addEventListener('click', () => {
  const action = $('move-text').value.trim();
  if (!action) return showError('Type the action to ask the host about.');
  if (!conn.send({ type: 'ask', action })) showError('Not connected: the host was not asked.');
  else setText('asked', 'Asking the host…');
});

function showAsked(msg) {
  const verdict = msg.ok ? 'the umpire would accept it now' : `the umpire refuses it: ${msg.message}`;
  setText('asked', `You asked the host about “${msg.asked}”: ${verdict}. The host has the final call.`);
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
      $('role').dataset.you = msg.you;
      $('help').textContent = page.board?.help ?? 'Type your action in the game’s notation.';
      // How to play (clicks, keys) is for the seats only.
      $('help-box').hidden = !isSeat(msg.you);
      // Players on a wide screen see how to play at once; phones keep it folded.
      if (!page.greeted && isSeat(msg.you) && matchMedia('(min-width: 761px)').matches) $('help-box').open = true;
      page.greeted = true;
      // A seat's page is remembered for the lobby's "Your matches".
      if (isSeat(msg.you) && token) {
        rememberMatch({ id, seat: msg.you, game: msg.game, name: msg.name, link: location.pathname + location.search });
      }
      $('move-text').placeholder = page.board?.example ?? 'your action';
      // In a host's match a player may ask the host before acting.
      $('ask-host').hidden = !(msg.host && isSeat(msg.you));
      // Secrets of the game a host set rather than the draw: everyone is told.
      const fixed = msg.fixed ?? [];
      $('fixed-note').hidden = fixed.length === 0;
      $('fixed-note').textContent = fixed.length ? `The host set this match's ${fixed.join(', ')} (not drawn at random).` : '';
      break;
    }
    case 'state': {
      if (page.state && msg.seq < page.state.seq && !msg.outcome) break;
      const prev = page.state;
      page.state = msg;
      page.stateAt = performance.now();
      if (page.pending && !acting(msg)) page.pending = null;
      $('clock-note').hidden = true;
      render();
      if (prev) {
        if (msg.outcome && !prev.outcome) playSound('game-over');
        else if (!msg.outcome && acting(msg) && !acting(prev)) playSound('your-turn');
        else if (!msg.outcome && msg.seq > prev.seq) playSound('move-played');
      }
      break;
    }
    case 'presence':
      // A seat's person came or went: only the seats change.
      if (page.state) {
        page.state = { ...page.state, seats: msg.seats };
        page.stateAt = performance.now();
        render();
      }
      break;
    case 'accepted':
      page.pending = null;
      $('move-text').value = '';
      showError('');
      break;
    case 'checked':
      onChecked(msg);
      break;
    case 'asked':
      showAsked(msg);
      break;
    case 'rematch':
      onRematch(msg);
      break;
    case 'chat':
      chat.receive(msg);
      break;
    case 'log':
      $('log-box').hidden = false;
      matchLog.receive(msg);
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
      if (msg.rule === 'chat') {
        chat.said(msg.message);
        break;
      }
      if (msg.rule === 'gone') {
        showGone('off', msg.message);
        break;
      }
      if (msg.rule === 'replaced') {
        showGone('replaced');
        break;
      }
      // The match moves to another node: the connection opens again there.
      if (msg.rule === 'moved') break;
      showRefusal(msg, page.pending);
      page.pending = null;
      if (page.board && page.state) page.board.reset?.($('board'));
      render();
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
  // Lost: the clocks stop where they are, with a note, until the next
  // state (which follows a reconnection) sets them again.
  if (status === 'retrying' || status === 'closed' || (status === 'connecting' && page.state)) {
    clocks.freeze();
    const over = !!page.state?.outcome;
    // (A link that opens nothing has no clocks: showGone replaced them.)
    const note = $('clock-note');
    if (note) {
      note.hidden = !page.state || !page.state.clocks || over;
      note.textContent = status === 'closed' ? 'Clocks paused: disconnected.' : 'Clocks paused: reconnecting…';
    }
  }
}

const conn = new Connection(wsUrl(id, token), { onMessage, onStatus });

// The chat and the match log, in the seats' names.
const chat = new ChatPanel({ seatLabel, time: matchTime, send: (text) => conn.send({ type: 'chat', text }) });
const matchLog = new MatchLog($('log'), (line) => logLineHtml(line, withSeatNames, seatLabel, matchTime));

/// A link that opens nothing: one clear page, with the way back to the lobby
/// (and, for a refused key, the spectator's link), instead of empty seats.
/// `why`: 'unknown' (no such match), 'refused' (a wrong key) or 'off' (the
/// match was called off; `detail` is the server's sentence).
function showGone(why, detail = '') {
  const title = { unknown: 'No such match', refused: 'This link’s key was refused', off: 'This match was called off', replaced: 'This page is closed', private: 'Not open to the audience yet' }[why];
  const text = {
    unknown: 'There is no match at this link: it may be mistyped.',
    refused: 'The key in this link does not open this match. Ask whoever sent it for your link, or watch as a spectator.',
    off: `${detail ? `${detail[0].toUpperCase()}${detail.slice(1)}.` : ''} Create a new match from the lobby.`,
    replaced: 'This link was opened in newer pages or devices (eight at most at once), so this page was closed. Reload it to use it here.',
    private: `${detail ? `${detail[0].toUpperCase()}${detail.slice(1)}.` : ''} Reload this page then.`,
  }[why];
  const watch = why === 'refused' ? ` <a class="button" href="/m/${encodeURIComponent(id)}">Watch as a spectator</a>` : '';
  // The page's one h1 is this title: the header's name steps down to text.
  const name = $('game-name');
  if (name?.tagName === 'H1') {
    const span = document.createElement('span');
    span.id = name.id;
    span.className = name.className;
    span.textContent = name.textContent;
    name.replaceWith(span);
  }
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
    if (x.status === 403 && !token) {
      showGone('private', x.message);
      onStatus('closed', 'not open to the audience yet');
      return;
    }
    if (x.status === 403 || x.status === 404 || x.status === 410) {
      showGone({ 403: 'refused', 404: 'unknown', 410: 'off' }[x.status], x.message);
      onStatus('closed', { 403: 'link refused', 404: 'no such match', 410: 'called off' }[x.status]);
      return;
    }
  }
  conn.open();
}

start();

/// The header's and the action bar's heights, for the layout: the page
/// keeps room for the bar, and boards fit between the two.
function measureChrome() {
  const root = document.documentElement.style;
  const sizes = new ResizeObserver(() => {
    root.setProperty('--top-h', `${document.querySelector('.top')?.offsetHeight ?? 0}px`);
    root.setProperty('--bar-h', `${$('action-bar')?.offsetHeight ?? 0}px`);
  });
  sizes.observe(document.querySelector('.top'));
  sizes.observe($('action-bar'));
}

measureChrome();

/// A wide table in the end's detail scrolls sideways on a phone: it takes
/// the keyboard focus (so the keys can scroll it), as a region named by its
/// caption.
function focusableTables(root) {
  for (const wrap of root.querySelectorAll('.table-wrap')) {
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', `${wrap.querySelector('caption')?.textContent ?? 'Table'} (scrolls sideways)`);
  }
}
