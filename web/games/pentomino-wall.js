// Pentomino Wall's board: both seats' 9×10 walls as SVG grids (each painted
// cell in its piece's colour with the piece's letter, black where pieces
// overlapped), the hands, the pool, the set-aside pieces, credits and each
// seat's score term by term. The only secret is a seat's sealed choice of a
// turn (what it presents and sets aside) until both are in: the server sends
// it to that seat alone, and this module draws whatever its view holds.
//
// Acting, a seat decides by clicking: who drafts first and the draft picks
// as buttons (Double Turn when the legal list offers one); a turn's sealed
// choice as a piece to present (turned with ↻ ↔ ↕, or R, H, V), a piece to
// set aside and Seal; placing with a ghost of the piece that follows the
// pointer over its own wall, ↻ ↔ ↕ with a counter of free and paid steps,
// and a second click (or Place) to confirm; an Exchange; orienting a piece
// swapped in; the round-end choice for each set-aside piece. Every choice is
// sent as the rulings' notation; the legal actions the server lists say
// where a piece may go and what may be chosen.
//
// It offers the board-module interface described in games/index.js. Its
// parts: pentomino-wall/rules.js (shapes, orientations, steps, notation) and
// words.js (seats, colours, events in words); both are re-exported for the
// unit tests.

import { boardStates } from '../board.js';
import {
  COLS,
  EXCHANGE,
  FREE_STEPS,
  HEIGHT,
  LETTERS,
  WIDTH,
  canonical,
  cellName,
  cellsOf,
  costOf,
  coveredCells,
  doublesIn,
  orientText,
  parseCell,
  piecesOf,
  placeText,
  placementsIn,
  presentText,
  roundEndText,
  step,
  stepFocus,
  takeText,
} from './pentomino-wall/rules.js';
import {
  COLOURS,
  SEATS,
  cap,
  credits,
  deciderWords,
  esc,
  eventWords,
  orientationWords,
  other,
  plural,
  seatName,
} from './pentomino-wall/words.js';

export * from './pentomino-wall/rules.js';
export * from './pentomino-wall/words.js';

const CELL = 30;
const PAD = 20;
const isSeat = (who) => who === 'P1' || who === 'P2';
const TOOLS = [
  ['cw', '↻', 'Turn a quarter clockwise (R)'],
  ['lr', '↔', 'Mirror left–right (H)'],
  ['tb', '↕', 'Mirror top–bottom (V)'],
];
const KEYS = { r: 'cw', h: 'lr', v: 'tb' };

// --- drawing --------------------------------------------------------------------

/// A piece drawn small (for buttons and lists), in orientation `name`.
export function pieceSvg(name, size = 9) {
  const cells = cellsOf(name);
  if (!cells.length) return '';
  const w = Math.max(...cells.map(([x]) => x)) + 1;
  const h = Math.max(...cells.map(([, y]) => y)) + 1;
  const fill = COLOURS[name[0]];
  const rects = cells
    .map(([x, y]) => `<rect x="${x * size}" y="${y * size}" width="${size}" height="${size}" fill="${fill}" stroke="#333" stroke-width="1"/>`)
    .join('');
  return `<svg class="pw-mini" viewBox="-1 -1 ${w * size + 2} ${h * size + 2}" width="${w * size + 2}" height="${h * size + 2}" aria-hidden="true">${rects}</svg>`;
}

/// A piece as a chip: its small drawing and its letter.
function pieceChip(name, extra = '') {
  return `<span class="pw-piece" ${extra}>${pieceSvg(name)}<b>${esc(name)}</b></span>`;
}

