// Battle of the Flower Domain's board: the meadow and the garden, two 10×10
// SVG grids side by side. Nothing is hidden in this game: every viewer gets
// the same view. A player picks 2–4 connected meadow flowers of different
// colours by clicking, turns or flips the picked shape, and clicks the
// garden where the shape's outline follows the pointer; the module writes
// the move in the rulebook's notation (`A1-B1-C1-C2 to B3-B2-B1-A1`, the
// n-th meadow cell's flower to the n-th garden cell).
//
// The legal moves can number hundreds of thousands, so the server often
// sends no list: this module checks colours, connection, shape, room and
// the first-move rule itself to guide the player; the server still judges.
//
// It offers the board-module interface described in games/index.js; the
// pure functions are exported too, for the unit tests.

import { boardStates, grid } from '../board.js';
import { esc } from '../util.js';

const SIZE = 10;
const GRID = grid(SIZE);
const CELL = 40;
const MARGIN = 26;
/// The centre cells the amended first move must cover.
export const CENTRE = ['E5', 'F5', 'E6', 'F6'];
const PASSES_TO_END = 4;

/// Each colour with its letter (as in the view's rows) and its shape, so
/// colour-blind players can tell them apart.
export const FLOWERS = {
  R: { name: 'red', shape: 'diamond' },
  Y: { name: 'yellow', shape: 'hexagon' },
  G: { name: 'green', shape: 'square' },
  B: { name: 'blue', shape: 'circle' },
};
export const COLOURS = ['red', 'yellow', 'green', 'blue'];
const LETTER = { red: 'R', yellow: 'Y', green: 'G', blue: 'B' };

/// The seats carry no colour of their own here (the flowers do): a number
/// until the draft, then the colours each drafted (see `paint`).
export const SEATS = {
  P1: { label: 'Player 1', mark: '1', className: 'p1' },
  P2: { label: 'Player 2', mark: '2', className: 'p2' },
};
const UNDRAFTED = structuredClone(SEATS);

/// Each flower colour as a seat wears it: its fill, a shade dark enough for
/// text on white (at least 4.5:1), and the mark of its shape.
const SEAT_COLOURS = {
  red: { fill: '#d7263d', text: '#b01e32', mark: '◆' },
  yellow: { fill: '#f4c20d', text: '#7a5d00', mark: '⬢' },
  green: { fill: '#2e9b47', text: '#1e6e31', mark: '■' },
  blue: { fill: '#1f5fbf', text: '#1f5fbf', mark: '●' },
};

/// Names each seat by the colours it drafted ("Red & green"), in the
/// words, the chips and the page's seat colours (--p1, --p2); before the
/// draft, "Player 1" and "Player 2".
export function paint(view) {
  for (const seat of ['P1', 'P2']) {
    const mine = COLOURS.filter((c) => view?.owners?.[c] === seat);
    const first = SEAT_COLOURS[mine[0]];
    Object.assign(SEATS[seat], UNDRAFTED[seat]);
    if (first) {
      const names = mine.join(' & ');
      Object.assign(SEATS[seat], { label: `${names[0].toUpperCase()}${names.slice(1)}`, mark: first.mark });
    }
    if (typeof document !== 'undefined') {
      const style = document.documentElement.style;
      if (first) {
        style.setProperty(`--${seat.toLowerCase()}`, first.fill);
        style.setProperty(`--${seat.toLowerCase()}-text`, first.text);
      } else {
        style.removeProperty(`--${seat.toLowerCase()}`);
        style.removeProperty(`--${seat.toLowerCase()}-text`);
      }
    }
  }
}

const other = (seat) => (seat === 'P1' ? 'P2' : 'P1');

// --- cells and boards -----------------------------------------------------

export const cellName = GRID.name;
export const parseCell = GRID.parse;
const onBoard = GRID.onBoard;

/// The letter on `name` of a board given as ten rows ('.' for none).
export function at(rows, name) {
  const p = parseCell(name);
  return p ? ((rows?.[p.row] ?? '')[p.col] ?? '.') : '.';
}

export const adjacent = GRID.adjacent;

function neighbours(name) {
  const p = parseCell(name);
  return GRID.neighbours(p.col, p.row).map(([c, r]) => cellName(c, r));
}

const countFlowers = (rows) => (rows ?? []).join('').replace(/\./g, '').length;

// --- the rules a move must follow (the client's guide) ---------------------

/// The sizes a move may have now: the first move of the game is restricted.
export function moveSizes(view) {
  if (view.restriction === 'amended') return { min: 4, max: 4 };
  if (view.restriction === 'original') return { min: 2, max: 2 };
  return { min: 2, max: 4 };
}

/// Whether meadow flower `cell` may join the selection `sel` (meadow cell
/// names in the order picked): a flower, not picked yet, of a new colour,
/// next to a picked flower, and room left.
export function canAdd(view, sel, cell) {
  const letter = at(view.meadow, cell);
  if (letter === '.' || sel.includes(cell)) return false;
  if (sel.length >= moveSizes(view).max) return false;
  if (sel.some((c) => at(view.meadow, c) === letter)) return false;
  return sel.length === 0 || sel.some((c) => adjacent(c, cell));
}

/// The orientation `o` = {rot: quarter turns clockwise 0–3, flip: mirrored
/// left to right first} applied to the offset (x, y), screen coordinates.
export function orient(o, [x, y]) {
  let p = o.flip ? [-x, y] : [x, y];
  for (let i = 0; i < ((o.rot % 4) + 4) % 4; i++) p = [-p[1], p[0]];
  return p.map((v) => v + 0); // no -0
}

/// Every orientation, the identity first.
export const ORIENTATIONS = [0, 1, 2, 3].flatMap((rot) => [{ rot, flip: false }, { rot, flip: true }]);

/// Where the selection lands with the first picked flower on garden cell
/// `anchor` in orientation `o`: {to: [cell names, null when off the board],
/// problem: why it cannot go there, or null}.
export function placeAt(view, sel, o, anchor) {
  const a = parseCell(anchor);
  const s0 = parseCell(sel[0]);
  const to = sel.map((name) => {
    const p = parseCell(name);
    const [dx, dy] = orient(o, [p.col - s0.col, p.row - s0.row]);
    return onBoard(a.col + dx, a.row + dy) ? cellName(a.col + dx, a.row + dy) : null;
  });
  let problem = null;
  if (to.includes(null)) problem = 'the shape would leave the garden';
  else {
    const taken = to.find((c) => at(view.garden, c) !== '.');
    if (taken) problem = `garden cell ${taken} already holds a flower`;
    else if (view.restriction === 'amended' && !to.some((c) => CENTRE.includes(c))) {
      problem = 'the first move must cover E5, F5, E6 or F6';
    }
  }
  return { to, problem };
}

