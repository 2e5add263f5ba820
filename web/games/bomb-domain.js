// Bomb Domain's board: a 9×9 SVG grid where every cell shows its domain
// owner (colour and a pattern: P1 stripes, P2 dots) and what stands on it:
// pieces by kind (square, plus, cross: three shapes), pegs (a round peg,
// or a burst for one a detonation left). Everything is public except a
// seat's sealed placement of the open round, which the server sends to that
// seat alone; this module draws whatever its view holds, nothing more.
//
// Acting, a seat builds its decision by clicking: the starter choice as
// buttons; a placement as three cells, each given a kind; a whole turn as
// a pair of moves (or the diagonal fallback), then a peg, then a
// detonation, each optional, written in the rulebook's notation
// (`move D4-D7 F3-I3; peg G7; detonate C3`, `pass`) before it is sent.
// The server lists no placements or turns (too many): this module guides
// from the view (domains, occupied cells, the neighbour and 2×2 rules,
// blocking, pairs, the peg rules, the blast shapes the view carries) and
// the server still judges.
//
// It offers the board-module interface described in games/index.js. Its
// parts: bomb-domain/rules.js (the rules it guides by), words.js (events
// in words), draw.js (the SVG); all their functions are exported from here
// too, for the unit tests.

import {
  ALL_CELLS,
  KINDS,
  PEGS,
  ROUNDS,
  SIZE,
  TURNS,
  afterMotion,
  blastClaims,
  boardOf,
  columnsText,
  detonateProblem,
  diagonalTargets,
  emptyTurn,
  finalReach,
  firstMoveTargets,
  other,
  otherAxis,
  pairExists,
  parsePlacement,
  parseTurn,
  pegProblem,
  piecesOf,
  placementCells,
  placementProblem,
  placementText,
  sealedOf,
  secondMoveTargets,
  shapeOffsets,
  stageOf,
  startColumns,
  stepFocus,
  straightMove,
  turnClaims,
  turnText,
} from './bomb-domain/rules.js';
import {
  SEATS,
  cap,
  esc,
  eventWords,
  ordinal,
  plural,
  seatName,
} from './bomb-domain/words.js';
import {
  blastSvg,
  boardSvg,
  icon,
  pieceSvg,
  swatch,
} from './bomb-domain/draw.js';

import { boardStates } from '../board.js';

export * from './bomb-domain/rules.js';
export * from './bomb-domain/words.js';
export * from './bomb-domain/draw.js';

const KEY_KIND = { s: 'square', p: 'plus', x: 'cross' };
const isSeat = (who) => who === 'P1' || who === 'P2';

// --- panels -----------------------------------------------------------------

/// A seat's chip: its mark and its name (the colour it plays).
function seatChip(seat) {
  const s = SEATS[seat];
  return `<span class="chip ${s.className}"><span class="chip-mark" aria-hidden="true">${s.mark}</span> ${s.label}</span>`;
}

/// The seat that must make the starter choice now.
function chooserNow(view) {
  return view.deferred ? other(view.dmo) : view.dmo;
}

/// Turns `seat` has taken, of 25.
export function turnsTaken(view, seat) {
  const starter = view.starter;
  if (!starter) return 0;
  const t = view.turn ?? 0;
  return seat === starter ? Math.ceil(t / 2) : Math.floor(t / 2);
}

function seatCard(view, seat, you) {
  const dmo = seat === view.dmo;
  const cols = columnsText(startColumns(view, seat));
  const waiting =
    (view.phase === 'first' && chooserNow(view) === seat) ||
    (view.phase === 'place' && sealedOf(view, seat) === 'waiting') ||
    (view.phase === 'turns' && view.to_move === seat);
  const counts = KINDS.map((k) => `<span class="bd-count">${icon(k, seat, `${k}s`)}${view.pieces?.[seat]?.[k]?.length ?? 0}</span>`).join('');
  const left = view.pegs_left?.[seat] ?? PEGS;
  const more = [];
  if (view.phase === 'first' || view.phase === 'place') more.push(`${plural(view.in_hand ?? 0, 'set')} to place`);
  if (view.lost?.[seat]) more.push(`${plural(view.lost[seat], 'set')} lost`);
  if (view.phase === 'place') {
    const s = sealedOf(view, seat);
    const said = s === 'waiting' ? 'placing…' : s === 'missed' ? 'missed: pieces lost' : 'submitted (sealed)';
    more.push(`<span class="bd-sealed-state" data-sealed="${typeof s === 'object' ? 'submitted' : s}">${said}</span>`);
  }
  if (view.phase === 'turns' || view.phase === 'over') more.push(`turns ${turnsTaken(view, seat)}/25`);
  const badges = [
    `<span class="bd-role" title="${dmo ? 'the advantage seat: chose or deferred the starter choice' : 'the other seat'}">${dmo ? 'DMO' : 'EC'} · ${cols}</span>`,
    view.starter === seat ? '<span class="bd-badge" title="takes the first turn">starts</span>' : '',
    view.chooser === seat ? '<span class="bd-badge" title="chose the starter: loses a tie">chose</span>' : '',
  ].join('');
  return (
    `<div class="bd-seat ${SEATS[seat].className}${waiting ? ' to-move' : ''}" data-seat="${seat}">` +
    `<div class="bd-seat-head">${seatChip(seat)}${seat === you ? ' <span class="hint">you</span>' : ''} ${badges}</div>` +
    '<div class="bd-seat-line">' +
    `<span class="bd-seat-cells"><strong class="bd-cells-n">${view.cells?.[seat] ?? 0}</strong> cells</span>` +
    `<span class="bd-seat-pieces" aria-label="pieces on the board">${counts}</span>` +
    `<span class="bd-seat-pegs" title="pegs left to place">${icon('peg', seat)}<span class="bd-pegs-n">${left}</span><span class="sr-only"> pegs left</span></span>` +
    (more.length ? `<span class="bd-seat-more">${more.join(' · ')}</span>` : '') +
    '</div></div>'
  );
}