/// The wall of `seat` as SVG: painted cells with their letters, black
/// overlaps, coordinates; `opts` = {ghost: {cells, good}, fits: Set,
/// last: Set, active (cells are buttons)}.
export function wallSvg(view, seat, opts = {}) {
  const rows = view.walls?.[seat]?.rows ?? [];
  const w = WIDTH * CELL + PAD;
  const h = HEIGHT * CELL + PAD;
  const parts = [];
  for (let x = 0; x < WIDTH; x++) {
    parts.push(`<text class="pw-coord" x="${PAD + x * CELL + CELL / 2}" y="14">${COLS[x]}</text>`);
  }
  for (let y = 0; y < HEIGHT; y++) {
    parts.push(`<text class="pw-coord" x="9" y="${PAD + y * CELL + CELL / 2 + 4}">${y + 1}</text>`);
    for (let x = 0; x < WIDTH; x++) {
      const c = rows[y]?.[x] ?? '.';
      const name = cellName(x, y);
      const cls = ['pw-cell'];
      let label = `${name}, `;
      let fill = '#fbfaf7';
      if (c === '#') {
        cls.push('black');
        fill = '#1c1c1e';
        label += 'black (overlap)';
      } else if (LETTERS.includes(c)) {
        cls.push('painted');
        fill = COLOURS[c];
        label += `${c}`;
      } else {
        label += 'unpainted';
      }
      if (opts.last?.has(name)) cls.push('last');
      if (opts.fits?.has(name)) cls.push('fits');
      const px = PAD + x * CELL;
      const py = PAD + y * CELL;
      // A cell that cannot be clicked is still named: an image with a label
      // (aria-label on a <g> without a role is not allowed).
      const act = opts.active ? ` tabindex="-1" role="button"` : ` role="img"`;
      parts.push(
        `<g class="${cls.join(' ')}" data-cell="${name}" data-seat="${seat}"${act} aria-label="${esc(label)}">` +
          `<rect x="${px}" y="${py}" width="${CELL}" height="${CELL}" fill="${fill}"/>` +
          (LETTERS.includes(c) ? `<text class="pw-letter" x="${px + CELL / 2}" y="${py + CELL / 2 + 5}">${c}</text>` : '') +
          (opts.fits?.has(name) ? `<circle class="pw-fit-dot" cx="${px + CELL / 2}" cy="${py + CELL / 2}" r="3"/>` : '') +
          '</g>',
      );
    }
  }
  const ghost = opts.ghost;
  if (ghost?.cells?.length) {
    const cls = ghost.good ? 'pw-ghost good' : 'pw-ghost bad';
    const rects = ghost.cells
      .map((n) => parseCell(n))
      .filter(Boolean)
      .map(({ col: x, row: y }) => `<rect x="${PAD + x * CELL + 2}" y="${PAD + y * CELL + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="3"/>`)
      .join('');
    parts.push(`<g class="${cls}" style="--pw-ghost:${COLOURS[ghost.letter] ?? '#999'}">${rects}</g>`);
  }
  return `<svg class="pw-wall-svg" viewBox="0 0 ${w} ${h}" role="group" aria-label="${esc(seatName(seat))}’s wall">${parts.join('')}</svg>`;
}

/// The cells of the latest placement on `seat`'s wall.
function lastCells(view, seat) {
  const placed = view.walls?.[seat]?.placed ?? [];
  const p = placed[placed.length - 1];
  return new Set(p ? coveredCells(p.piece, p.at) ?? [] : []);
}

// --- the seats' cards ------------------------------------------------------------

function seatChip(seat) {
  const s = SEATS[seat];
  return `<span class="chip ${s.className}"><span class="chip-mark" aria-hidden="true">${esc(s.mark)}</span> ${esc(s.label)}</span>`;
}

function scoreLine(score) {
  if (!score) return '';
  return `<span class="pw-score" title="square + pieces + credits − 2 × unpainted">score <b>${score.total}</b> = ` +
    `square ${score.square} + pieces ${score.pieces} + credits ${score.credits} − 2 × ${score.unpainted} unpainted</span>`;
}

function sealedState(view, seat) {
  if (view.phase === 'present') {
    if (view.sealed?.[seat]) return `<span class="pw-badge">sealed: presents ${esc(view.sealed[seat].present)}, sets ${esc(view.sealed[seat].aside)} aside</span>`;
    return view.submitted?.[seat] ? '<span class="pw-badge">sealed</span>' : '<span class="pw-badge waiting">choosing</span>';
  }
  if (view.phase === 'place') {
    if (view.placed?.[seat]) return '<span class="pw-badge">placed</span>';
    if (view.to_place?.[seat]) return `<span class="pw-badge waiting">places ${esc(view.to_place[seat])}</span>`;
    if (view.exchanged?.[seat]) return `<span class="pw-badge waiting">waits for ${esc(view.exchanged[seat])} to be oriented</span>`;
  }
  if (view.phase === 'round-end') {
    return view.choices?.[seat] ? `<span class="pw-badge">${esc(view.choices[seat])}</span>` : '<span class="pw-badge waiting">choosing</span>';
  }
  return '';
}

