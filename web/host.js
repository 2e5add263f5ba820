// The host's console: one page to run a Death Match in a chat room. It
// shows the whole board (the umpire's view), each player's pending
// decision and clock with a box to enter the action the player sent by
// private message, and after every step what to send each player and what
// to post for the audience, each with a picture drawn by the game's board
// module from that viewer's own view. Every text and view comes from the
// server, built for its viewer (GET /api/matches/{id}/console); the page
// filters nothing. The page names no game.
import { ClockBoard, formatMs } from './clock.js';
import { Connection, wsUrl } from './connection.js';
import { boardFor, doingFor, stylesheetFor } from './games/index.js';
import { blobOf, pictureOf } from './picture.js';
import { copyText, esc, getJson, myMatches, refusalHtml } from './util.js';

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const token = new URLSearchParams(location.search).get('t') ?? '';
const SEATS = ['P1', 'P2'];
const VIEWERS = ['P1', 'P2', 'spectator'];

/// Under this much time left (turn time, and the bank or periods it may
/// still draw on) a running clock is warned of: players in a chat room
/// cannot see the server's clocks.
const WARN_MS = 30_000;

const page = {
  game: null,
  name: null,
  board: null,
  rulings: '',
  state: null,
  bundle: null,
  /// The seat whose action, check or ruling the host sent last.
  sent: null,
  pictures: {},
  warned: {},
  log: [],
  loggedSeq: -1,
};

// --- words ------------------------------------------------------------------

/// "Ada (P1)", or "P1" when the seat has no name.
function who(seat, state = page.state) {
  const name = state?.seats?.[seat]?.name;
  return name ? `${name} (${seat})` : seat;
}

/// The first name, for buttons ("Enter Ada's action").
function short(seat) {
  return page.state?.seats?.[seat]?.name ?? seat;
}

/// Inline `code` spans of a sentence as HTML.
function withCode(text) {
  return esc(text).replace(/`([^`]*)`/g, '<code>$1</code>');
}

// --- the seats' panels --------------------------------------------------------

function seatPanel(seat) {
  const rulings = page.rulings
    ? `<form class="rule" id="rule-${seat}" autocomplete="off">
         <label for="ruling-${seat}">Your ruling on <span data-short="${seat}">${seat}</span>’s play</label>
         <div class="move-row"><input id="ruling-${seat}" spellcheck="false" autocapitalize="off">
         <button type="submit">Rule</button></div>
         <details class="help"><summary>How to write a ruling</summary><p>${withCode(page.rulings)}</p></details>
       </form>`
    : '';
  return `<section class="panel seat-panel" id="seat-${seat}" aria-labelledby="seat-${seat}-title" data-seat="${seat}">
    <h2 id="seat-${seat}-title"><span class="chip ${esc(page.board?.seats?.[seat]?.className ?? seat.toLowerCase())}" id="chip-${seat}"></span></h2>
    <div class="seat-status">
      <p id="pending-${seat}" class="pending"></p>
      <div class="clock" id="clock-${seat}"><span class="clock-turn" id="clock-${seat}-turn">–</span><span class="clock-bank" id="clock-${seat}-bank"></span></div>
    </div>
    <form class="enter" id="enter-${seat}" autocomplete="off">
      <label for="action-${seat}">Enter <span data-short="${seat}">${seat}</span>’s action, as they sent it</label>
      <div class="move-row"><input id="action-${seat}" spellcheck="false" autocapitalize="off">
      <button type="submit" class="primary">Enter</button>
      <button type="button" id="check-${seat}">Check</button></div>
    </form>
    <p id="answer-${seat}" class="answer" role="status"></p>
    ${rulings}
    <p class="seat-actions"><button type="button" id="resign-${seat}">Resign for <span data-short="${seat}">${seat}</span></button></p>
    <h3>Private message for <span data-short="${seat}">${seat}</span></h3>
    <pre id="text-${seat}" class="message" tabindex="0" aria-label="The private message for ${seat}"></pre>
    <p class="copy-row"><button type="button" data-copy-text="${seat}">Copy the message</button></p>
    <figure class="picture"><img id="picture-${seat}" alt=""><figcaption id="picture-${seat}-caption"></figcaption></figure>
    <p class="copy-row"><button type="button" data-copy-picture="${seat}">Copy the picture</button> <a class="button" id="download-${seat}" download="${seat}.png" href="#">Download the picture</a></p>
  </section>`;
}

function buildPanels() {
  $('seat-panels').innerHTML = SEATS.map(seatPanel).join('');
  for (const seat of SEATS) {
    $(`enter-${seat}`).addEventListener('submit', (e) => {
      e.preventDefault();
      const action = $(`action-${seat}`).value.trim();
      if (action) send(seat, { type: 'act', seat, action }, `Entering \`${action}\` for ${who(seat)}…`);
    });
    $(`check-${seat}`).addEventListener('click', () => {
      const action = $(`action-${seat}`).value.trim();
      if (action) send(seat, { type: 'check', seat, action, id: ++page.checks }, 'Checking…');
    });
    $(`rule-${seat}`)?.addEventListener('submit', (e) => {
      e.preventDefault();
      const ruling = $(`ruling-${seat}`).value.trim();
      if (ruling) send(seat, { type: 'rule', seat, ruling }, 'Ruling…');
    });
    armTwice($(`resign-${seat}`), () => send(seat, { type: 'resign', seat }, `Resigning for ${who(seat)}…`));
  }
}
page.checks = 0;