/// Whether the selection (complete or not) may be placed now as it is.
export function selectionProblem(view, sel) {
  const { min, max } = moveSizes(view);
  if (sel.length < min) {
    const more = min - sel.length;
    if (min === max) return `the first move takes exactly ${min} flowers: pick ${more} more`;
    return `pick at least ${more} more flower${more === 1 ? '' : 's'}`;
  }
  return null;
}

/// The move's notation: the n-th meadow cell's flower to the n-th garden cell.
export function moveText(from, to) {
  return `${from.join('-')} to ${to.join('-')}`;
}

const cellOrder = (name) => {
  const p = parseCell(name);
  return p.row * SIZE + p.col;
};

/// A move text as the server writes it: the pairs sorted by meadow cell in
/// reading order, upper case; null if it is not a move.
export function canonicalMove(text) {
  const m = /^\s*(.+?)\s*(?:->|\bto\b)\s*(.+?)\s*$/i.exec(String(text));
  if (!m) return null;
  const split = (s) => s.trim().split(/[\s,-]+/).filter(Boolean).map((c) => c.toUpperCase());
  const from = split(m[1]);
  const to = split(m[2]);
  if (!from.length || from.length !== to.length || ![...from, ...to].every(parseCell)) return null;
  const pairs = from.map((f, i) => [f, to[i]]).sort((x, y) => cellOrder(x[0]) - cellOrder(y[0]));
  return moveText(pairs.map((p) => p[0]), pairs.map((p) => p[1]));
}

/// The server's legal list as moves: [{from, to, text}] (pass and the like left out).
export function legalMoves(legal) {
  if (!Array.isArray(legal)) return null;
  const moves = [];
  for (const text of legal) {
    const canon = canonicalMove(text);
    if (!canon) continue;
    const [from, to] = canon.split(' to ').map((s) => s.split('-'));
    moves.push({ from, to, text: canon });
  }
  return moves;
}

/// The selection's shape as a key: its cells' offsets from the top-left
/// corner of its bounding box, sorted (where it fits depends on nothing else).
export function shapeKey(sel) {
  const pts = sel.map(parseCell);
  const minC = Math.min(...pts.map((p) => p.col));
  const minR = Math.min(...pts.map((p) => p.row));
  return pts
    .map((p) => (p.row - minR) * SIZE + (p.col - minC))
    .sort((a, b) => a - b)
    .join(',');
}

/// Whether the selection fits somewhere in the garden in some orientation.
/// `cache` (a Map) remembers the answer per shape for one view.
export function fitsSomewhere(view, sel, cache = null) {
  const key = cache ? shapeKey(sel) : null;
  if (cache?.has(key)) return cache.get(key);
  const pts = sel.map(parseCell);
  const free = (col, row) => onBoard(col, row) && (view.garden?.[row] ?? '')[col] === '.';
  const centre = (col, row) => (col === 4 || col === 5) && (row === 4 || row === 5);
  const needCentre = view.restriction === 'amended';
  let fits = false;
  search: for (const o of ORIENTATIONS) {
    const offsets = pts.map((p) => orient(o, [p.col - pts[0].col, p.row - pts[0].row]));
    for (let row = 0; row < SIZE; row++) {
      for (let col = 0; col < SIZE; col++) {
        if (!offsets.every(([dx, dy]) => free(col + dx, row + dy))) continue;
        if (needCentre && !offsets.some(([dx, dy]) => centre(col + dx, row + dy))) continue;
        fits = true;
        break search;
      }
    }
  }
  cache?.set(key, fits);
  return fits;
}

/// Whether `sel` can grow (by flowers that may join) into a move that can be
/// placed. `legal`: the server's list as legalMoves gives it, when sent.
export function canComplete(view, sel, legal = null, cache = new Map()) {
  if (legal) return legal.some((m) => sel.every((c) => m.from.includes(c)));
  const { min, max } = moveSizes(view);
  const grow = (set) => {
    const key = `set ${[...set].sort().join(' ')}`;
    if (cache.has(key)) return cache.get(key);
    cache.set(key, false);
    let ok = set.length >= min && fitsSomewhere(view, set, cache);
    if (!ok && set.length < max) {
      for (const cell of new Set(set.flatMap(neighbours))) {
        if (canAdd(view, set, cell) && grow([...set, cell])) {
          ok = true;
          break;
        }
      }
    }
    cache.set(key, ok);
    return ok;
  };
  return sel.length > 0 && grow(sel);
}

/// The meadow flowers that may be picked next: they join the selection and
/// the selection can still become a move that fits.
export function pickable(view, sel, legal = null) {
  const out = new Set();
  const cache = new Map();
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      const name = cellName(col, row);
      if (canAdd(view, sel, name) && canComplete(view, [...sel, name], legal, cache)) out.add(name);
    }
  }
  return out;
}

/// The move text for the selection put down at `anchor`, with the reason it
/// is refused here (null when it may be played).
export function planMove(view, sel, o, anchor, legal = null) {
  const problem = selectionProblem(view, sel);
  if (problem) return { text: null, to: [], problem };
  const placed = placeAt(view, sel, o, anchor);
  if (placed.problem) return { text: null, to: placed.to, problem: placed.problem };
  const text = moveText(sel, placed.to);
  if (legal && !legal.some((m) => m.text === canonicalMove(text))) {
    return { text: null, to: placed.to, problem: 'the umpire does not list this move' };
  }
  return { text, to: placed.to, problem: null };
}

// --- scoring ---------------------------------------------------------------