/// A seat that owes both a placement and an orientation may do either
/// first (the rulebook sets no order): the board offers the one that fell
/// due first and says the other may come first, typed in the text box.
function eitherOrder(view, you, kind) {
  const them = other(you);
  const owesOrient = view.exchanged?.[them] && !view.to_place?.[them] && !view.placed?.[them];
  const hasPiece = view.to_place?.[you] && !view.placed?.[you];
  if (!owesOrient || !hasPiece) return '';
  return kind === 'place'
    ? `<p class="pw-either">Your opponent exchanged: you may orient ${esc(view.exchanged[them])} for them before placing (type “orient ${esc(view.exchanged[them])}90” below) or after.</p>`
    : `<p class="pw-either">You may place ${esc(view.to_place[you])} before orienting (type “place ${esc(view.to_place[you])} at …” below) or after.</p>`;
}

function seatCard(view, seat, you, acting) {
  const pieces = (text) => (piecesOf(text).length ? piecesOf(text).map((l) => pieceChip(l)).join('') : '<span class="pw-none">none</span>');
  const kept = (view.kept?.[seat] ?? []).map((k) => `${k.piece}×${k.rounds}`).join(', ');
  return (
    `<section class="pw-seat ${acting ? 'to-move' : ''}" data-seat="${seat}" aria-label="${esc(seatName(seat))}">` +
    `<div class="pw-seat-head">${seatChip(seat)}${seat === you ? ' <span class="pw-you">you</span>' : ''}` +
    ` <span class="pw-credits" data-credits="${view.credits?.[seat] ?? 0}">${credits(view.credits?.[seat] ?? 0)}</span> ${sealedState(view, seat)}</div>` +
    `<div class="pw-seat-line">${scoreLine(view.scores?.[seat])}</div>` +
    `<div class="pw-seat-line"><span class="pw-label">hand</span> <span class="pw-hand" data-hand="${seat}">${pieces(view.hands?.[seat])}</span></div>` +
    (piecesOf(view.aside?.[seat]).length ? `<div class="pw-seat-line"><span class="pw-label">set aside</span> ${pieces(view.aside[seat])}</div>` : '') +
    (kept ? `<div class="pw-seat-line pw-muted">kept in a row: ${esc(kept)}</div>` : '') +
    '</section>'
  );
}

export function phaseLine(view) {
  const turn = view.turn > 0 ? `, turn ${view.turn} of 3` : '';
  const what = {
    first: `${seatName(view.advantage)} names who drafts first`,
    draft: view.drafter ? `${seatName(view.drafter)} drafts` : 'the draft',
    present: 'both seats present a piece and set one aside, sealed',
    place: 'both seats place the piece presented to them',
    'round-end': 'both seats choose for each set-aside piece',
    over: 'the match is over',
  }[view.phase] ?? view.phase;
  return `Round ${view.round} of 6${turn}: ${what}.`;
}

// --- the acting seat's tools ---------------------------------------------------

function toolButtons(st) {
  return TOOLS.map(([how, glyph, title]) => `<button type="button" class="pw-tool" data-tool="${how}" title="${title}" aria-label="${title}">${glyph}</button>`).join('');
}

/// What a placement costs now, in words.
export function stepsWords(from, to, quarterTurns, creditsLeft) {
  const { steps, paid } = costOf(from, to, quarterTurns);
  if (!Number.isFinite(steps)) return '';
  const free = Math.min(steps, FREE_STEPS);
  let w = `${plural(steps, 'step')} from ${from}: ${free} of ${FREE_STEPS} free`;
  if (paid > 0) w += `, ${paid} paid (${credits(paid)} to your opponent${paid > creditsLeft ? `; you have ${creditsLeft}` : ''})`;
  return w;
}

