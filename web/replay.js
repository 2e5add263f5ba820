// The replay page: every step of a finished match with the umpire's full
// view, from the server (/api/matches/{id}/replay) or from a record file.
import { boardFor, seatsOf } from './games/index.js';
import { lineHtml } from './chat.js';
import { ReplaySteps } from './replay-steps.js';
import { esc, getJson, matchTime as fmtTime, postJson, seatWords } from './util.js';

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const token = new URLSearchParams(location.search).get('t');

let replay = null;
let board = null;
let step = 0;


/// A seat's name: the player's, with the colour it plays ("Ada (Red)"),
/// else the colour (from the board module), else P1/P2.
function seatLabel(seat) {
  const colour = seatsOf(board)[seat]?.label ?? seat;
  const name = replay?.record?.seats?.[seat]?.name;
  return name ? `${name} (${colour})` : colour;
}
const words = (text) => seatWords(text, seatLabel);

/// What an entry did, in words first ("Red: Red on E5, blue on F5"), the
/// notation beside; a timeout says so, with what the rules did then.
function entryHtml(entry, before) {
  const who = `<span class="seat-name ${entry.seat === 'P1' ? 'p1' : 'p2'}">${esc(seatLabel(entry.seat))}</span>`;
  if (entry.action === 'timeout') {
    return `${who}’s time ran out${entry.effect ? `: ${esc(words(entry.effect))}` : ''}`;
  }
  if (entry.action === 'resign') return `${who} resigned`;
  const said = before ? board?.describe?.(entry.action, before) : null;
  const code = `<code>${esc(entry.action)}</code>${esc(byWords(entry))}`;
  return said ? `${who}: ${esc(words(said))} ${code}` : `${who}: ${code}`;
}

/// The text of an entry's line (for the step's heading).
function entryWords(entry, before) {
  const el = document.createElement('span');
  el.innerHTML = entryHtml(entry, before);
  return el.textContent;
}

/// Each step's place in the game, counted as the game counts: a board
/// module's `moveOf(before, entry)` names the entry with a noun ("Move",
/// "Pick", "Turn") that is numbered here ("Move 7 of 31"), or gives its
/// place in the game's own terms (`{label: "Round 2, turn 3"}`); without
/// one, every entry is a move. A resignation is always named so.
function moveLabels(steps) {
  const counts = {};
  const named = [null];
  steps.each((i, before) => {
    const entry = steps.entry(i + 1);
    if (!entry) return;
    if (entry.action === 'resign') return named.push({ label: 'Resignation' });
    const what = board?.moveOf?.(before, entry) ?? 'Move';
    if (typeof what !== 'string') return named.push(what);
    counts[what] = (counts[what] ?? 0) + 1;
    named.push({ noun: what, n: counts[what] });
  });
  return named.map((l) => l && (l.label ?? `${l.noun} ${l.n} of ${counts[l.noun]}`));
}

let labels = [];
/// Each step's line in words, and the view before it.
let lines = [];

/// Who made an entry when not the seat: "entered by the host", "the
/// umpire's ruling".
function byWords(entry) {
  if (entry.by === 'host') return ' (entered by the host)';
  if (entry.by === 'umpire') return ' (the umpire’s ruling)';
  return '';
}

function load(data) {
  const steps = new ReplaySteps(data.steps ?? []);
  replay = { ...data, steps };
  board = boardFor(data.game);
  labels = moveLabels(steps);
  lines = [null];
  steps.each((i, before) => {
    const entry = steps.entry(i + 1);
    if (entry) lines.push({ html: entryHtml(entry, before), text: entryWords(entry, before) });
  });
  $('game-name').textContent = `Replay · ${board?.name ?? data.game}`;
  $('slider').max = String(steps.length - 1);
  $('step-count').textContent = String(steps.length - 1);
  // Numbered once, by the game's own count; each line with the clock time
  // it was played at and how long it took.
  $('moves').innerHTML = steps.entries
    .slice(1)
    .map((entry, i) => {
      const took = entry.at_ms - (steps.entry(i)?.at_ms ?? 0);
      return (
        `<li><button type="button" class="move-button" data-step="${i + 1}"><span class="move-label">${esc(labels[i + 1])}</span> ` +
        `<span class="move-words">${lines[i + 1].html}</span> ` +
        `<span class="hint move-time">at ${fmtTime(entry.at_ms)} (${fmtTime(took)})</span></button></li>`
      );
    })
    .join('');
  $('controls').hidden = false;
  show(steps.length - 1);
}