/// The tiebreak chain from the view's regions and owners: rows of each
/// seat's running total with the regions added at that step, the step that
/// decides (-1 when every step is tied and blue decides), blue's controller.
export function scoreSteps(view) {
  const regions = view.regions ?? {};
  const owners = view.owners ?? {};
  const depth = Math.max(1, ...COLOURS.map((c) => regions[c]?.length ?? 0));
  const total = { P1: 0, P2: 0 };
  const rows = [];
  for (let i = 0; i < depth; i++) {
    const added = { P1: [], P2: [] };
    for (const c of COLOURS) {
      const seat = owners[c];
      if (!seat) continue;
      const region = regions[c]?.[i] ?? null;
      const size = region ? region.length : 0;
      total[seat] += size;
      added[seat].push({ colour: c, size, first: region?.[0] ?? null });
    }
    rows.push({ P1: total.P1, P2: total.P2, added });
  }
  const deciding = rows.findIndex((r) => r.P1 !== r.P2);
  return { rows, deciding, blue: owners.blue ?? null };
}

/// The regions that counted in the result: down to the deciding step, or
/// every one when blue decided. [{colour, cells, seat}]
export function scoringRegions(view) {
  const { deciding } = scoreSteps(view);
  const out = [];
  for (const c of COLOURS) {
    const seat = view.owners?.[c];
    if (!seat) continue;
    const list = view.regions?.[c] ?? [];
    const n = deciding < 0 ? list.length : Math.min(list.length, deciding + 1);
    for (let i = 0; i < n; i++) out.push({ colour: c, cells: list[i], seat });
  }
  return out;
}

const ordinals = ['largest', 'second-largest', 'third-largest'];
function stepName(i) {
  return ordinals[i] ?? `${i + 1}th-largest`;
}

// --- drawing ----------------------------------------------------------------

/// One flower's shape centred on (cx, cy), `r` about its radius.
export function flowerShape(letter, cx, cy, r = 14, extra = '') {
  const f = FLOWERS[letter];
  if (!f) return '';
  const cls = `fd-flower fd-${f.name}${extra ? ` ${extra}` : ''}`;
  const n = (v) => Math.round(v * 10) / 10;
  switch (f.shape) {
    case 'diamond': {
      const d = r * 1.12;
      return `<polygon class="${cls}" points="${n(cx)},${n(cy - d)} ${n(cx + d)},${n(cy)} ${n(cx)},${n(cy + d)} ${n(cx - d)},${n(cy)}"/>`;
    }
    case 'hexagon': {
      const pts = [0, 1, 2, 3, 4, 5].map((k) => {
        const a = (Math.PI / 3) * k;
        return `${n(cx + r * Math.cos(a))},${n(cy + r * Math.sin(a))}`;
      });
      return `<polygon class="${cls}" points="${pts.join(' ')}"/>`;
    }
    case 'square': {
      const s = r * 0.85;
      return `<rect class="${cls}" x="${n(cx - s)}" y="${n(cy - s)}" width="${n(2 * s)}" height="${n(2 * s)}" rx="2"/>`;
    }
    default:
      return `<circle class="${cls}" cx="${n(cx)}" cy="${n(cy)}" r="${n(r * 0.95)}"/>`;
  }
}

/// A colour's shape as a small inline icon, with its name for screen readers
/// when `named` is false.
export function icon(colour, named = true) {
  const letter = LETTER[colour];
  return (
    `<svg class="fd-icon" viewBox="0 0 24 24" aria-hidden="true">${flowerShape(letter, 12, 12, 9)}</svg>` +
    (named ? `<span class="fd-colour-name">${colour}</span>` : '')
  );
}

const cellX = (col) => MARGIN + col * CELL;
const cellY = (row) => MARGIN + row * CELL;

function describe(letter) {
  const f = FLOWERS[letter];
  return f ? `${f.name} ${f.shape}` : 'empty';
}

/// Lines around the cells of each region (and a size badge on its first cell).
function outlines(regions) {
  const out = ['<g class="fd-regions" aria-hidden="true">'];
  for (const region of regions) {
    const inside = new Set(region.cells);
    const has = (c, r) => onBoard(c, r) && inside.has(cellName(c, r));
    let d = '';
    for (const name of region.cells) {
      const { col: c, row: r } = parseCell(name);
      const x = cellX(c);
      const y = cellY(r);
      if (!has(c, r - 1)) d += `M${x} ${y}H${x + CELL}`;
      if (!has(c + 1, r)) d += `M${x + CELL} ${y}V${y + CELL}`;
      if (!has(c, r + 1)) d += `M${x} ${y + CELL}H${x + CELL}`;
      if (!has(c - 1, r)) d += `M${x} ${y}V${y + CELL}`;
    }
    out.push(`<path class="fd-region-outline" data-colour="${region.colour}" d="${d}"/>`);
    const first = parseCell(region.cells[0]);
    const x = cellX(first.col);
    const y = cellY(first.row);
    out.push(
      `<rect class="fd-region-badge ${SEATS[region.seat]?.className ?? ''}" x="${x + 1}" y="${y + 1}" width="17" height="14" rx="3"/>`,
      `<text class="fd-region-size" x="${x + 9.5}" y="${y + 12}" text-anchor="middle">${region.cells.length}</text>`,
    );
  }
  out.push('</g>');
  return out.join('');
}

/// The ghost of the selection at its planned garden cells.
export function ghostSvg(view, sel, plan) {
  if (!plan || !sel.length) return '';
  const cls = plan.problem ? 'fd-ghost bad' : 'fd-ghost good';
  const parts = [`<g class="${cls}" aria-hidden="true">`];
  sel.forEach((from, i) => {
    const to = plan.to[i];
    if (!to) return;
    const { col, row } = parseCell(to);
    const x = cellX(col);
    const y = cellY(row);
    parts.push(
      `<rect class="fd-ghost-cell" x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4"/>`,
      flowerShape(at(view.meadow, from), x + CELL / 2, y + CELL / 2, 13, 'fd-ghost-flower'),
    );
  });
  parts.push('</g>');
  return parts.join('');
}

/// A move waiting for confirmation, drawn in the garden where it lands:
/// each flower on its cell, solid and outlined.
export function stagedSvg(view, text) {
  const canon = canonicalMove(text);
  if (!canon) return '';
  const [from, to] = canon.split(' to ').map((s) => s.split('-'));
  const parts = ['<g class="fd-staged">'];
  from.forEach((f, i) => {
    const { col, row } = parseCell(to[i]);
    const x = cellX(col);
    const y = cellY(row);
    parts.push(
      `<g data-staged="${to[i]}"><rect class="fd-staged-cell" x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4"/>`,
      `${flowerShape(at(view.meadow, f), x + CELL / 2, y + CELL / 2, 13)}</g>`,
    );
  });
  parts.push('</g>');
  return parts.join('');
}