function toolsHtml(st) {
  const { view, ctx } = st;
  const you = ctx.you;
  const legal = ctx.legal ?? [];
  const kind = ctx.kind;
  const hint = `<p class="pw-hint" aria-live="polite">${esc(st.hint)}</p>`;
  if (kind === 'first') {
    return `<div class="pw-tools" role="group" aria-label="Who drafts first">` +
      ['P1', 'P2'].map((s) => `<button type="button" class="primary" data-action="first ${s}">${s === you ? 'I draft first' : `${esc(seatName(s))} drafts first`}</button>`).join('') +
      `</div>`;
  }
  if (kind === 'draft') {
    const pool = piecesOf(view.pool);
    const doubles = doublesIn(legal);
    const picked = st.double ?? null;
    const buttons = pool
      .map((l) => `<button type="button" class="pw-pick${picked === l ? ' chosen' : ''}" data-take="${l}" aria-pressed="${picked === l}">${pieceSvg(l)}<b>${l}</b></button>`)
      .join('');
    const double = doubles.length
      ? `<button type="button" data-tool="double" aria-pressed="${st.doubleOn ? 'true' : 'false'}" class="${st.doubleOn ? 'chosen' : ''}">Double Turn (${DOUBLE_TURN_TEXT})</button>`
      : '';
    const line = st.doubleOn ? (picked ? `Double Turn: ${picked} and one more.` : 'Double Turn: pick two pieces.') : 'Take a piece from the pool.';
    return `<div class="pw-tools" role="group" aria-label="Draft"><p>${line}</p><div class="pw-picks">${buttons}</div>${double}</div>${hint}`;
  }
  if (kind === 'present') {
    const hand = piecesOf(view.hands?.[you]);
    const o = st.orientation;
    const pick = (attr, chosen, l) =>
      `<button type="button" class="pw-pick${chosen === l ? ' chosen' : ''}" data-${attr}="${l}" aria-pressed="${chosen === l}">${pieceSvg(attr === 'present' && chosen === l ? o : l)}<b>${attr === 'present' && chosen === l ? o : l}</b></button>`;
    const presentRow = hand.map((l) => pick('present', o?.[0], l)).join('');
    const asideRow = hand.filter((l) => l !== o?.[0]).map((l) => pick('aside', st.aside, l)).join('');
    const ready = o && st.aside && legal.includes(presentText(o, st.aside));
    return (
      '<div class="pw-tools" role="group" aria-label="Present and set aside">' +
      `<p>1. Present a piece to your opponent, turned as you like:</p><div class="pw-picks">${presentRow}</div>` +
      (o ? `<div class="pw-orient">${toolButtons(st)} <span class="pw-now">${pieceSvg(o, 12)} ${esc(o)}</span></div>` : '') +
      `<p>2. Set a piece aside for the round:</p><div class="pw-picks">${asideRow || '<span class="pw-none">pick the piece to present first</span>'}</div>` +
      `<button type="button" class="primary" data-tool="seal" data-submit ${ready ? '' : 'disabled'}>Seal: present ${esc(o ?? '…')}, set ${esc(st.aside ?? '…')} aside</button>` +
      '</div>' + hint
    );
  }
  if (kind === 'place') {
    const from = view.to_place?.[you];
    const o = st.orientation ?? from;
    const exchanges = legal.filter((a) => a.startsWith('exchange '));
    const exchange = exchanges.length
      ? `<div class="pw-exchange"><span>Exchange (${EXCHANGE} credits): take ${esc(from?.[0])} into your hand and give instead</span> ` +
        exchanges.map((a) => `<button type="button" data-action="${esc(a)}">${pieceSvg(a.slice(-1))} ${esc(a.slice(-1))}</button>`).join('') + '</div>'
      : '';
    const planned = st.at ? placeText(o, st.at) : null;
    return (
      '<div class="pw-tools" role="group" aria-label="Place">' +
      `<p>Place ${esc(from)} on your wall: point at a cell for the piece’s top-left corner; click to choose, click again (or Place) to confirm.</p>` +
      `<div class="pw-orient">${toolButtons(st)} <span class="pw-now">${pieceSvg(o, 12)} ${esc(o)}</span> <span class="pw-steps">${esc(stepsWords(from, o, view.quarter_turns, view.credits?.[you] ?? 0))}</span></div>` +
      `<button type="button" class="primary" data-tool="place" data-submit ${planned && legal.includes(planned) ? '' : 'disabled'}>Place ${esc(o)}${st.at ? ` at ${st.at}` : ''}</button>` +
      exchange + eitherOrder(view, you, 'place') + '</div>' + hint
    );
  }
  if (kind === 'orient') {
    const letter = view.exchanged?.[other(you)];
    const o = st.orientation ?? letter;
    return (
      '<div class="pw-tools" role="group" aria-label="Orient">' +
      `<p>Your opponent exchanged: orient ${esc(letter)}, the piece they must now place.</p>` +
      `<div class="pw-orient">${toolButtons(st)} <span class="pw-now">${pieceSvg(o, 12)} ${esc(o)}</span></div>` +
      `<button type="button" class="primary" data-tool="orient" data-submit>Orient as ${esc(o)}</button>` +
      eitherOrder(view, you, 'orient') + '</div>' + hint
    );
  }
  if (kind === 'round-end') {
    const aside = piecesOf(view.aside?.[you]);
    const rows = aside
      .map((l) => {
        const verb = st.choices[l] ?? 'return';
        const keptBefore = (view.kept?.[you] ?? []).find((k) => k.piece === l)?.rounds ?? 0;
        const keepCost = 2 ** keptBefore;
        const opt = (v, label) =>
          `<button type="button" class="pw-verb${verb === v ? ' chosen' : ''}" data-piece="${l}" data-verb="${v}" aria-pressed="${verb === v}">${label}</button>`;
        return `<div class="pw-end-row">${pieceChip(l)} ${opt('give', 'give (+1 credit)')} ${opt('return', 'return to the pool')} ${opt('keep', `keep (+${credits(keepCost)} to your opponent)`)}</div>`;
      })
      .join('');
    const text = roundEndText(Object.fromEntries(aside.map((l) => [l, st.choices[l] ?? 'return'])));
    return (
      '<div class="pw-tools" role="group" aria-label="Round end">' +
      `<p>Round ${view.round} ends: what becomes of each piece you set aside?</p>${rows}` +
      `<button type="button" class="primary" data-tool="round-end" data-submit ${legal.length && !legal.includes(text) ? 'disabled' : ''}>Confirm: ${esc(text)}</button></div>` + hint
    );
  }
  return '';
}