/// Where the match stands, in one line.
export function phaseLine(view) {
  switch (view.phase) {
    case 'first':
      return view.deferred
        ? `Starter choice: ${seatName(view.dmo)}, the DMO, deferred; ${seatName(other(view.dmo))} names who takes the first turn.`
        : `Starter choice: ${seatName(view.dmo)}, the DMO, names who takes the first turn, or defers to ${seatName(other(view.dmo))}.`;
    case 'place':
      return `Placement round ${view.round} of ${ROUNDS}: each seat places a square, a plus and a cross in ${view.round % 2 ? 'its own' : 'the opponent’s'} starting domain, sealed until both are in.`;
    case 'turns': {
      const seat = view.to_move;
      if (!seat) return '';
      return `Turn ${view.turn + 1} of ${TURNS}: ${seatName(seat)}’s ${ordinal(turnsTaken(view, seat) + 1)} of 25.`;
    }
    case 'over':
      return 'Game over: every piece left went off in the final blast.';
    default:
      return '';
  }
}

function infoHtml(view, you, acting) {
  return (
    `<div class="bd-info" aria-label="Seats">${seatCard(view, 'P1', you)}${seatCard(view, 'P2', you)}</div>` +
    (acting ? '' : `<p class="bd-phase-line">${esc(phaseLine(view))}</p>`)
  );
}

function legendHtml(view) {
  const seatBits = ['P1', 'P2']
    .map((s) => `<li>${swatch(s)} ${SEATS[s].label}’s domain (${SEATS[s].pattern})</li>`)
    .join('');
  const kinds = KINDS.map((k) => `<li>${icon(k, 'P1')}${icon(k, 'P2')} ${k}</li>`).join('');
  return (
    '<details class="bd-legend"><summary>Legend</summary><ul>' +
    `${seatBits}<li>${swatch(null)} nobody’s</li>${kinds}` +
    `<li>${icon('peg', 'P1')}${icon('peg', 'P2')} peg</li><li>${icon('blast-peg', 'P1')}${icon('blast-peg', 'P2')} peg left by a blast</li>` +
    '<li>Blue’s pieces and pegs carry a white dot.</li>' +
    `<li>Blasts: square ${shapeOffsets(view.shapes?.square).length} cells, plus ${shapeOffsets(view.shapes?.plus).length}, cross ${shapeOffsets(view.shapes?.cross).length}; point at a piece to see its shape.</li>` +
    '</ul></details>'
  );
}

function choiceHtml(view, ctx) {
  const you = ctx.you;
  const deferred = ctx.kind === 'deferred-first';
  const intro = deferred
    ? `${seatName(view.dmo)} handed you the choice: name who takes the first turn.`
    : 'You are the DMO: name who takes the first turn, or hand the choice to the EC.';
  return (
    '<div class="bd-phase" role="group" aria-label="Choose who takes the first turn">' +
    `<p>${esc(intro)} The tie at the end goes to the seat that did <em>not</em> choose.</p>` +
    `<button type="button" class="primary" data-action="first ${you}">${seatChip(you)} takes the first turn</button> ` +
    `<button type="button" data-action="first ${other(you)}">${seatChip(other(you))} takes the first turn</button>` +
    (deferred ? '' : ` <button type="button" data-action="defer">Defer: ${seatChip(other(you))} chooses</button>`) +
    '</div>'
  );
}

function placeToolsHtml(view, st) {
  const you = st.ctx.you;
  const allowed = placementCells(view, you);
  const buttons = KINDS.map((k) => {
    const at = st.sel[k];
    const now = st.kind === k;
    return `<button type="button" class="bd-kind${now ? ' now' : ''}" data-kind="${k}" aria-pressed="${now}" title="${k} (${k[0].toUpperCase() === 'C' ? 'X' : k[0].toUpperCase()})">${icon(k, you)} ${k} <span class="bd-kind-cell">${at ?? '—'}</span></button>`;
  }).join('');
  const complete = KINDS.every((k) => st.sel[k]);
  const text = complete ? placementText(st.sel) : null;
  const lifted = allowed.lifted
    ? '<p class="bd-lifted">The neighbour rule is lifted this round: no three cells of the domain meet both rules, so crowded cells are allowed.</p>'
    : allowed.crowded.size
      ? `<p class="hint bd-crowded-note">Cells ringed with red dashes have 3 or more occupied neighbours: not allowed this round (${allowed.crowded.size}).</p>`
      : '';
  const summary = complete
    ? 'Ready: seal and submit. Your opponent and spectators will only see that you submitted, until both are in.'
    : `Place in ${allowed.own ? 'your own' : 'your opponent’s'} starting domain, columns ${columnsText(allowed.columns)}: click a cell for the <strong>${st.kind}</strong> (or pick a kind first). No two of your three in one 2×2 block.`;
  return (
    '<div class="bd-tools" role="group" aria-label="Your placement">' +
    `<p class="bd-summary">${summary}</p>` +
    `<div class="bd-kinds" role="group" aria-label="Kind to place">${buttons}</div>` +
    lifted +
    '<div class="bd-tool-buttons">' +
    `<button type="button" data-tool="clear"${KINDS.some((k) => st.sel[k]) ? '' : ' disabled'} title="Start again (Esc)">Clear <kbd>Esc</kbd></button>` +
    `<button type="button" class="primary bd-play" data-tool="submit" data-submit${complete ? '' : ' disabled'} title="Seal and submit (C)">${complete ? `Seal and submit: <code>${esc(text)}</code>` : 'Seal and submit'} <kbd>C</kbd></button>` +
    '</div>' +
    `<p class="bd-hint" aria-live="polite">${esc(st.hint)}</p>` +
    '</div>'
  );
}