/// One board as an SVG string. `which`: 'meadow' or 'garden'. opts: {focus,
/// picked (cells in pick order), pickable (Set), dim (bool: grey the flowers
/// that cannot be picked), last (Set of cells of the last move), centre (mark
/// the centre cells), regions (outlined, [{colour, cells, seat}]), ghost (SVG)}.
export function boardSvg(view, which, opts = {}) {
  const rows = view[which] ?? [];
  const picked = opts.picked ?? [];
  const pickable = opts.pickable ?? new Set();
  const last = opts.last ?? new Set();
  const focus = opts.focus ?? 'E5';
  const scoring = opts.regions?.length ? new Set(opts.regions.flatMap((r) => r.cells)) : null;
  const title = which === 'meadow' ? 'Meadow' : 'Garden';
  const parts = [GRID.svgStart({ margin: MARGIN, cell: CELL, attrs: `class="fd-board fd-${which}" data-board="${which}"`, label: title, prefix: 'fd' })];
  for (let row = 0; row < SIZE; row++) {
    parts.push('<g role="row">');
    for (let col = 0; col < SIZE; col++) {
      const name = cellName(col, row);
      const letter = (rows[row] ?? '')[col] ?? '.';
      const x = cellX(col);
      const y = cellY(row);
      const order = picked.indexOf(name);
      const classes = ['fd-cell'];
      if (letter !== '.') classes.push('flower');
      if (pickable.has(name)) classes.push('pickable');
      if (order >= 0) classes.push('picked');
      if (opts.dim && letter !== '.' && order < 0 && !pickable.has(name)) classes.push('dim');
      if (scoring && letter !== '.' && !scoring.has(name)) classes.push('dim');
      if (last.has(name)) classes.push('last');
      let label = `${name}, ${describe(letter)}`;
      if (order >= 0) label += `, picked ${order + 1}`;
      else if (pickable.has(name)) label += ', can be picked';
      if (last.has(name)) label += which === 'meadow' ? ', taken by the last move' : ', last move';
      parts.push(
        `<g class="${classes.join(' ')}" data-board="${which}" data-cell="${name}" role="gridcell" tabindex="${name === focus ? 0 : -1}" aria-label="${label}"${order >= 0 ? ' aria-selected="true"' : ''}>`,
        `<rect class="fd-bg" x="${x + 1}" y="${y + 1}" width="${CELL - 2}" height="${CELL - 2}"/>`,
        flowerShape(letter, x + CELL / 2, y + CELL / 2),
        `<rect class="fd-ring" x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4"/>`,
      );
      if (order >= 0) {
        parts.push(
          `<circle class="fd-order-badge" cx="${x + CELL - 8}" cy="${y + 8}" r="7"/>`,
          `<text class="fd-order" x="${x + CELL - 8}" y="${y + 12}" text-anchor="middle">${order + 1}</text>`,
        );
      }
      parts.push('</g>');
    }
    parts.push('</g>');
  }
  if (opts.centre) {
    parts.push(
      `<rect class="fd-centre" x="${cellX(4) + 1}" y="${cellY(4) + 1}" width="${2 * CELL - 2}" height="${2 * CELL - 2}" rx="5" aria-hidden="true"/>`,
    );
  }
  if (opts.regions?.length) parts.push(outlines(opts.regions));
  parts.push(`<g class="fd-ghost-layer">${opts.ghost ?? ''}</g>`);
  if (opts.staged) parts.push(opts.staged);
  parts.push('</svg>');
  return parts.join('');
}

/// The last move's cells: {from, to} (empty for a pass or before play).
export function lastCells(view) {
  const canon = view.last ? canonicalMove(view.last.action) : null;
  if (!canon) return { from: [], to: [] };
  const [from, to] = canon.split(' to ').map((s) => s.split('-'));
  return { from, to };
}

/// A seat's chip: its mark and its name (the colour it plays).
function seatChip(seat) {
  const s = SEATS[seat];
  return `<span class="chip ${s.className}"><span class="chip-mark" aria-hidden="true">${s.mark}</span> ${s.label}</span>`;
}

/// The colours a seat controls, with each one's largest region now.
function seatColours(view, seat) {
  const mine = COLOURS.filter((c) => view.owners?.[c] === seat);
  if (!mine.length) return '<span class="hint">no colour yet</span>';
  return mine
    .map((c) => `<span class="fd-owned">${icon(c)} <span class="fd-largest" title="largest ${c} region">${view.regions?.[c]?.[0]?.length ?? 0}</span></span>`)
    .join(' + ');
}

/// Who controls what, the scores as they stand, the passes in a row.
function infoHtml(view) {
  const seats = ['P1', 'P2']
    .map((seat) => {
      const turn = view.to_move === seat ? ' to-move' : '';
      return (
        `<div class="fd-seat${turn}" data-seat="${seat}">${seatChip(seat)} ` +
        `<span class="fd-seat-colours">${seatColours(view, seat)}</span>` +
        ` <span class="fd-score" aria-label="score ${view.score?.[seat] ?? 0}">= <strong>${view.score?.[seat] ?? 0}</strong></span></div>`
      );
    })
    .join('');
  let passes = '';
  if (view.phase === 'play' || view.phase === 'over') {
    const n = view.passes ?? 0;
    const dots = Array.from({ length: PASSES_TO_END }, (_, i) => `<span class="fd-dot${i < n ? ' on' : ''}"></span>`).join('');
    passes = `<div class="fd-passes" aria-label="${n} of ${PASSES_TO_END} passes in a row">Passes in a row: <span aria-hidden="true">${dots}</span> ${n} of ${PASSES_TO_END}</div>`;
  }
  return `<div class="fd-info" aria-label="Colours and scores">${seats}${passes}</div>`;
}

/// The drafter of pick `n` (A B B A).
export function drafter(view, n) {
  const a = view.first_drafter ?? view.advantage ?? 'P1';
  return n === 1 || n === 2 ? other(a) : a;
}