const DOUBLE_TURN_TEXT = '2 credits to your opponent';

// --- the end --------------------------------------------------------------------

/// The end: each scoring term per seat and the step that decided.
export function endingHtml(view, outcome) {
  const s = view.scores ?? {};
  const row = (label, f, strong = false) =>
    `<tr><th scope="row">${label}</th>${['P1', 'P2'].map((seat) => `<td>${strong ? `<strong>${f(seat)}</strong>` : f(seat)}</td>`).join('')}</tr>`;
  const w = outcome?.winner;
  const why = w
    ? `${seatName(w)} wins on ${deciderWords(outcome.decided_by)}.`
    : `A draw: ${deciderWords(outcome?.decided_by)}.`;
  return (
    '<div class="table-wrap"><table class="pw-end-table"><caption>The walls scored</caption>' +
    `<thead><tr><th scope="col"><span class="sr-only">Scored</span></th><th scope="col">${seatChip('P1')}</th><th scope="col">${seatChip('P2')}</th></tr></thead><tbody>` +
    row('largest painted square (edge)', (x) => s[x]?.square ?? 0) +
    row('clearly defined pieces', (x) => s[x]?.pieces ?? 0) +
    row('credits', (x) => s[x]?.credits ?? 0) +
    row('unpainted cells (−2 each)', (x) => `${s[x]?.unpainted ?? 0} (−${2 * (s[x]?.unpainted ?? 0)})`) +
    row('score', (x) => s[x]?.total ?? 0, true) +
    '</tbody></table></div>' +
    `<p class="pw-why">${esc(why)}</p>`
  );
}

// --- DOM glue --------------------------------------------------------------------

const boards = boardStates({
  make: () => ({ focus: 'A1' }),
  fresh: (st) => {
    st.orientation = null;
    st.aside = null;
    st.at = null;
    st.hover = null;
    st.doubleOn = false;
    st.double = null;
    st.choices = {};
    st.hint = '';
  },
  on: { click: onClick, keydown: onKey },
  // Only the seat's own wall previews a placement.
  hover: {
    cells: '.pw-cell[data-cell]',
    show: (container, name, cell) => hoverAt(container, cell?.dataset.seat === boards.get(container)?.ctx?.you ? name : null),
  },
});

const acting = (st) => !!st.ctx?.acting && isSeat(st.ctx?.you) && !!st.ctx?.kind;

/// The piece the acting seat is turning now, if any.
function turning(st) {
  const { view, ctx } = st;
  if (!acting(st)) return null;
  if (ctx.kind === 'place') return st.orientation ?? view.to_place?.[ctx.you] ?? null;
  if (ctx.kind === 'orient') return st.orientation ?? view.exchanged?.[other(ctx.you)] ?? null;
  if (ctx.kind === 'present') return st.orientation;
  return null;
}

/// Where the current orientation may go (anchor cells), per the legal list.
function fitsNow(st) {
  if (!acting(st) || st.ctx.kind !== 'place') return new Set();
  const o = canonical(turning(st));
  return placementsIn(st.ctx.legal).get(o) ?? new Set();
}