function sealedWaitHtml(view, you) {
  const mine = sealedOf(view, you);
  if (typeof mine !== 'object') return '';
  return (
    '<div class="bd-tools bd-waiting" role="status">' +
    `<p class="bd-summary">Your round ${view.round} placement is sealed: <code>${esc(placementText(mine))}</code> (drawn dashed). ` +
    `${seatName(other(you))} sees only that you submitted; both land when ${SEATS[other(you)].label} is in.</p></div>`
  );
}

const STAGES = [
  ['move', 'Move'],
  ['peg', 'Peg'],
  ['detonate', 'Detonate'],
];

/// The three steps of a turn, each now, done, skipped or to come.
function stepsHtml(turn, stage) {
  const order = ['move', 'peg', 'detonate', 'done'];
  const at = order.indexOf(stage);
  return STAGES.map(([key, label], i) => {
    const done = (key === 'move' && (turn.moves.length === 2 || turn.diagonal)) || (key === 'peg' && turn.peg) || (key === 'detonate' && turn.detonate);
    const cls = key === stage ? 'now' : done ? 'done' : i < at ? 'skipped' : '';
    return `<li class="${cls}">${i + 1}. ${label}${done ? ' ✓' : cls === 'skipped' ? ' (skipped)' : ''}</li>`;
  }).join('');
}

/// What to do next, in words, for the step the turn is at.
function turnSummary(view, st, g, stage) {
  const turn = st.turn;
  const half = turn.moves.length === 1;
  const distance = half ? `${plural(turn.moves[0].len, 'cell')} ${otherAxis(turn.moves[0].axis)}ly` : '';
  if (stage === 'move' && st.picked) {
    const kind = g.after.pieces.get(st.picked)?.kind ?? 'piece';
    if (half) return `Click where your ${kind} on ${st.picked} goes: ${distance} (dots).`;
    if (g.pair) return `Click where your ${kind} on ${st.picked} goes: 1–4 cells straight (dots show moves a second piece can answer).`;
    return `Click where your ${kind} on ${st.picked} steps: one cell diagonally. That ends your turn.`;
  }
  if (stage === 'move' && half) return `Now a different piece moves ${distance}: click it (ringed), then its target.`;
  if (stage === 'move') {
    return g.pair
      ? 'Move a pair: click one of your pieces (ringed), then its target; a different piece then moves as far the other way. Or click an empty cell to peg without moving, or skip the move.'
      : 'No move pair exists: you may step one piece one cell diagonally (ringed; it ends your turn), or skip the move.';
  }
  if (stage === 'peg') {
    const left = view.pegs_left?.[st.ctx.you] ?? 0;
    return left > 0
      ? `Peg: click a dotted cell to place a peg (${left} left), or click one of your pieces (ringed) to detonate it, or skip the peg.`
      : 'No pegs left: click one of your pieces (ringed) to detonate it, or play the turn.';
  }
  if (stage === 'detonate') return 'Detonate: click one of your pieces (ringed) to blow it up (point at one to see what it claims), or play the turn as it is.';
  return 'The turn is complete: play it, or undo a part.';
}

function turnToolsHtml(view, st, g) {
  const turn = st.turn;
  const stage = stageOf(turn, st.skipped);
  const half = turn.moves.length === 1;
  const text = turnText(turn);
  const claims = g.plan?.claims.size ?? 0;
  const skip = stage === 'move' && !half ? 'Skip the move' : stage === 'peg' ? 'Skip the peg' : null;
  const play = half ? 'Finish the pair first' : text === 'pass' ? 'Pass' : 'Play the turn';
  return (
    '<div class="bd-tools" role="group" aria-label="Your turn">' +
    `<ol class="bd-steps" aria-label="The turn's steps">${stepsHtml(turn, stage)}</ol>` +
    `<p class="bd-summary">${esc(turnSummary(view, st, g, stage))}</p>` +
    `<p class="bd-built">Your turn: <code class="bd-notation">${esc(half ? `move ${turn.moves[0].from}-${turn.moves[0].to} …` : text)}</code>` +
    `${claims ? ` <span class="hint">claims ${plural(claims, 'cell')}</span>` : ''}</p>` +
    '<div class="bd-tool-buttons">' +
    `<button type="button" data-tool="undo"${st.history.length || st.picked ? '' : ' disabled'} title="Undo the last part (Esc)">Undo <kbd>Esc</kbd></button>` +
    (skip ? `<button type="button" data-tool="skip" title="${skip} (N)">${skip} <kbd>N</kbd></button>` : '') +
    `<button type="button" class="primary bd-play" data-tool="play" data-submit${half ? ' disabled' : ''} title="${play} (C)">${play}${half || text === 'pass' ? '' : `: <code>${esc(text)}</code>`} <kbd>C</kbd></button>` +
    '</div>' +
    `<p class="bd-hint" aria-live="polite">${esc(st.hint)}</p>` +
    '</div>'
  );
}