/// The study, the choice of the first drafter and the draft: what this
/// viewer may do (buttons) or is waiting for.
function phaseHtml(view, ctx, acting) {
  const mine = acting && (ctx.you === 'P1' || ctx.you === 'P2');
  if (view.phase === 'study') {
    const ready = ['P1', 'P2'].map((s) => `${seatChip(s)} ${view.ready?.[s] ? 'ready' : 'studying'}`).join(' · ');
    const button = mine && ctx.kind === 'study'
      ? '<button type="button" class="primary" data-action="ready">I’m ready: start the draft</button>'
      : '';
    return (
      '<div class="fd-phase" role="group" aria-label="Study">' +
      '<p>Study the meadow. The draft starts when both players are ready, or after 3 minutes.</p>' +
      `${button}<span class="fd-ready">${ready}</span></div>`
    );
  }
  if (view.phase === 'first') {
    if (!(mine && ctx.kind === 'first')) return '';
    return (
      '<div class="fd-phase" role="group" aria-label="Choose who drafts first">' +
      '<p>You have the advantage: choose who drafts first (order A, B, B, A; the seat with red moves first).</p>' +
      `<button type="button" class="primary" data-action="first ${ctx.you}">${seatChip(ctx.you)} drafts first</button> ` +
      `<button type="button" data-action="first ${other(ctx.you)}">${seatChip(other(ctx.you))} drafts first</button></div>`
    );
  }
  if (view.phase === 'draft') {
    const n = view.picks?.length ?? 0;
    const order = [0, 1, 2, 3]
      .map((i) => {
        const who = drafter(view, i);
        const taken = view.picks?.[i];
        const cls = i === n ? ' class="now"' : '';
        return `<li${cls}>${seatChip(who)} ${taken ? icon(taken) : i === 3 ? '<span class="hint">the colour left</span>' : '<span class="hint">…</span>'}</li>`;
      })
      .join('');
    let buttons = '';
    if (mine && ctx.kind === 'draft') {
      buttons =
        '<div class="fd-draft-buttons">' +
        COLOURS.map((c) => {
          const owner = view.owners?.[c];
          return `<button type="button" class="fd-colour-button" data-action="${c}"${owner ? ` disabled aria-label="${c}, taken by ${owner}"` : ''}>${icon(c)}${owner ? ` <span class="hint">${owner}</span>` : ''}</button>`;
        }).join('') +
        '</div>';
    }
    return (
      `<div class="fd-phase" role="group" aria-label="Draft"><p>${mine ? 'Pick a colour: you will control two. Red moves first; blue wins a tie that never breaks.' : 'The colours are being drafted.'}</p>` +
      `${buttons}<ol class="fd-draft-order" aria-label="Draft order">${order}</ol></div>`
    );
  }
  return '';
}

/// The move tools: what is picked, a small picture of the shape as it will
/// land, turn / flip / clear, and pass.
function toolsHtml(view, st) {
  const sel = st.sel;
  let summary;
  if (!sel.length) {
    const { min, max } = moveSizes(view);
    summary =
      min === max
        ? `First move: pick exactly ${min} connected flowers of different colours in the meadow${view.restriction === 'amended' ? ', then place them covering a marked centre cell' : ''}.`
        : 'Pick 2–4 connected flowers of different colours in the meadow.';
  } else {
    const list = sel.map((c) => `${icon(FLOWERS[at(view.meadow, c)].name)} ${c}`).join(', ');
    const problem = selectionProblem(view, sel);
    summary = `Picked ${list}. ${problem ? `${problem[0].toUpperCase()}${problem.slice(1)}.` : 'Point at the garden: the first picked flower goes where you click.'}`;
  }
  const placeable = sel.length && !selectionProblem(view, sel);
  const dis = placeable ? '' : ' disabled';
  return (
    '<div class="fd-tools" role="group" aria-label="Your move">' +
    `<div class="fd-preview" aria-hidden="true"${sel.length ? '' : ' hidden'}>${previewSvg(view, sel, st.orient)}</div>` +
    `<p class="fd-summary">${summary}</p>` +
    '<div class="fd-tool-buttons">' +
    `<button type="button" data-tool="rotate"${dis} title="Turn a quarter clockwise (R)">⟳ Turn <kbd>R</kbd></button>` +
    `<button type="button" data-tool="flip"${dis} title="Flip left to right (F)">⇋ Flip <kbd>F</kbd></button>` +
    `<button type="button" data-tool="clear"${sel.length ? '' : ' disabled'} title="Drop the picked flowers (Esc)">Clear <kbd>Esc</kbd></button>` +
    `<button type="button" data-tool="pass" class="fd-pass${st.passArmed ? ' danger' : ''}">${st.passArmed ? 'Really pass? Click again' : 'Pass'}</button>` +
    '</div>' +
    `<p class="fd-hint" aria-live="polite">${esc(st.hint ?? '')}</p>` +
    '</div>'
  );
}

/// The picked shape in its current orientation, small.
function previewSvg(view, sel, o) {
  const unit = 14;
  if (!sel.length) return `<svg class="fd-preview-svg" viewBox="0 0 ${4 * unit} ${4 * unit}"></svg>`;
  const s0 = parseCell(sel[0]);
  const pts = sel.map((name) => {
    const p = parseCell(name);
    return orient(o, [p.col - s0.col, p.row - s0.row]);
  });
  const minX = Math.min(...pts.map((p) => p[0]));
  const minY = Math.min(...pts.map((p) => p[1]));
  const shapes = sel
    .map((name, i) => {
      const x = (pts[i][0] - minX) * unit;
      const y = (pts[i][1] - minY) * unit;
      return `<rect class="fd-preview-cell${i === 0 ? ' first' : ''}" x="${x + 0.5}" y="${y + 0.5}" width="${unit - 1}" height="${unit - 1}"/>` +
        flowerShape(at(view.meadow, name), x + unit / 2, y + unit / 2, 5);
    })
    .join('');
  return `<svg class="fd-preview-svg" viewBox="0 0 ${4 * unit} ${4 * unit}">${shapes}</svg>`;
}

