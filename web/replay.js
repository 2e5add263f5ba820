// The replay page: every step of a finished match with the umpire's full
// view, from the server (/api/matches/{id}/replay) or from a record file.
import { boardFor } from './games/index.js';
import { ReplaySteps } from './replay-steps.js';
import { esc, getJson, postJson } from './util.js';

const $ = (id) => document.getElementById(id);
const id = decodeURIComponent(location.pathname.split('/')[2] ?? '');
const token = new URLSearchParams(location.search).get('t');

let replay = null;
let board = null;
let step = 0;

function fmtTime(ms) {
  const s = Math.floor((ms ?? 0) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/// An entry's action, with a timeout's effect: "timeout (P1 loses)".
function entryText(entry) {
  return `${entry.action}${entry.effect ? ` (${entry.effect})` : ''}`;
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

/// A seat as the record names it: "Ada (P1)", or "P1".
function seatWho(seat) {
  const name = replay?.record?.seats?.[seat]?.name;
  return name ? `${name} (${seat})` : seat;
}

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
  $('game-name').textContent = `Replay · ${board?.name ?? data.game}`;
  $('slider').max = String(steps.length - 1);
  $('step-count').textContent = String(steps.length - 1);
  $('moves').innerHTML = steps.entries
    .slice(1)
    .map(
      (entry, i) =>
        `<li><button type="button" class="move-button" data-step="${i + 1}"><span class="hint">${esc(labels[i + 1])}</span> <span class="seat-name ${entry.seat === 'P1' ? 'p1' : 'p2'}">${esc(seatWho(entry.seat))}</span> ${esc(entryText(entry))}${esc(byWords(entry))} <span class="hint">${fmtTime(entry.at_ms)}</span></button></li>`,
    )
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
    $('last').textContent = board.status(view);
  } else {
    $('board').innerHTML = `<pre class="raw-view">${esc(JSON.stringify(view, null, 1))}</pre>`;
  }
  $('step-text').textContent = entry
    ? `${labels[step]}: ${seatWho(entry.seat)} played ${entryText(entry)}${byWords(entry)} at ${fmtTime(entry.at_ms)}`
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
    $('end-title').textContent = outcome.winner ? `${seatWho(outcome.winner)} wins` : 'Draw';
    $('end-reason').textContent = outcome.reason ?? '';
    $('end-decided').innerHTML = outcome.decided_by ? `Decided by: <strong>${esc(outcome.decided_by)}</strong>` : '';
    const scores = outcome.scores ?? {};
    $('end-scores').innerHTML = ['P1', 'P2']
      .map((s) => `<span class="score${outcome.winner === s ? ' won' : ''}"><span class="seat-name ${s === 'P1' ? 'p1' : 'p2'}">${esc(seatWho(s))}</span> <strong>${esc(scores[s] ?? 0)}</strong></span>`)
      .join('');
    $('end-detail').innerHTML = board?.ending(view, outcome) ?? '';
    focusableTables($('end-detail'));
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

$('file').addEventListener('change', async (e) => {
  const file = e.target.files?.[0];
  if (!file) return;
  showError('');
  try {
    const record = JSON.parse(await file.text());
    load(await postJson('/api/replay', record));
  } catch (x) {
    showError(`This record does not replay: ${x.message}`);
  }
});

if (id) {
  $('open-file').hidden = true;
  getJson(`/api/matches/${encodeURIComponent(id)}/replay${token ? `?t=${encodeURIComponent(token)}` : ''}`)
    .then(load)
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