function ghostAt(st, at) {
  const o = turning(st);
  if (!o || !at) return null;
  const cells = coveredCells(o, at);
  if (!cells) {
    // Off the wall: draw what fits, marked bad.
    const p = parseCell(at);
    const all = cellsOf(o).map(([x, y]) => [x + p.col, y + p.row]).filter(([x, y]) => x < WIDTH && y < HEIGHT);
    return { cells: all.map(([x, y]) => cellName(x, y)), good: false, letter: o[0] };
  }
  return { cells, good: fitsNow(st).has(at), letter: o[0] };
}

function draw(container) {
  const st = boards.get(container);
  const { view, ctx } = st;
  const you = ctx.you;
  const mine = isSeat(you) ? you : 'P1';
  const placing = acting(st) && ctx.kind === 'place';
  const fits = fitsNow(st);
  const at = st.at ?? st.hover;
  const wall = (seat) =>
    `<div class="pw-wall" data-wall="${seat}"><h2>${esc(seatName(seat))}${seat === you ? ' — your wall' : ''}</h2>` +
    wallSvg(view, seat, {
      last: lastCells(view, seat),
      fits: placing && seat === mine ? fits : null,
      ghost: placing && seat === mine ? ghostAt(st, at) : null,
      active: placing && seat === mine,
    }) +
    '</div>';
  const pool = piecesOf(view.pool);
  const decisionSeats = ctx.decision?.seats ?? [];
  container.innerHTML =
    `<div class="pw${placing ? ' pw-placing' : ''}${acting(st) ? ' pw-acting' : ''}">` +
    `<p class="pw-phase-line">${esc(phaseLine(view))}</p>` +
    `<div class="pw-info">${['P1', 'P2'].map((s) => seatCard(view, s, you, decisionSeats.includes(s))).join('')}</div>` +
    (pool.length ? `<div class="pw-pool"><span class="pw-label">pool</span> ${pool.map((l) => pieceChip(l)).join('')}</div>` : '') +
    (acting(st) ? toolsHtml(st) : '') +
    `<div class="pw-walls">${wall(mine)}${wall(other(mine))}</div>` +
    '</div>';
  if (acting(st) && ctx.staged) markStaged(container, ctx.staged);
}

/// Marks what shows the action waiting for confirmation: the pieces taken,
/// or the choice made in the tools (the ghost on the wall, the pieces
/// chosen, the button that sends it).
function markStaged(container, text) {
  const taken = /^take\s+(.+)$/i.exec(text.trim());
  const marks = taken
    ? taken[1].trim().split(/\s+/).flatMap((l) => [...container.querySelectorAll(`[data-take="${CSS.escape(l.toUpperCase())}"]`)])
    : [...container.querySelectorAll('.pw-ghost, .pw-tools .chosen, .pw-tools button.primary[data-tool]')];
  for (const el of marks) el.setAttribute('data-staged', '');
}

function hoverAt(container, name) {
  const st = boards.get(container);
  if (!st || st.hover === name) return;
  st.hover = name;
  if (acting(st) && st.ctx.kind === 'place' && !st.at) redrawGhost(container);
}

/// Redraws only the wall being placed on (the pointer moves often).
function redrawGhost(container) {
  const st = boards.get(container);
  const layer = container.querySelector(`.pw-wall[data-wall="${st.ctx.you}"]`);
  if (!layer) return draw(container);
  const view = st.view;
  const at = st.at ?? st.hover;
  layer.querySelector('svg').outerHTML = wallSvg(view, st.ctx.you, {
    last: lastCells(view, st.ctx.you),
    fits: fitsNow(st),
    ghost: ghostAt(st, at),
    active: true,
  });
}

function setHint(container, text) {
  boards.hint(container, '.pw-hint', text);
}

function submit(st, text) {
  st.ctx.submit(text);
}

/// Turns the piece being oriented one step.
function turn(container, how) {
  const st = boards.get(container);
  const o = turning(st);
  if (!o) return;
  st.orientation = step(o, how);
  st.at = null;
  draw(container);
}

function placeAt(container, name) {
  const st = boards.get(container);
  const o = canonical(turning(st));
  if (!fitsNow(st).has(name)) {
    st.at = null;
    draw(container);
    const cells = coveredCells(o, name);
    setHint(container, cells ? `${o} cannot go at ${name}: ${whyNot(st, o, cells)}.` : `${o} at ${name} would leave the wall.`);
    return;
  }
  if (st.at === name) return submit(st, placeText(o, name));
  st.at = name;
  draw(container);
  setHint(container, `${o} at ${name}: click again or press Place to confirm.`);
}