/// The end: cells held, the final blast, why the winner won.
export function endingHtml(view, outcome) {
  const reach = finalReach(view);
  const board = boardOf(view);
  const only = (s) => [...reach[s]].filter((c) => !reach.both.has(c)).length;
  const pieces = (s) => piecesOf(board, s).length;
  const pegs = (s) => (view.pegs?.[s]?.length ?? 0) + (view.blast_pegs?.[s]?.length ?? 0);
  const cells = { P1: view.cells?.P1 ?? 0, P2: view.cells?.P2 ?? 0 };
  const neutral = SIZE * SIZE - cells.P1 - cells.P2;
  const row = (label, f, strong = false) =>
    `<tr><th scope="row">${label}</th>${['P1', 'P2'].map((s) => `<td>${strong ? `<strong>${f(s)}</strong>` : f(s)}</td>`).join('')}</tr>`;
  let why = '';
  const w = outcome?.winner;
  if (w && cells.P1 !== cells.P2) {
    why = `${seatName(w)} holds more cells: ${cells[w]} to ${cells[other(w)]}.`;
  } else if (w) {
    const chooser = view.chooser ?? view.dmo;
    const how = view.deferred ? `${seatName(view.dmo)} deferred and ${seatName(chooser)} chose the starter` : `${seatName(chooser)} chose the starter`;
    why = `Tied at ${cells.P1} cells each: the tie goes to the seat that did not choose the starter (${how}), so ${seatName(w)} wins.`;
  }
  return (
    '<div class="table-wrap"><table class="bd-end-table"><caption>Cells at the end (the final blast outlined on the board)</caption>' +
    `<thead><tr><th scope="col"><span class="sr-only">Counted</span></th><th scope="col">${seatChip('P1')}</th><th scope="col">${seatChip('P2')}</th></tr></thead><tbody>` +
    row('cells held', (s) => cells[s], true) +
    row('pieces that went off', pieces) +
    row('cells the final blast reached', only) +
    row('pegs on the board', pegs) +
    '</tbody></table></div>' +
    `<p class="hint bd-neutral">${plural(neutral, 'cell')} belong to nobody${reach.both.size ? `; ${plural(reach.both.size, 'cell')} reached by both final blasts kept ${reach.both.size === 1 ? 'its' : 'their'} owner` : ''}.</p>` +
    (why ? `<p class="bd-why">${esc(why)}</p>` : '')
  );
}

// --- DOM glue -----------------------------------------------------------------

const boards = boardStates({
  make: () => ({ focus: 'E5', hover: null }),
  fresh: (st) => {
    st.sel = { square: null, plus: null, cross: null };
    st.kind = 'square';
    st.turn = emptyTurn();
    st.skipped = {};
    st.history = [];
    st.picked = null;
    st.hint = '';
  },
  on: { click: onClick, keydown: onKey },
  hover: { cells: '.bd-board [data-cell]', show: (container, name) => hover(container, name) },
});

const mode = (st) => {
  const { view, ctx } = st;
  if (!ctx?.acting || !isSeat(ctx.you)) return null;
  if ((ctx.kind === 'first' || ctx.kind === 'deferred-first') && view.phase === 'first') return 'choose';
  if (ctx.kind === 'place' && view.phase === 'place') return 'place';
  if (ctx.kind === 'turn' && view.phase === 'turns') return 'turn';
  return null;
};

/// What the turn builder knows now: the board at the start of the turn and
/// after the move step, whether a pair exists, the planned turn.
function turnGuide(st) {
  const board = boardOf(st.view);
  const you = st.ctx.you;
  const pair = pairExists(board, you);
  const after = afterMotion(board, st.turn);
  const claims = turnClaims(st.view, board, st.turn);
  return { board, after, pair, plan: { turn: st.turn, board: after, claims } };
}

/// Where the piece on `from` may go now, as cells.
function moveTargets(st, g, from) {
  const you = st.ctx.you;
  if (st.turn.moves.length === 1) return secondMoveTargets(g.board, you, st.turn.moves[0], from).map((t) => t.to);
  if (!g.pair) return diagonalTargets(g.board, from);
  return firstMoveTargets(g.board, you, from).map((t) => t.to);
}

/// The cells to ring (pieces that may be clicked) and to dot (targets).
function marks(st, g) {
  const you = st.ctx.you;
  const stage = stageOf(st.turn, st.skipped);
  const pickable = new Set();
  const targets = new Set();
  if (stage === 'move') {
    if (st.picked) for (const c of moveTargets(st, g, st.picked)) targets.add(c);
    const moved = st.turn.moves[0]?.to;
    for (const c of piecesOf(g.after, you)) {
      if (c !== moved && moveTargets(st, g, c).length) pickable.add(c);
    }
  }
  if (stage === 'peg' || stage === 'detonate') {
    for (const c of piecesOf(g.after, you)) if (!detonateProblem(st.view, g.board, you, st.turn, c)) pickable.add(c);
  }
  if (stage === 'peg') {
    for (const c of ALL_CELLS) if (!pegProblem(st.view, g.board, you, st.turn, c)) targets.add(c);
  }
  return { pickable, targets };
}