/// The step-by-step comparison for the end screen.
export function scoreTable(view) {
  const { rows, deciding } = scoreSteps(view);
  const shown = deciding < 0 ? rows.length : deciding + 1;
  const body = [];
  for (let i = 0; i < shown; i++) {
    const r = rows[i];
    const parts = (seat) => r.added[seat].map((a) => `${icon(a.colour, false)}<span class="sr-only">${a.colour}</span> ${a.size}`).join(' + ') || '0';
    const cls = i === deciding ? ' class="deciding"' : '';
    const verdict = r.P1 > r.P2 ? seatChip('P1') : r.P2 > r.P1 ? seatChip('P2') : 'tied';
    body.push(
      `<tr${cls}><th scope="row">${i === 0 ? 'largest regions' : `+ ${stepName(i)}`}</th>` +
        `<td><span class="fd-parts">${parts('P1')}</span> <strong>${r.P1}</strong></td>` +
        `<td><span class="fd-parts">${parts('P2')}</span> <strong>${r.P2}</strong></td>` +
        `<td>${verdict}${i === deciding ? ' <strong>decides</strong>' : ''}</td></tr>`,
    );
  }
  let note = '';
  if (deciding < 0) {
    const blue = view.owners?.blue;
    note = `<p class="hint fd-blue-rule">Tied with every region counted: ${blue ? `${seatChip(blue)}, who controls ${icon('blue')},` : 'the seat with blue'} wins the tie.</p>`;
  }
  return (
    '<div class="table-wrap"><table class="fd-score-table"><caption>Regions compared, step by step (outlined on the garden)</caption>' +
    `<thead><tr><th scope="col">step</th><th scope="col">${seatChip('P1')}</th><th scope="col">${seatChip('P2')}</th><th scope="col">ahead</th></tr></thead>` +
    `<tbody>${body.join('')}</tbody></table></div>${note}`
  );
}

// --- DOM glue -----------------------------------------------------------------

const NO_TURN = { rot: 0, flip: false };

const boards = boardStates({
  make: () => ({ hover: null, focus: { meadow: 'E5', garden: 'E5' }, passArmed: null, legal: null }),
  fresh: (st) => {
    st.sel = [];
    st.shown = null;
    st.orient = { ...NO_TURN };
    st.hint = '';
    st.passArmed = disarm(st.passArmed);
  },
  on: { click: onClick, keydown: onKey },
  hover: { cells: '[data-board="garden"][data-cell]', show: (container, name) => hover(container, name) },
});

/// The board a phone draws large while this seat moves: the player's
/// choice, else the garden once the picked flowers can take no other.
function shownBoard(st, picks) {
  return st.shown ?? (st.sel.length && !picks.size ? 'garden' : 'meadow');
}

const isPlaying = (st) =>
  !!st.ctx?.acting && st.view?.phase === 'play' && st.ctx.kind === 'move' && (st.ctx.you === 'P1' || st.ctx.you === 'P2');

function draw(container) {
  const st = boards.get(container);
  const { view, ctx } = st;
  const playing = isPlaying(st);
  st.legal = playing ? legalMoves(ctx.legal) : null;
  if (!playing) st.sel = [];
  const picks = playing ? pickable(view, st.sel, st.legal) : new Set();
  const active = document.activeElement;
  const had = container.contains(active)
    ? { board: active.dataset?.board, cell: active.dataset?.cell, action: active.dataset?.action, tool: active.dataset?.tool }
    : null;
  const last = lastCells(view);
  const final = view.phase === 'over' && !!ctx.final;
  const drafted = COLOURS.some((c) => view.owners?.[c]);
  const parts = ['<div class="fd">', drafted ? infoHtml(view) : '', phaseHtml(view, ctx, ctx.acting)];
  // On a phone one board is drawn large, the other small (app CSS): the
  // meadow while flowers are picked, the garden once no more may join (or
  // when the player asks for it).
  const shown = playing ? shownBoard(st, picks) : null;
  const caption = (which, title, count) =>
    `<figcaption>${title} <span class="hint">${count} flowers</span>` +
    (shown && shown !== which ? ` <button type="button" class="fd-show" data-tool="show" data-show="${which}">Show the ${which}</button>` : '') +
    '</figcaption>';
  parts.push(`<div class="fd-boards${shown ? ` fd-shown-${shown}` : ''}">`);
  parts.push(
    `<figure class="fd-box fd-box-meadow">${caption('meadow', 'Meadow', countFlowers(view.meadow))}`,
    boardSvg(view, 'meadow', {
      focus: st.focus.meadow,
      picked: st.sel,
      pickable: picks,
      dim: playing,
      last: new Set(last.from),
    }),
    '</figure>',
  );
  if (playing) parts.push(toolsHtml(view, st));
  parts.push(
    `<figure class="fd-box fd-box-garden">${caption('garden', 'Garden', countFlowers(view.garden))}`,
    boardSvg(view, 'garden', {
      focus: st.focus.garden,
      last: new Set(final ? [] : last.to),
      centre: view.restriction === 'amended' && view.phase === 'play',
      regions: final ? scoringRegions(view) : [],
      ghost: playing ? ghostFor(st) : '',
      staged: playing && ctx.staged ? stagedSvg(view, ctx.staged) : '',
    }),
    '</figure>',
  );
  parts.push('</div></div>');
  container.innerHTML = parts.join('');
  if (playing && ctx.staged === 'pass') container.querySelector('button[data-tool="pass"]')?.setAttribute('data-staged', '');
  container.classList.toggle('acting', !!ctx.acting);
  container.classList.toggle('placing', playing && st.sel.length > 0 && !selectionProblem(view, st.sel));
  if (had) {
    let el = null;
    if (had.cell) el = container.querySelector(`[data-board="${had.board}"][data-cell="${had.cell}"]`);
    else if (had.action) el = container.querySelector(`button[data-action="${CSS.escape(had.action)}"]`);
    else if (had.tool) el = container.querySelector(`button[data-tool="${had.tool}"]`);
    if (el && !el.disabled) el.focus();
    else if (had.tool) container.querySelector(`[data-board="meadow"] [tabindex="0"]`)?.focus();
  }
}

/// The plan for the ghost where the pointer (or the garden's focus) is.
function planFor(st) {
  if (!st.hover || !st.sel.length || selectionProblem(st.view, st.sel)) return null;
  return planMove(st.view, st.sel, st.orient, st.hover, st.legal);
}

function ghostFor(st) {
  return ghostSvg(st.view, st.sel, planFor(st));
}