/// A button that acts on a second click within 4 s (the first arms it).
function armTwice(button, act) {
  let armed = null;
  const label = button.innerHTML;
  button.addEventListener('click', () => {
    if (!armed) {
      button.textContent = 'Really? Click again';
      button.classList.add('danger');
      armed = setTimeout(() => {
        armed = null;
        button.innerHTML = label;
        button.classList.remove('danger');
      }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = null;
    button.innerHTML = label;
    button.classList.remove('danger');
    act();
  });
}

function send(seat, msg, doing) {
  page.sent = { seat, msg };
  answer(seat, doing, 'busy');
  if (!conn.send(msg)) answer(seat, 'Not connected: nothing was sent. Reconnecting…', 'bad');
}

/// Says `html` under `seat`'s entry box (`kind`: ok, bad or busy).
function answer(seat, html, kind) {
  const el = $(`answer-${seat}`);
  if (!el) return;
  el.innerHTML = kind === 'busy' ? withCode(html) : html;
  el.dataset.kind = kind;
}

// --- rendering ----------------------------------------------------------------

const clocks = new ClockBoard((seat, shown) => {
  const turn = $(`clock-${seat}-turn`);
  if (!turn) return;
  turn.textContent = formatMs(shown.turn);
  let extra = shown.bank > 0 ? `bank ${formatMs(shown.bank)}` : '';
  if (shown.periods > 0) extra += `${extra ? ' · ' : ''}${shown.periods} × ${formatMs(shown.period)}`;
  $(`clock-${seat}-bank`).textContent = extra;
  const left = shown.turn + (shown.overtime ? shown.bank + shown.periods * shown.period : 0);
  const low = shown.running && left < WARN_MS;
  const box = $(`clock-${seat}`);
  box.classList.toggle('running', shown.running);
  box.classList.toggle('low', low);
  box.setAttribute('aria-label', `${who(seat)}’s clock${shown.running ? ', running' : ''}${low ? ', low time' : ''}`);
  warn(seat, low, shown);
});

/// Warns once when `seat`'s running clock gets low (the countdown itself is
/// in its panel), and says what runs out; the warning goes when the clock
/// is no longer low.
function warn(seat, low, shown) {
  let el = document.querySelector(`#warnings [data-seat="${seat}"]`);
  if (!low) {
    el?.remove();
    return;
  }
  if (el) return;
  const what = shown.turn > 0 ? 'turn time' : shown.bank > 0 ? 'bank' : 'reserve time';
  el = document.createElement('p');
  el.className = 'warning';
  el.dataset.seat = seat;
  el.textContent = `${who(seat)}’s ${what} has less than ${WARN_MS / 1000} seconds left: tell them. At 0:00 the game’s timeout rule applies.`;
  $('warnings').append(el);
}

/// A board module's context for `you` looking at `state`, acting on
/// nothing: the console enters actions in words, and pictures are still.
function looking(you, state) {
  return {
    you,
    acting: false,
    kind: null,
    decision: state.decision ?? null,
    legal: null,
    submit: () => {},
    check: async () => ({ ok: false }),
    final: !!state.outcome,
  };
}

function renderState() {
  const state = page.state;
  if (!state) return;
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.over = state.outcome ? 'yes' : 'no';
  if (page.board) {
    page.board.render($('board'), state.view, looking('umpire', state));
    $('last').textContent = page.board.status(state.view) ?? '';
  } else {
    $('board').innerHTML = `<pre class="raw-view">${esc(JSON.stringify(state.view, null, 1))}</pre>`;
  }
  $('turn').textContent = turnText(state);
  for (const seat of SEATS) {
    $(`chip-${seat}`).innerHTML =
      `<span class="chip-mark" aria-hidden="true">${esc(page.board?.seats?.[seat]?.mark ?? seat.slice(1))}</span> ${esc(who(seat))}` +
      (page.board?.seats?.[seat]?.label ? ` <span class="chip-seat">${esc(page.board.seats[seat].label)}</span>` : '');
    for (const el of document.querySelectorAll(`[data-short="${seat}"]`)) el.textContent = short(seat);
    const pending = state.outcome ? null : state.decision?.[seat];
    $(`pending-${seat}`).textContent = pending
      ? `${short(seat)} to ${doingFor(page.board, pending.kind)}.`
      : state.outcome ? 'The match is over.' : `${short(seat)} has nothing to decide now.`;
    $(`seat-${seat}`).classList.toggle('to-move', !!pending);
    $(`picture-${seat}`).alt = `The board as ${who(seat)} sees it`;
    $(`text-${seat}`).setAttribute('aria-label', `The private message for ${who(seat)}`);
    $(`picture-${seat}-caption`).textContent = `The board as ${who(seat)} sees it: send it with the message.`;
  }
  if (state.clocks) clocks.set(state.clocks);
  else {
    clocks.set(null);
    for (const seat of SEATS) $(`clock-${seat}-turn`).textContent = 'untimed';
  }
  document.title = `Host’s console · ${page.name ?? 'match'} · Umpire`;
}

function turnText(state) {
  if (state.outcome) {
    const w = state.outcome.winner;
    return w ? `Game over: ${who(w)} wins.` : 'Game over: a draw.';
  }
  const seats = state.decision?.seats ?? [];
  if (!seats.length) return 'Waiting…';
  return `${seats.map((s) => `${who(s)} to ${doingFor(page.board, state.decision[s]?.kind)}`).join('; ')}. Their clocks run.`;
}

/// The texts of the latest console bundle, and the log's new event.
function renderTexts() {
  const bundle = page.bundle;
  if (!bundle) return;
  for (const viewer of VIEWERS) $(`text-${viewer}`).textContent = bundle[viewer]?.words?.message ?? '';
  const umpire = bundle.umpire;
  const seq = umpire?.state?.seq ?? 0;
  if (seq > page.loggedSeq) {
    page.loggedSeq = seq;
    if (umpire?.words?.event) logLine(umpire.words.event);
  }
  const result = umpire?.words?.result;
  $('result').hidden = !result;
  if (result) {
    const record = new URL(`/api/matches/${encodeURIComponent(id)}/record`, location.href).href;
    const replay = new URL(`/replay/${encodeURIComponent(id)}`, location.href).href;
    $('text-result').textContent = `${page.name}: ${result}\nRecord: ${record}\nReplay: ${replay}\n`;
    $('record-link').href = record;
    $('record-link').setAttribute('download', `${page.game ?? 'match'}-${id}.json`);
    $('replay-link').href = replay;
    if (!page.announced) {
      page.announced = true;
      $('result-title').focus({ preventScroll: true });
    }
  }
}

function logLine(text, kind = 'event') {
  const li = document.createElement('li');
  li.className = `log-${kind}`;
  li.innerHTML = withCode(text);
  $('log').append(li);
}

// --- pictures -------------------------------------------------------------------

/// A frame in the stage holding `viewer`'s board, drawn by the board module
/// from the `state` that viewer is sent.
function frame(viewer, state, caption) {
  let box = document.querySelector(`#pictures [data-viewer="${viewer}"]`);
  if (!box) {
    box = document.createElement('div');
    box.className = 'picture-frame';
    box.dataset.viewer = viewer;
    box.innerHTML = '<p class="picture-caption"></p><div class="board"></div><p class="picture-last"></p>';
    $('pictures').append(box);
  }
  box.querySelector('.picture-caption').textContent = caption;
  const board = box.querySelector('.board');
  if (page.board) {
    page.board.render(board, state.view, looking(viewer === 'result' ? 'spectator' : viewer, state));
    box.querySelector('.picture-last').textContent = page.board.status(state.view) ?? '';
  } else {
    board.innerHTML = `<pre class="raw-view">${esc(JSON.stringify(state.view, null, 1))}</pre>`;
  }
  return box;
}

/// A PNG of `viewer`'s board from the `state` it is sent: the same board
/// module, drawn from that viewer's own view only. (Exported on
/// `window.umpireHost` for tests and user scripts.)
async function picture(state, viewer) {
  const label = viewer === 'spectator' ? 'for the audience' : viewer === 'result' ? 'the result' : `for ${who(viewer, state)}`;
  const box = frame(viewer, state, `${page.name ?? ''} · ${label}`);
  const sheets = ['/static/app.css', '/static/host.css'];
  if (page.board) sheets.push(stylesheetFor(page.game));
  return pictureOf(box, sheets);
}

/// Draws every viewer's picture of the latest bundle, one bundle at a time;
/// a bundle overtaken by a newer one is not finished.
async function drawPictures() {
  if (page.drawing) {
    page.drawAgain = true;
    return;
  }
  page.drawing = true;
  try {
    do {
      page.drawAgain = false;
      const bundle = page.bundle;
      const seq = bundle?.umpire?.state?.seq;
      const jobs = VIEWERS.map((v) => [v, bundle?.[v]?.state]);
      if (bundle?.umpire?.state?.outcome) jobs.push(['result', bundle.umpire.state]);
      for (const [viewer, state] of jobs) {
        if (!state || page.drawAgain) break;
        const url = await picture(state, viewer);
        page.pictures[viewer] = url;
        $(`picture-${viewer}`).src = url;
        $(`picture-${viewer}`).dataset.seq = String(seq);
        $(`download-${viewer}`).href = url;
      }
      if (!page.drawAgain) document.body.dataset.pictured = String(seq);
    } while (page.drawAgain);
  } catch (e) {
    logLine(`The pictures could not be drawn: ${e.message ?? e}`, 'bad');
  } finally {
    page.drawing = false;
  }
}

window.umpireHost = { picture };

// --- the console's data ---------------------------------------------------------

/// Fetches every viewer's state and words for the latest step.
async function refresh() {
  const asked = ++page.refreshes;
  let bundle;
  try {
    bundle = await getJson(`/api/matches/${encodeURIComponent(id)}/console?t=${encodeURIComponent(token)}`);
  } catch (e) {
    logLine(`The console could not be refreshed: ${e.message}`, 'bad');
    return;
  }
  if (asked !== page.refreshes) return;
  page.bundle = bundle;
  renderTexts();
  drawPictures();
}
page.refreshes = 0;

// --- messages ---------------------------------------------------------------------

function onMessage(msg) {
  switch (msg.type) {
    case 'hello':
      if (msg.you !== 'umpire') {
        showGone('This link is not a host’s: the console opens with the umpire’s link of a match a host runs.');
        conn.stop('not the umpire');
        return;
      }
      page.game = msg.game;
      page.name = msg.name;
      page.board = boardFor(msg.game);
      page.rulings = msg.host ? (msg.rulings ?? '') : '';
      page.hosted = !!msg.host;
      page.audience = msg.audience !== false;
      $('title').textContent = `Host’s console · ${msg.name}`;
      if (!$('seat-panels').children.length) buildPanels();
      if (!msg.host) logLine('This match has no host: you may watch and copy, but not act for a player.', 'bad');
      renderLinks();
      break;
    case 'state': {
      if (page.state && msg.seq < page.state.seq && !msg.outcome) break;
      const changed = !page.state || msg.seq !== page.state.seq || !!msg.outcome !== !!page.state.outcome;
      page.state = msg;
      renderState();
      if (changed) refresh();
      break;
    }
    case 'presence':
      if (page.state) page.state = { ...page.state, seats: msg.seats };
      renderState();
      break;
    case 'accepted':
      if (page.sent) {
        const { seat, msg: sent } = page.sent;
        const what = sent.type === 'rule' ? 'Ruling made' : sent.type === 'resign' ? 'Resigned' : 'Entered';
        answer(seat, `${what}: <code>${esc(msg.action)}</code>.`, 'ok');
        logLine(`You ${sent.type === 'rule' ? 'ruled on' : 'entered for'} ${who(seat)}: \`${msg.action}\``, 'host');
        if (sent.type === 'act') $(`action-${seat}`).value = '';
        if (sent.type === 'rule') $(`ruling-${seat}`).value = '';
        page.sent = null;
      }
      break;
    case 'checked':
      if (page.sent?.msg.type === 'check') {
        const seat = page.sent.seat;
        if (msg.ok) answer(seat, `The umpire would accept <code>${esc(msg.action)}</code> now.`, 'ok');
        else answer(seat, refusalHtml(msg, page.sent.msg.action), 'bad');
      }
      break;
    case 'refused':
      logLine(`${who(msg.seat)} sent \`${msg.action}\` at their page; the umpire refused it: ${msg.message} (${msg.rule})`, 'refused');
      break;
    case 'asked': {
      const verdict = msg.ok ? `the umpire would accept \`${msg.action}\`` : `the umpire refuses it: ${msg.message} (${msg.rule})`;
      logLine(`${who(msg.seat)} asks you about \`${msg.asked}\`: ${verdict}. Your call: rule, or answer them.`, 'asked');
      break;
    }
    case 'error':
      if (['gone', 'auth'].includes(msg.rule)) {
        showGone(msg.message);
        break;
      }
      if (page.sent) {
        answer(page.sent.seat, refusalHtml(msg, page.sent.msg.action ?? page.sent.msg.ruling), 'bad');
        page.sent = null;
      } else {
        logLine(msg.message, 'bad');
      }
      break;
    default:
      break;
  }
}

function showGone(text) {
  document.querySelector('main').innerHTML = `<section class="gone"><h2>The console cannot open</h2><p>${esc(text)}</p><p><a class="button primary" href="/">Go to the lobby</a></p></section>`;
}

/// The links a host hands out: each seat's (as the lobby kept them in this
/// browser) and the audience's.
function renderLinks() {
  const mine = myMatches().find((m) => m.id === id && m.seatLinks);
  const rows = [];
  const row = (label, path, note) => {
    const url = new URL(path, location.href).href;
    rows.push(`<li><span class="link-label">${esc(label)}</span><a class="link-url" href="${esc(url)}">${esc(url)}</a><button type="button" class="copy" data-copy="${esc(url)}">Copy</button>${note ? `<span class="hint">${esc(note)}</span>` : ''}</li>`);
  };
  for (const seat of SEATS) {
    if (mine?.seatLinks?.[seat]) row(who(seat), mine.seatLinks[seat], 'send it by private message: the player may also play at the page');
  }
  row('Audience', `/m/${encodeURIComponent(id)}`, page.audience ? 'the public page: anyone may watch' : 'the public page: it opens once the match is over');
  if (!mine) rows.push('<li class="hint">The seats’ links are in the lobby where you created the match.</li>');
  $('links').innerHTML = rows.join('');
}

const STATUS_TEXT = { connecting: 'Connecting…', open: 'Connected', retrying: 'Reconnecting', closed: 'Disconnected' };

function onStatus(status, detail) {
  $('conn').dataset.state = status;
  $('conn-text').textContent = status === 'closed' && detail ? `Disconnected: ${detail}` : STATUS_TEXT[status];
  if (status !== 'open') clocks.freeze();
}

// --- copying ---------------------------------------------------------------------

function said(text) {
  $('copied').textContent = '';
  setTimeout(() => ($('copied').textContent = text), 50);
}

document.addEventListener('click', async (e) => {
  const button = e.target.closest('button');
  if (!button) return;
  if (button.dataset.copy) {
    said((await copyText(button.dataset.copy)) ? 'Link copied.' : 'Copy failed: select the link.');
  } else if (button.dataset.copyText) {
    const text = $(`text-${button.dataset.copyText}`).textContent;
    said((await copyText(text)) ? 'Text copied.' : 'Copy failed: select the text.');
  } else if (button.dataset.copyPicture) {
    const url = page.pictures[button.dataset.copyPicture];
    if (!url) return said('The picture is not drawn yet.');
    try {
      await navigator.clipboard.write([new ClipboardItem({ 'image/png': blobOf(url) })]);
      said('Picture copied.');
    } catch {
      said('This browser does not copy pictures here: use Download the picture.');
    }
  }
});

const conn = new Connection(wsUrl(id, token), { onMessage, onStatus });
conn.open();