/// The shapes of a rules picture: a line of names, then rows where each
/// name's column holds its shape (`#` covered, `■` the piece's own cell,
/// `.` not covered). [{name, cells: [[dc, dr]] from the piece}].
export function blastPictures(text) {
  const lines = text.split('\n').filter((l) => l.trim());
  if (lines.length < 2 || !lines.some((l) => l.includes('■'))) return [];
  const head = lines[0];
  const starts = [...head.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], at: m.index }));
  return starts.map((s, i) => {
    const end = starts[i + 1]?.at ?? Infinity;
    const rows = lines.slice(1).map((l) => l.slice(s.at, end).trim().split(/\s+/).join(''));
    const marks = [];
    let centre = null;
    rows.forEach((row, r) => [...row].forEach((ch, c) => {
      if (ch === '#' || ch === '■') marks.push([c, r]);
      if (ch === '■') centre = [c, r];
    }));
    const at = centre ?? [0, 0];
    return { name: s.name, cells: marks.map(([c, r]) => [c - at[0], r - at[1]]) };
  });
}

/// One blast shape on a small board: the covered cells shaded, a piece of
/// the shape's kind on its own cell (none for the final blast).
function shapeSvg(shape) {
  const unit = 22;
  const span = Math.max(2, ...shape.cells.map(([c, r]) => Math.max(Math.abs(c), Math.abs(r))));
  const size = (2 * span + 1) * unit;
  const cells = [];
  for (let r = -span; r <= span; r++) {
    for (let c = -span; c <= span; c++) {
      const covered = shape.cells.some(([dc, dr]) => dc === c && dr === r);
      cells.push(`<rect class="bd-rules-cell${covered ? ' covered' : ''}" x="${(c + span) * unit}" y="${(r + span) * unit}" width="${unit}" height="${unit}"/>`);
    }
  }
  const kind = KINDS.find((k) => shape.name.startsWith(k));
  const piece = kind ? pieceSvg(kind, 'P1', size / 2, size / 2, unit * 0.42) : '';
  return `<svg class="bd-rules-svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" aria-hidden="true">${cells.join('')}${piece}</svg>`;
}

/// The cells an action waiting for confirmation touches (a placement's
/// three, a turn's moves, peg and detonation), or null when none waits.
export function stagedCells(text) {
  if (!text) return null;
  const placed = parsePlacement(text);
  if (placed) return new Set(KINDS.map((k) => placed[k]));
  const turn = parseTurn(text);
  if (!turn) return null;
  return new Set([...turn.steps.flatMap((s) => [s.from, s.to]), turn.peg, turn.detonate].filter(Boolean));
}

function draw(container) {
  const st = boards.get(container);
  const { view, ctx } = st;
  const m = mode(st);
  const you = isSeat(ctx.you) ? ctx.you : null;
  const active = document.activeElement;
  const had = container.contains(active)
    ? { cell: active.dataset?.cell, action: active.dataset?.action, tool: active.dataset?.tool, kind: active.dataset?.kind }
    : null;
  const opts = { focus: st.focus, you, final: view.phase === 'over' && !!ctx.final };
  // Sealed placements this view holds: the seat's own (or all, for the umpire).
  if (view.phase === 'place') {
    opts.sealed = ['P1', 'P2']
      .map((seat) => ({ seat, placement: sealedOf(view, seat) }))
      .filter((s) => typeof s.placement === 'object');
  }
  let tools = '';
  let top = '';
  if (m === 'choose') top = choiceHtml(view, ctx);
  else if (m === 'place') {
    const allowed = placementCells(view, you);
    opts.sel = st.sel;
    opts.selSeat = you;
    opts.targets = new Set([...allowed.cells].filter((c) => !placementProblem(view, you, st.sel, st.kind, c) && !KINDS.some((k) => st.sel[k] === c)));
    opts.crowded = allowed.crowded;
    opts.off = new Set(ALL_CELLS.filter((c) => !allowed.cells.has(c) && !allowed.crowded.has(c)));
    tools = placeToolsHtml(view, st);
  } else if (m === 'turn') {
    const g = turnGuide(st);
    const { pickable, targets } = marks(st, g);
    Object.assign(opts, { plan: g.plan, picked: st.picked, pickable, targets });
    tools = turnToolsHtml(view, st, g);
  } else if (you && view.phase === 'place') {
    tools = sealedWaitHtml(view, you);
  }
  opts.hoverLayer = hoverSvg(st, st.hover);
  if (m === 'place' || m === 'turn') opts.staged = stagedCells(ctx.staged);
  container.innerHTML =
    `<div class="bd${m ? ` bd-mode-${m}` : ''}">${infoHtml(view, you, !!m)}${top}` +
    `<figure class="bd-box">${boardSvg(view, opts)}</figure>${tools}${legendHtml(view)}</div>`;
  container.classList.toggle('acting', !!m);
  if (opts.staged) container.querySelector('.bd-play')?.setAttribute('data-staged', '');
  if (had) {
    let el = null;
    if (had.cell) el = container.querySelector(`.bd-board [data-cell="${had.cell}"]`);
    else if (had.action) el = container.querySelector(`button[data-action="${CSS.escape(had.action)}"]`);
    else if (had.tool) el = container.querySelector(`button[data-tool="${had.tool}"]`);
    else if (had.kind) el = container.querySelector(`button[data-kind="${had.kind}"]`);
    if (el && !el.disabled) el.focus();
    else container.querySelector('.bd-board [tabindex="0"]')?.focus();
  }
}