/// Why a placement inside the wall is not listed.
function whyNot(st, o, cells) {
  const { view, ctx } = st;
  const { paid } = costOf(view.to_place?.[ctx.you], o, view.quarter_turns);
  if (paid > (view.credits?.[ctx.you] ?? 0)) return `turning it costs ${credits(paid)}, more than you have`;
  const rows = view.walls?.[ctx.you]?.rows ?? [];
  const empty = rows.every((r) => !/[^.]/.test(r));
  if (empty) return 'the first piece of a wall must touch its border';
  void cells;
  return 'the painted area must stay connected (touch a painted cell)';
}

function onClick(container, e) {
  const st = boards.get(container);
  if (!st || !acting(st)) return;
  const { view, ctx } = st;
  const t = e.target.closest('button, .pw-cell[data-cell]');
  if (!t) return;
  if (t.dataset.cell) {
    if (t.dataset.seat === ctx.you && ctx.kind === 'place') placeAt(container, t.dataset.cell);
    return;
  }
  const tool = t.dataset.tool;
  if (tool && KEYS_BY_TOOL.has(tool)) return turn(container, tool);
  if (tool === 'double') {
    st.doubleOn = !st.doubleOn;
    st.double = null;
    return draw(container);
  }
  if (t.dataset.take) {
    const l = t.dataset.take;
    if (!st.doubleOn) return submit(st, takeText(l));
    if (!st.double) {
      st.double = l;
      return draw(container);
    }
    if (st.double === l) {
      st.double = null;
      return draw(container);
    }
    return submit(st, takeText(st.double, l));
  }
  if (t.dataset.present) {
    const l = t.dataset.present;
    if (st.orientation?.[0] !== l) st.orientation = canonical(l);
    if (st.aside === l) st.aside = null;
    return draw(container);
  }
  if (t.dataset.aside) {
    st.aside = t.dataset.aside;
    return draw(container);
  }
  if (tool === 'seal' && st.orientation && st.aside) return submit(st, presentText(st.orientation, st.aside));
  if (tool === 'place' && st.at) return submit(st, placeText(turning(st), st.at));
  if (tool === 'orient') return submit(st, orientText(turning(st)));
  if (t.dataset.verb) {
    st.choices[t.dataset.piece] = t.dataset.verb;
    return draw(container);
  }
  if (tool === 'round-end') {
    const aside = piecesOf(view.aside?.[ctx.you]);
    return submit(st, roundEndText(Object.fromEntries(aside.map((l) => [l, st.choices[l] ?? 'return']))));
  }
}

const KEYS_BY_TOOL = new Set(Object.values(KEYS));

/// R, H, V turn the piece; on the wall, arrows move the focus and Enter
/// or Space clicks the focused cell.
function onKey(container, e) {
  const st = boards.get(container);
  if (!st || !acting(st) || e.target.closest?.('input, textarea')) return;
  const how = KEYS[e.key?.toLowerCase?.()];
  if (how && turning(st)) {
    e.preventDefault();
    turn(container, how);
    if (st.ctx.kind === 'place') focusCell(container, st.focus);
    return;
  }
  const g = e.target.closest?.('.pw-cell[data-cell]');
  if (!g) return;
  const to = stepFocus(g.dataset.cell, e.key);
  if (to) {
    e.preventDefault();
    st.focus = to;
    hoverAt(container, st.focus);
    focusCell(container, st.focus);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    st.focus = g.dataset.cell;
    placeAt(container, g.dataset.cell);
    focusCell(container, st.focus);
  }
}

function focusCell(container, name) {
  const el = container.querySelector(`.pw-wall[data-wall="${boards.get(container).ctx.you}"] [data-cell="${name}"]`);
  el?.focus();
}