/// Moves the ghost to garden cell `name` (null: off the garden).
function hover(container, name) {
  const st = boards.get(container);
  if (!st || !isPlaying(st) || st.hover === name) return;
  st.hover = name;
  const layer = container.querySelector('[data-board="garden"] .fd-ghost-layer');
  if (layer) layer.innerHTML = ghostFor(st);
  const plan = planFor(st);
  setHint(container, plan?.problem ? `Not there: ${plan.problem}.` : '');
}

function setHint(container, text) {
  boards.hint(container, '.fd-hint', text);
}

/// A meadow flower clicked: picked if it may join; a picked flower drops
/// with the ones picked after it.
function pickFlower(container, name) {
  const st = boards.get(container);
  st.focus.meadow = name;
  if (!isPlaying(st)) return;
  const i = st.sel.indexOf(name);
  if (i >= 0) {
    st.sel = st.sel.slice(0, i);
    st.hint = '';
  } else if (canAdd(st.view, st.sel, name) && canComplete(st.view, [...st.sel, name], st.legal)) {
    st.sel = [...st.sel, name];
    st.hint = '';
  } else {
    st.hint = whyNot(st.view, st.sel, name);
  }
  st.orient = st.sel.length ? st.orient : { ...NO_TURN };
  st.passArmed = disarm(st.passArmed);
  draw(container);
}

/// Why meadow cell `name` cannot be picked now.
function whyNot(view, sel, name) {
  const letter = at(view.meadow, name);
  if (letter === '.') return `${name} holds no flower.`;
  if (sel.length >= moveSizes(view).max) return `No more flowers: a move takes at most ${moveSizes(view).max}.`;
  const same = sel.find((c) => at(view.meadow, c) === letter);
  if (same) return `${name} is ${FLOWERS[letter].name} like ${same}: the flowers of a move all differ in colour.`;
  if (sel.length && !sel.some((c) => adjacent(c, name))) return `${name} does not touch the picked flowers.`;
  return `${name} cannot become part of a move that fits the garden.`;
}

/// A garden cell clicked (or Enter on it): the move is made when it fits.
/// A touch screen has no pointer to show the ghost first: the first tap on
/// a cell shows it there, a second tap on the same cell places.
function placeOn(container, name, touch = false) {
  const st = boards.get(container);
  st.focus.garden = name;
  if (!isPlaying(st)) return;
  if (!st.sel.length) {
    setHint(container, 'Pick flowers in the meadow first.');
    return;
  }
  const shown = st.hover === name;
  st.hover = null;
  hover(container, name);
  if (touch && !shown) {
    if (!planFor(st)?.problem) setHint(container, 'Tap again to place here, or tap another cell.');
    return;
  }
  const plan = planMove(st.view, st.sel, st.orient, name, st.legal);
  if (plan.problem) {
    setHint(container, `Not there: ${plan.problem}.`);
    return;
  }
  submit(st, plan.text);
}

function submit(st, text) {
  st.passArmed = disarm(st.passArmed);
  st.ctx.submit(text);
}

function disarm(timer) {
  if (timer) clearTimeout(timer);
  return null;
}

function turn(container, how) {
  const st = boards.get(container);
  if (!isPlaying(st) || !st.sel.length) return;
  const o = st.orient;
  // A flip after turning mirrors the shape as it is seen now.
  st.orient = how === 'rotate' ? { rot: (o.rot + 1) % 4, flip: o.flip } : how === 'back' ? { rot: (o.rot + 3) % 4, flip: o.flip } : { rot: (4 - o.rot) % 4, flip: !o.flip };
  redrawKeepingHover(container);
}

function redrawKeepingHover(container) {
  const st = boards.get(container);
  const h = st.hover;
  draw(container);
  st.hover = null;
  hover(container, h);
}

function clear(container) {
  const st = boards.get(container);
  st.sel = [];
  st.shown = null;
  st.orient = { ...NO_TURN };
  st.hint = '';
  draw(container);
}

function onClick(container, e) {
  const button = e.target.closest('button');
  if (button && !button.disabled) {
    const tool = button.dataset.tool;
    if (tool === 'show') showBoard(container, button.dataset.show);
    else if (tool === 'rotate' || tool === 'flip') turn(container, tool);
    else if (tool === 'clear') clear(container);
    else if (tool === 'pass') armPass(container);
    return;
  }
  const cell = e.target.closest('[data-cell]');
  if (!cell) return;
  // A tap on the small board of a phone (the one whose button to show it
  // is on the screen: the stylesheet decides) makes it the large one.
  const show = cell.closest('.fd-box')?.querySelector('.fd-show');
  if (show?.offsetParent) {
    showBoard(container, show.dataset.show);
    return;
  }
  if (cell.dataset.board === 'meadow') pickFlower(container, cell.dataset.cell);
  else placeOn(container, cell.dataset.cell, e.pointerType === 'touch');
}

function showBoard(container, which) {
  boards.get(container).shown = which;
  draw(container);
}

/// The pass button asks once more before it passes.
function armPass(container) {
  const st = boards.get(container);
  if (st.passArmed) {
    st.passArmed = disarm(st.passArmed);
    st.sel = [];
    st.ctx.submit('pass');
    return;
  }
  st.passArmed = setTimeout(() => {
    st.passArmed = null;
    if (boards.get(container) === st) draw(container);
  }, 4000);
  draw(container);
}

function onKey(container, e) {
  const st = boards.get(container);
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (isPlaying(st) && st.sel.length && (key === 'r' || key === 'f')) {
    e.preventDefault();
    turn(container, key === 'f' ? 'flip' : e.shiftKey ? 'back' : 'rotate');
    return;
  }
  if (key === 'Escape' && st.sel.length) {
    e.preventDefault();
    clear(container);
    container.querySelector('[data-board="meadow"] [tabindex="0"]')?.focus();
    return;
  }
  const cell = e.target.closest?.('[data-cell]');
  if (!cell) return;
  const which = cell.dataset.board;
  const to = GRID.step(cell.dataset.cell, e.key);
  if (to) {
    e.preventDefault();
    moveFocus(container, which, to);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    if (which === 'meadow') {
      pickFlower(container, cell.dataset.cell);
      container.querySelector(`[data-board="meadow"][data-cell="${cell.dataset.cell}"]`)?.focus();
    } else placeOn(container, cell.dataset.cell);
  } else if (key === 'g' || key === 'm') {
    // Jump between the boards, keeping the column and row.
    e.preventDefault();
    const to = key === 'g' ? 'garden' : 'meadow';
    moveFocus(container, to, to === which ? cell.dataset.cell : st.focus[to]);
  }
}