/// The layer under the pointer: the blast shape of the piece there (with
/// what it would claim, when you may detonate it now), or of the piece
/// being placed or moved there.
function hoverSvg(st, name) {
  if (!name || !st.view) return '';
  const { view } = st;
  const m = mode(st);
  const you = st.ctx?.you;
  if (m === 'place') {
    const k = KINDS.find((kind) => st.sel[kind] === name) ?? (placementCells(view, you).cells.has(name) ? st.kind : null);
    return k ? blastSvg(view, k, name) : '';
  }
  if (m === 'turn') {
    const g = turnGuide(st);
    const stage = stageOf(st.turn, st.skipped);
    if (st.picked && moveTargets(st, g, st.picked).includes(name)) {
      return blastSvg(view, g.after.pieces.get(st.picked)?.kind ?? 'square', name);
    }
    const piece = g.after.pieces.get(name);
    if (!piece) return '';
    const live = (stage === 'peg' || stage === 'detonate') && piece.seat === you && !detonateProblem(view, g.board, you, st.turn, name);
    if (!live) return blastSvg(view, piece.kind, name);
    const pegged = st.turn.peg ? { pieces: g.after.pieces, pegs: new Map([...g.after.pegs, [st.turn.peg, { seat: you, blast: false }]]) } : g.after;
    return blastSvg(view, piece.kind, name, new Set(blastClaims(view, pegged, name, piece.kind)), you);
  }
  const board = boardOf(view);
  const piece = board.pieces.get(name);
  if (piece) return blastSvg(view, view.phase === 'over' ? 'final' : piece.kind, name);
  for (const seat of ['P1', 'P2']) {
    const s = view.phase === 'place' ? sealedOf(view, seat) : null;
    const k = s && typeof s === 'object' ? KINDS.find((kind) => s[kind] === name) : null;
    if (k) return blastSvg(view, k, name);
  }
  return '';
}

function hover(container, name) {
  const st = boards.get(container);
  if (!st?.view || st.hover === name) return;
  st.hover = name;
  const layer = container.querySelector('.bd-hover-layer');
  if (layer) layer.innerHTML = hoverSvg(st, name);
}

function setHint(container, text) {
  boards.hint(container, '.bd-hint', text);
}

/// Remembers the turn before a change, for undo.
function remember(st) {
  st.history.push({ turn: structuredClone(st.turn), skipped: { ...st.skipped } });
}

// Placement: a click puts the chosen kind on a cell; a click on a chosen
// cell takes its piece back.
function placeClick(container, name) {
  const st = boards.get(container);
  const held = KINDS.find((k) => st.sel[k] === name);
  if (held) {
    st.sel[held] = null;
    st.kind = held;
    st.hint = `${cap(held)} taken back from ${name}.`;
    draw(container);
    return;
  }
  putKind(container, st.kind, name);
}

function putKind(container, kind, name) {
  const st = boards.get(container);
  const problem = placementProblem(st.view, st.ctx.you, st.sel, kind, name);
  if (problem) {
    setHint(container, `Not there: ${problem}.`);
    return;
  }
  for (const k of KINDS) if (st.sel[k] === name) st.sel[k] = null;
  st.sel[kind] = name;
  const i = KINDS.indexOf(kind);
  st.kind = [1, 2].map((d) => KINDS[(i + d) % 3]).find((k) => !st.sel[k]) ?? kind;
  st.hint = '';
  draw(container);
}

function submitPlacement(container) {
  const st = boards.get(container);
  if (!KINDS.every((k) => st.sel[k])) {
    setHint(container, `Place ${KINDS.filter((k) => !st.sel[k]).join(' and ')} first.`);
    return;
  }
  st.ctx.submit(placementText(st.sel));
}

// Turns: a click does what the step allows (see turnToolsHtml's words).
function turnClick(container, name) {
  const st = boards.get(container);
  const g = turnGuide(st);
  const stage = stageOf(st.turn, st.skipped);
  if (stage === 'move') return moveClick(container, st, g, name);
  const mine = g.after.pieces.get(name)?.seat === st.ctx.you;
  if ((stage === 'peg' || stage === 'detonate') && mine) return tryPart(container, st, g, 'detonate', name);
  if (stage === 'peg') return tryPart(container, st, g, 'peg', name);
  if (stage === 'detonate') return setHint(container, `${name} holds no piece of yours to detonate.`);
  return setHint(container, 'The turn is complete: play it, or undo a part.');
}

/// Pegs or detonates on `name` when the rules allow it, else says why not.
function tryPart(container, st, g, part, name, skipMove = false) {
  const you = st.ctx.you;
  const problem = part === 'peg' ? pegProblem(st.view, g.board, you, st.turn, name) : detonateProblem(st.view, g.board, you, st.turn, name);
  if (problem) return setHint(container, `No ${part === 'peg' ? 'peg' : 'detonation'} on ${name}: ${problem}.`);
  remember(st);
  if (skipMove) st.skipped.move = true;
  st.turn[part] = name;
  st.hint = skipMove ? 'No move this turn: pegged.' : '';
  return draw(container);
}