export default {
  id: 'pentomino-wall',
  name: 'Pentomino Wall',
  seats: SEATS,
  example: 'place T90 at C4',
  help:
    'Each wall is 10 columns (A–J) by 9 rows; a painted cell shows its piece’s letter and colour, black where pieces ' +
    'overlapped. Draft: click a pool piece (Double Turn: press it, then two pieces). A turn: click the piece to ' +
    'present, turn it with ↻ ↔ ↕ (or R, H, V), click the piece to set aside, then Seal: it stays hidden until both ' +
    'seats are in. Placing: turn the piece (two steps free, each further one costs a credit), point at your wall ' +
    '(the dots mark where its top-left corner may go), click, then click again or press Place. Keyboard: Tab to ' +
    'your wall, arrows move, Enter places. Or type the notation: “take F”, “take F L”, “present T90 aside P”, ' +
    '“place Tm90 at C4”, “exchange L”, “orient L90”, “give P, return Z, keep W”.',

  prompt(kind, view) {
    const r = view?.round ?? 1;
    return (
      {
        first: 'Your turn: name who drafts first.',
        draft: `Your turn: round ${r}: take a piece from the pool.`,
        present: `Your turn: round ${r}, turn ${view?.turn ?? 1}: present a piece and set one aside (sealed).`,
        place: 'Your turn: place the piece presented to you on your wall.',
        orient: 'Your turn: orient the piece your opponent must place.',
        'round-end': `Your turn: round ${r} ends: give, return or keep each set-aside piece.`,
      }[kind] ?? null
    );
  },

  /// A rules example drawn: a line of piece names (the twelve pieces, or
  /// one piece's orientations) with their ASCII pictures under them becomes
  /// the pieces drawn as on the walls.
  illustrate(text) {
    const names = text.split('\n')[0].trim().split(/\s+/);
    if (names.length < 2 || !names.every((n) => canonical(n))) return null;
    const letters = new Set(names.map((n) => n[0].toUpperCase()));
    const caption = letters.size === names.length
      ? `The ${names.length} pieces: ${names.join(', ')}`
      : `${names[0][0].toUpperCase()} in its orientations: ${names.map(orientationWords).join('; ')}`;
    const items = names
      .map((n) => `<li class="pw-rules-piece">${pieceSvg(n, 14)}<span>${esc(n)}</span></li>`)
      .join('');
    return { html: `<ul class="pw-rules-pieces">${items}</ul>`, caption };
  },

  /// An action in words: "Place T turned 90° at C4".
  describe(action) {
    const text = action.trim();
    const first = /^first (P[12])$/.exec(text);
    if (first) return `${seatName(first[1])} drafts first`;
    const take = /^take\s+([A-Z])(?:\s+([A-Z]))?$/i.exec(text);
    if (take) return take[2] ? `Take ${take[1].toUpperCase()} and ${take[2].toUpperCase()} (Double Turn)` : `Take ${take[1].toUpperCase()}`;
    const present = /^present\s+(\S+)\s+aside\s+(\S+)$/i.exec(text);
    if (present) return `Present ${orientationWords(present[1])}, set ${present[2]} aside (sealed)`;
    const place = /^place\s+(\S+)\s+at\s+(\S+)$/i.exec(text);
    if (place) return `Place ${orientationWords(place[1])} at ${place[2].toUpperCase()}`;
    const orientTo = /^orient\s+(\S+)$/i.exec(text);
    if (orientTo) return `Orient the piece as ${orientationWords(orientTo[1])}`;
    const exchange = /^exchange\s+(\S+)$/i.exec(text);
    if (exchange) return `Exchange: give ${exchange[1]} instead`;
    if (/^(give|return|keep)\b/i.test(text)) return cap(text.replace(/,\s*/g, ', '));
    return null;
  },

  doing(kind) {
    return (
      {
        first: 'name who drafts first',
        draft: 'draft',
        present: 'present a piece and set one aside (sealed)',
        place: 'place a piece',
        orient: 'orient an exchanged piece',
        'round-end': 'choose for the set-aside pieces',
      }[kind] ?? null
    );
  },

  /// Draws `view`; keeps a half-made choice while the decision stays the same.
  render(container, view, ctx) {
    const key = `${view.phase}|${view.round}|${view.turn}|${ctx.kind}|${!!ctx.acting}|${view.to_place?.[ctx.you] ?? ''}|${view.picks}`;
    boards.update(container, view, ctx, key);
    draw(container);
  },

  reset(container) {
    if (boards.reset(container)) draw(container);
  },

  status(view) {
    const words = eventWords(view.last);
    const scores = `Scores: ${SEATS.P1.label} ${view.scores?.P1?.total ?? 0}, ${SEATS.P2.label} ${view.scores?.P2?.total ?? 0}`;
    return words ? `Last: ${cap(words)}. ${scores}.` : `${scores}.`;
  },

  moveOf(before) {
    const round = `Round ${before.round}`;
    if (before.phase === 'draft') return { label: `${round}: draft` };
    if (before.phase === 'present' || before.phase === 'place') return { label: `${round}, turn ${Math.max(1, before.turn)}` };
    if (before.phase === 'round-end') return { label: `${round}: end` };
    return { label: 'Setup' };
  },
  ending(view, outcome) {
    if (view.phase !== 'over') return '';
    return endingHtml(view, outcome);
  },
};