function show(n) {
  const steps = replay.steps;
  step = Math.max(0, Math.min(steps.length - 1, n));
  const entry = steps.entry(step);
  const view = steps.view(step);
  const final = step === steps.length - 1;
  const outcome = replay.outcome ?? replay.record?.outcome;
  if (board) {
    const ctx = { you: 'umpire', acting: false, kind: null, decision: null, submit: () => {}, final: final && !!outcome };
    board.render($('board'), view, ctx);
    $('last').textContent = words(board.status(view));
  } else {
    $('board').innerHTML = `<pre class="raw-view">${esc(JSON.stringify(view, null, 1))}</pre>`;
  }
  $('step-text').textContent = entry
    ? `${labels[step]}: ${lines[step].text}, at ${fmtTime(entry.at_ms)}`
    : `Start (${steps.length - 1} steps in all)`;
  $('slider').value = String(step);
  $('step-no').textContent = String(step);
  $('first').disabled = $('prev').disabled = step === 0;
  $('next').disabled = $('last-step').disabled = final;
  for (const b of document.querySelectorAll('.move-button')) {
    b.classList.toggle('current', Number(b.dataset.step) === step);
    if (Number(b.dataset.step) === step) {
      b.setAttribute('aria-current', 'step');
      const list = $('moves');
      const li = b.parentElement;
      if (li.offsetTop < list.scrollTop || li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = li.offsetTop - list.clientHeight / 2;
      }
    }
    else b.removeAttribute('aria-current');
  }
  $('end').hidden = !(final && outcome);
  if (final && outcome) {
    $('end-title').textContent = outcome.winner ? `${seatLabel(outcome.winner)} wins` : 'Draw';
    $('end-reason').textContent = words(outcome.reason ?? '');
    $('end-decided').innerHTML = outcome.decided_by ? `Decided by: <strong>${esc(outcome.decided_by)}</strong>` : '';
    const scores = outcome.scores ?? {};
    $('end-scores').innerHTML = ['P1', 'P2']
      .map((s) => `<span class="score${outcome.winner === s ? ' won' : ''}"><span class="seat-name ${s === 'P1' ? 'p1' : 'p2'}">${esc(seatLabel(s))}</span> <strong>${esc(scores[s] ?? 0)}</strong></span>`)
      .join('');
    $('end-detail').innerHTML = board?.ending(view, outcome) ?? '';
    focusableTables($('end-detail'));
  }
  if (chatLines.length) showChat();
}

/// The match's chat (both rooms), once loaded: each line greyed while the
/// step shown is earlier than it.
let chatLines = [];

function showChat() {
  $('chat-box').hidden = !chatLines.length;
  const at = replay?.steps.entry(step)?.at_ms ?? 0;
  for (const room of ['players', 'spectators']) {
    const lines = chatLines.filter((l) => l.room === room);
    $(`chat-${room}`).innerHTML = lines.length
      ? lines.map((l) => lineHtml(l, seatLabel, fmtTime).replace('<li class="chat-line"', `<li class="chat-line${l.at_ms > at ? ' later' : ''}"`)).join('')
      : '<li class="hint">Nothing said.</li>';
  }
}

function showError(text) {
  $('error').textContent = text;
  $('error').hidden = !text;
}

$('first').addEventListener('click', () => show(0));
$('prev').addEventListener('click', () => show(step - 1));
$('next').addEventListener('click', () => show(step + 1));
$('last-step').addEventListener('click', () => show(Infinity));
$('slider').addEventListener('input', (e) => show(Number(e.target.value)));
$('moves').addEventListener('click', (e) => {
  const b = e.target.closest('[data-step]');
  if (b) show(Number(b.dataset.step));
});
document.addEventListener('keydown', (e) => {
  if (!replay || e.target.matches('input[type=file], input[type=range]')) return;
  const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: Infinity }[e.key];
  if (to === undefined || e.target.closest('[data-cell]')) return;
  e.preventDefault();
  show(to);
});

/// The server answers one replay at a time and refuses (503) the ones that
/// would wait long: ask again a few times, a little later each time, saying
/// so, before giving up.
async function whenFree(ask) {
  for (let wait = 1; ; wait++) {
    try {
      return await ask();
    } catch (x) {
      if (x.status !== 503 || wait > 6) throw x;
      showError(`The server is busy with other replays; asking again in ${wait} s…`);
      await new Promise((done) => setTimeout(done, wait * 1000));
      showError('');
    }
  }
}

$('file').addEventListener('change', async (e) => {
  const file = e.target.files?.[0];
  if (!file) return;
  showError('');
  try {
    const record = JSON.parse(await file.text());
    load(await whenFree(() => postJson('/api/replay', record)));
  } catch (x) {
    showError(`This record does not replay: ${x.message}`);
  }
});

if (id) {
  $('open-file').hidden = true;
  whenFree(() => getJson(`/api/matches/${encodeURIComponent(id)}/replay${token ? `?t=${encodeURIComponent(token)}` : ''}`))
    .then(load)
    .then(() => getJson(`/api/matches/${encodeURIComponent(id)}/chat${token ? `?t=${encodeURIComponent(token)}` : ''}`))
    .then((chat) => {
      chatLines = chat.lines ?? [];
      showChat();
    })
    .catch((x) => showError(x.status === 409 ? 'This match is not over yet: its replay opens at the end.' : `Could not load the replay: ${x.message}`));
}

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