/// A click during the move step: pick a piece, move it, or (before any
/// move) peg an empty cell and skip the move.
function moveClick(container, st, g, name) {
  const piece = g.after.pieces.get(name);
  const mine = piece?.seat === st.ctx.you;
  if (st.picked === name) {
    st.picked = null;
    st.hint = '';
    return draw(container);
  }
  if (st.picked && moveTargets(st, g, st.picked).includes(name)) {
    remember(st);
    const from = st.picked;
    st.picked = null;
    st.hint = '';
    if (!g.pair) st.turn.diagonal = { from, to: name };
    else {
      const m = straightMove(afterMotion(g.board, st.turn), from, name);
      st.turn.moves.push({ from, to: name, len: m.len, axis: m.axis });
    }
    return draw(container);
  }
  if (mine && name !== st.turn.moves[0]?.to) {
    if (!moveTargets(st, g, name).length) return setHint(container, whyNoMove(st, g, name));
    st.picked = name;
    st.hint = '';
    return draw(container);
  }
  if (mine) return setHint(container, `The piece on ${name} moved already: a pair moves two different pieces.`);
  if (st.picked) return setHint(container, `${st.picked} cannot go to ${name}: pick a dotted cell, or click ${st.picked} again to drop it.`);
  if (!st.turn.moves.length && !piece) return tryPart(container, st, g, 'peg', name, true);
  return setHint(container, st.turn.moves.length ? 'Finish the pair: click one of your ringed pieces, then its target; or undo.' : `${name} holds no piece of yours.`);
}

function whyNoMove(st, g, name) {
  if (st.turn.moves.length === 1) {
    const first = st.turn.moves[0];
    return `${name} cannot move ${plural(first.len, 'cell')} ${otherAxis(first.axis)}ly: blocked or off the board.`;
  }
  if (!g.pair) return `${name} has no empty cell one step diagonally.`;
  return `${name} has no straight move that a second piece can answer with the same length the other way.`;
}

function undo(container) {
  const st = boards.get(container);
  if (st.picked) st.picked = null;
  else if (st.history.length) {
    const prev = st.history.pop();
    st.turn = prev.turn;
    st.skipped = prev.skipped;
  } else return;
  st.hint = '';
  draw(container);
}

function skip(container) {
  const st = boards.get(container);
  const stage = stageOf(st.turn, st.skipped);
  if (stage === 'move' && !st.turn.moves.length) {
    remember(st);
    st.picked = null;
    st.skipped.move = true;
  } else if (stage === 'peg') {
    remember(st);
    st.skipped.peg = true;
  } else return;
  st.hint = '';
  draw(container);
}

function playTurn(container) {
  const st = boards.get(container);
  if (st.turn.moves.length === 1) {
    setHint(container, 'A pair needs its second move: finish it, or undo.');
    return;
  }
  st.ctx.submit(turnText(st.turn));
}

function onClick(container, e) {
  const st = boards.get(container);
  const button = e.target.closest('button');
  if (button && !button.disabled) {
    if (button.dataset.kind) {
      st.kind = button.dataset.kind;
      st.hint = '';
      draw(container);
      return;
    }
    const tool = button.dataset.tool;
    if (tool === 'clear' || tool === 'undo') mode(st) === 'place' ? clearPlacement(container) : undo(container);
    else if (tool === 'skip') skip(container);
    else if (tool === 'play') playTurn(container);
    else if (tool === 'submit') submitPlacement(container);
    return;
  }
  const cell = e.target.closest('.bd-board [data-cell]');
  if (!cell) return;
  clickCell(container, cell.dataset.cell);
}

function clickCell(container, name) {
  const st = boards.get(container);
  st.focus = name;
  const m = mode(st);
  if (m === 'place') placeClick(container, name);
  else if (m === 'turn') turnClick(container, name);
}

function clearPlacement(container) {
  const st = boards.get(container);
  st.sel = { square: null, plus: null, cross: null };
  st.kind = 'square';
  st.hint = '';
  draw(container);
}

function onKey(container, e) {
  const st = boards.get(container);
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const m = mode(st);
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const cell = e.target.closest?.('.bd-board [data-cell]');
  if (key === 'Escape' || (key === 'Backspace' && cell)) {
    if (m === 'turn' && (st.picked || st.history.length)) {
      e.preventDefault();
      undo(container);
    } else if (m === 'place' && KINDS.some((k) => st.sel[k])) {
      e.preventDefault();
      clearPlacement(container);
    }
    return;
  }
  if (key === 'c' && (m === 'turn' || m === 'place')) {
    e.preventDefault();
    if (m === 'turn') playTurn(container);
    else submitPlacement(container);
    return;
  }
  if (key === 'n' && m === 'turn') {
    e.preventDefault();
    skip(container);
    return;
  }
  if (!cell) return;
  const name = cell.dataset.cell;
  if (m === 'place' && KEY_KIND[key]) {
    e.preventDefault();
    st.focus = name;
    putKind(container, KEY_KIND[key], name);
    return;
  }
  const to = stepFocus(name, e.key);
  if (to) {
    e.preventDefault();
    moveFocus(container, to);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    clickCell(container, name);
  }
}