function moveFocus(container, which, name) {
  const st = boards.get(container);
  st.focus[which] = name;
  for (const el of container.querySelectorAll(`[data-board="${which}"][data-cell]`)) {
    el.setAttribute('tabindex', el.dataset.cell === name ? '0' : '-1');
  }
  container.querySelector(`[data-board="${which}"][data-cell="${name}"]`)?.focus();
  if (which === 'garden') hover(container, name);
}

/// The last action in words.
function lastWords(view) {
  const last = view.last;
  if (!last) return null;
  const who = SEATS[last.by].label;
  if (last.action === 'pass') {
    const n = view.passes ?? 0;
    return `${who} passed${n ? `; ${n} pass${n === 1 ? '' : 'es'} in a row (${PASSES_TO_END} end the game)` : ''}`;
  }
  const { from, to } = lastCells(view);
  if (!from.length) return `${who}: ${last.action}`;
  const moved = from.map((f, i) => `${FLOWERS[at(view.garden, to[i])]?.name ?? 'a flower'} ${f} to ${to[i]}`);
  return `${who} moved ${from.length} flowers: ${moved.join(', ')} (${canonicalMove(last.action) ?? last.action})`;
}

export default {
  id: 'flower-domain',
  name: 'Battle of the Flower Domain',
  seats: SEATS,
  example: 'E5-F5-E6-F6 to E5-F5-E6-F6',
  help:
    'Each colour has its shape: red diamond, yellow hexagon, green square, blue circle. ' +
    'Click 2–4 connected meadow flowers of different colours (the ones you may pick are ringed; ' +
    'click a picked flower to drop it and those picked after it). Then point at the garden: ' +
    'the shape’s outline follows the pointer, the first picked flower under it. Turn it with ' +
    'R (Shift+R back) or the Turn button, mirror it with F or Flip, and click to place it. ' +
    'Keyboard: Tab to a board, arrow keys move, Enter or Space picks or places, G and M jump ' +
    'to the garden and the meadow, Escape drops the picked flowers. Or type the notation, ' +
    'e.g. “A1-B1-C1-C2 to B3-B2-B1-A1” (the n-th meadow cell to the n-th garden cell), or “pass”.',

  prompt(kind, view) {
    if (kind === 'study') return 'Your turn: study the meadow, then press Ready.';
    if (kind === 'first') return 'Your turn: choose who drafts first.';
    if (kind === 'draft') return 'Your turn: pick a colour.';
    if (view?.restriction === 'amended') {
      return 'Your turn: the first move: 4 connected flowers of different colours, covering a centre cell of the garden.';
    }
    if (view?.restriction === 'original') return 'Your turn: the first move: 2 connected flowers of different colours.';
    return 'Your turn: move 2–4 connected flowers of different colours to the garden, or pass.';
  },

  /// A rules example drawn: a meadow written as 100 letters (R Y G B, row
  /// by row) becomes the meadow board, each flower in its colour and shape.
  illustrate(text) {
    const letters = text.replace(/\s+/g, '');
    if (letters.length !== SIZE * SIZE || /[^RYGB]/.test(letters)) return null;
    const meadow = Array.from({ length: SIZE }, (_, r) => letters.slice(r * SIZE, (r + 1) * SIZE));
    const counts = COLOURS.map((c) => `${[...letters].filter((l) => l === LETTER[c]).length} ${c}`).join(', ');
    const caption = `The meadow these letters describe: ${counts}`;
    const view = { meadow, garden: Array(SIZE).fill('.'.repeat(SIZE)) };
    return { html: `<div class="fd-rules-board">${boardSvg(view, 'meadow')}</div>`, caption };
  },

  /// An action in words: "Move red A1 to E5 and yellow B1 to F5".
  describe(action, view) {
    paint(view);
    const text = action.trim();
    if (text === 'pass') return 'Pass';
    if (text === 'ready') return 'Ready: start the draft';
    if (COLOURS.includes(text)) return `Pick ${text}`;
    const first = /^first (P[12])$/.exec(text);
    if (first) return `${SEATS[first[1]].label} drafts first`;
    const canon = canonicalMove(text);
    if (!canon || !view) return null;
    const [from, to] = canon.split(' to ').map((s) => s.split('-'));
    const moved = from.map((f, i) => `${FLOWERS[at(view.meadow, f)]?.name ?? 'a flower'} ${f} to ${to[i]}`);
    return `Move ${moved.slice(0, -1).join(', ')}${moved.length > 1 ? ' and ' : ''}${moved.at(-1)}`;
  },

  doing(kind) {
    return (
      { study: 'study the meadow', first: 'choose who drafts first', draft: 'pick a colour', move: 'move' }[kind] ?? null
    );
  },

  /// Draws `view` into `container`; keeps a half-made move across redraws
  /// while the meadow stays as it was.
  render(container, view, ctx) {
    paint(view);
    boards.update(container, view, ctx, `${view.meadow?.join('')}|${view.phase}`, ctx.acting);
    draw(container);
  },

  reset(container) {
    if (boards.reset(container)) draw(container);
  },

  status(view) {
    paint(view);
    if (view.phase === 'study') return 'Both players study the meadow before the draft.';
    if (view.phase === 'first') return `${SEATS[view.advantage]?.label ?? ''} names who drafts first.`;
    if (view.phase === 'draft') {
      const picks = (view.picks ?? []).map((c, i) => `${UNDRAFTED[drafter(view, i)].label} took ${c}`);
      return picks.length ? `Draft: ${picks.join(', ')}.` : `Draft: ${UNDRAFTED[drafter(view, 0)].label} picks first.`;
    }
    const words = lastWords(view);
    const flowers = `${countFlowers(view.garden)} flowers in the garden`;
    return words ? `Last: ${words}. ${flowers}.` : `${flowers[0].toUpperCase()}${flowers.slice(1)}.`;
  },

  moveOf(before) {
    // A turn is a move or a pass (a timeout passes).
    return { study: { label: 'Study' }, first: { label: 'Setup' }, draft: 'Pick', play: 'Turn' }[before.phase] ?? 'Move';
  },
  ending(view) {
    paint(view);
    if (view.phase !== 'over') return '';
    return scoreTable(view);
  },
};