function moveFocus(container, name) {
  const st = boards.get(container);
  st.focus = name;
  for (const el of container.querySelectorAll('.bd-board [data-cell]')) {
    el.setAttribute('tabindex', el.dataset.cell === name ? '0' : '-1');
  }
  container.querySelector(`.bd-board [data-cell="${name}"]`)?.focus();
  hover(container, name);
}

export default {
  id: 'bomb-domain',
  name: 'Bomb Domain',
  seats: SEATS,
  example: 'move D4-D6 F3-H3; peg G7; detonate C3',
  help:
    'Each cell shows its domain: Red’s striped, Blue’s dotted, nobody’s plain. Pieces: square, plus (+) and ' +
    'cross (×); Blue’s carry a white dot; a round peg is placed, a burst is a peg a blast left. Point at a piece ' +
    'to see its blast shape. Placing: click a cell for the square, then the plus, then the cross (or choose the ' +
    'kind with its button, or press S, P or X on a cell); click a placed piece to take it back; Seal and ' +
    'submit sends it, sealed until both seats are in. A turn: click one of your ringed pieces and a dotted ' +
    'cell (1–4 straight), then a second piece the same distance the other way; then a dotted cell for a peg; ' +
    'then one of your pieces to detonate it, its claim shown under the pointer. Each step may be skipped ' +
    '(Skip, or N); Undo (Esc) takes back the last part; Play sends the turn (or Pass when it is empty; C). ' +
    'Keyboard: Tab to the board, arrow keys move, Enter or Space clicks. Or type the notation, e.g. ' +
    '“square B2, plus C4, cross A7”, “move D4-D6 F3-H3; peg G7; detonate C3”, “diagonal D4-E5”, “pass”.',

  prompt(kind, view) {
    if (kind === 'first') return 'Your turn: you are the DMO: choose who takes the first turn, or defer the choice to the EC.';
    if (kind === 'deferred-first') return 'Your turn: the DMO deferred: choose who takes the first turn.';
    if (kind === 'place') {
      const r = view?.round ?? 1;
      return `Your turn: placement round ${r} of ${ROUNDS}: place a square, a plus and a cross in ${r % 2 ? 'your own' : 'your opponent’s'} starting domain.`;
    }
    if (kind === 'turn') {
      const nth = Math.floor((view?.turn ?? 0) / 2) + 1;
      return `Your turn ${nth} of 25: move a pair, peg, detonate (each optional), then play it.`;
    }
    return null;
  },

  /// A rules example drawn: the blast shapes as the rules picture them
  /// (`#` covered, `■` the piece) become small boards with the piece drawn
  /// on its cell and the cells it covers shaded.
  illustrate(text) {
    const shapes = blastPictures(text);
    if (!shapes.length) return null;
    const caption = `Blast shapes: ${shapes.map((s) => `${s.name}, ${s.cells.length} cells`).join('; ')}`;
    const html = shapes.map((s) => `<figure class="bd-rules-shape">${shapeSvg(s)}<figcaption>${esc(s.name)}</figcaption></figure>`).join('');
    return { html: `<div class="bd-rules-shapes">${html}</div>`, caption };
  },

  /// An action in words: "Square on B2, plus on C4, cross on A7 (sealed)".
  describe(action) {
    const text = action.trim();
    const first = /^first (P[12])$/.exec(text);
    if (first) return `${SEATS[first[1]].label} takes the first turn`;
    if (text === 'defer') return 'Defer the choice to the EC';
    const placed = parsePlacement(text);
    if (placed) return `${cap(KINDS.map((k) => `${k} on ${placed[k]}`).join(', '))} (sealed)`;
    const turn = parseTurn(text);
    if (!turn) return null;
    const parts = [];
    if (turn.steps.length) {
      const steps = turn.steps.map((s) => `${s.from} to ${s.to}`).join(' and ');
      parts.push(`${turn.diagonal ? 'step diagonally' : 'move'} ${steps}`);
    }
    if (turn.peg) parts.push(`peg ${turn.peg}`);
    if (turn.detonate) parts.push(`detonate ${turn.detonate}`);
    return parts.length ? cap(parts.join(', ')) : 'Pass the turn';
  },

  doing(kind) {
    return (
      {
        first: 'choose who takes the first turn',
        'deferred-first': 'choose who takes the first turn',
        place: 'place three pieces (sealed)',
        turn: 'play a turn',
      }[kind] ?? null
    );
  },

  /// Draws `view` into `container`; keeps a half-made placement or turn
  /// across redraws while the decision stays the same.
  render(container, view, ctx) {
    boards.update(container, view, ctx, `${view.phase}|${view.round}|${view.turn}|${ctx.kind}|${!!ctx.acting}`);
    draw(container);
  },

  reset(container) {
    if (boards.reset(container)) draw(container);
  },

  status(view) {
    const words = eventWords(view);
    const cells = `Cells: ${SEATS.P1.label} ${view.cells?.P1 ?? 0}, ${SEATS.P2.label} ${view.cells?.P2 ?? 0}`;
    return words ? `Last: ${cap(words)}. ${cells}.` : `${cells}.`;
  },

  moveOf(before) {
    if (before.phase === 'place') return { label: `Placement round ${before.round}` };
    // A turn's steps (move, peg, detonation) share its number.
    if (before.phase === 'turns') return { label: `Turn ${before.turn + 1} of 50` };
    return { label: 'Setup' };
  },
  ending(view, outcome) {
    if (view.phase !== 'over') return '';
    return endingHtml(view, outcome);
  },
};
