// Pentomino Wall's rules as the board needs them: the twelve shapes, their
// orientation names, the re-orientation steps between them, and the text of
// each action in the rulings' notation. The server judges every action;
// this only guides (the legal actions it lists say what is allowed).

import { grid } from '../../board.js';

export const LETTERS = 'FILNPTUVWXYZ';
export const COLS = 'ABCDEFGHIJ';
export const WIDTH = 10;
export const HEIGHT = 9;
const GRID = grid(WIDTH, HEIGHT);
export const FREE_STEPS = 2;
export const DOUBLE_TURN = 2;
export const EXCHANGE = 2;

/// Base shapes, rows top to bottom (RULINGS.md).
const BASE = {
  F: ['.##', '##.', '.#.'],
  I: ['#####'],
  L: ['#.', '#.', '#.', '##'],
  N: ['.#', '.#', '##', '#.'],
  P: ['##', '##', '#.'],
  T: ['###', '.#.', '.#.'],
  U: ['#.#', '###'],
  V: ['#..', '#..', '###'],
  W: ['#..', '##.', '.##'],
  X: ['.#.', '###', '.#.'],
  Y: ['.#', '##', '.#', '.#'],
  Z: ['##.', '.#.', '.##'],
};

/// The suffixes of the eight names, in name order: the first that gives a
/// set of cells is its name.
export const SUFFIXES = ['', '90', '180', '270', 'm', 'm90', 'm180', 'm270'];

/// Cells sorted in reading order and moved to the top-left corner.
function normal(cells) {
  const minX = Math.min(...cells.map(([x]) => x));
  const minY = Math.min(...cells.map(([, y]) => y));
  return cells.map(([x, y]) => [x - minX, y - minY]).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

const key = (cells) => cells.map(([x, y]) => `${x},${y}`).join(' ');

function baseCells(letter) {
  const out = [];
  BASE[letter].forEach((row, y) => [...row].forEach((c, x) => c === '#' && out.push([x, y])));
  return normal(out);
}

// On a screen, where y grows downwards.
const turnCw = (cells) => normal(cells.map(([x, y]) => [-y, x]));
const turnCcw = (cells) => normal(cells.map(([x, y]) => [y, -x]));
const mirrorLR = (cells) => normal(cells.map(([x, y]) => [-x, y]));
const mirrorTB = (cells) => normal(cells.map(([x, y]) => [x, -y]));

/// The cells of suffix `sym` (0–7): mirrored left-right if sym ≥ 4, then
/// turned sym % 4 quarter turns clockwise.
function symCells(letter, sym) {
  let cells = baseCells(letter);
  if (sym >= 4) cells = mirrorLR(cells);
  for (let i = 0; i < sym % 4; i++) cells = turnCw(cells);
  return cells;
}

/// Orientation data per letter: names (canonical) → cells.
const TABLE = Object.fromEntries(
  [...LETTERS].map((letter) => {
    const byKey = new Map();
    for (let sym = 0; sym < 8; sym++) {
      const cells = symCells(letter, sym);
      if (!byKey.has(key(cells))) byKey.set(key(cells), { name: letter + SUFFIXES[sym], cells });
    }
    return [letter, byKey];
  }),
);

/// The canonical name of any orientation name (`Tm90`, `t90`), or null.
export function canonical(name) {
  const m = /^([A-Za-z])(m?)(90|180|270)?$/i.exec(String(name ?? '').trim());
  if (!m) return null;
  const letter = m[1].toUpperCase();
  if (!LETTERS.includes(letter)) return null;
  const sym = (m[2] ? 4 : 0) + (m[3] ? Number(m[3]) / 90 : 0);
  return TABLE[letter].get(key(symCells(letter, sym))).name;
}

/// The cells of orientation `name` as [column, row] offsets from the top
/// left of its bounding box, in reading order.
export function cellsOf(name) {
  const c = canonical(name);
  if (!c) return [];
  return [...TABLE[c[0]].values()].find((o) => o.name === c).cells;
}

/// Every orientation of `letter`, by canonical name.
export function orientations(letter) {
  return [...(TABLE[letter]?.values() ?? [])].map((o) => o.name);
}

function named(letter, cells) {
  return TABLE[letter].get(key(cells)).name;
}

/// The orientation after one step: 'cw' a quarter turn clockwise, 'ccw'
/// anticlockwise, 'lr' a left-right mirror, 'tb' a top-bottom mirror.
export function step(name, how) {
  const f = { cw: turnCw, ccw: turnCcw, lr: mirrorLR, tb: mirrorTB }[how];
  const c = canonical(name);
  return c && f ? named(c[0], f(cellsOf(c))) : c;
}

/// The fewest steps from orientation `from` to `to` (a breadth-first search
/// over the steps the rules count; `anticlockwise` adds that quarter turn).
export function stepsBetween(from, to, anticlockwise = false) {
  const [a, b] = [canonical(from), canonical(to)];
  if (!a || !b || a[0] !== b[0]) return Infinity;
  const moves = anticlockwise ? ['cw', 'ccw', 'lr', 'tb'] : ['cw', 'lr', 'tb'];
  const seen = new Map([[a, 0]]);
  const queue = [a];
  while (queue.length) {
    const n = queue.shift();
    if (n === b) return seen.get(n);
    for (const m of moves) {
      const next = step(n, m);
      if (!seen.has(next)) {
        seen.set(next, seen.get(n) + 1);
        queue.push(next);
      }
    }
  }
  return Infinity;
}

/// Steps and credits for placing `to` when `from` was presented.
export function costOf(from, to, quarterTurns = 'clockwise') {
  const steps = stepsBetween(from, to, quarterTurns === 'both');
  return { steps, paid: Math.max(0, steps - FREE_STEPS) };
}

export const cellName = GRID.name;
export const parseCell = GRID.parse;
export const stepFocus = GRID.step;

/// The wall cells piece `name` covers with the top-left of its bounding box
/// at `at`; null where it would leave the wall.
export function coveredCells(name, at) {
  const p = parseCell(at);
  if (!p) return null;
  const cells = cellsOf(name).map(([x, y]) => [x + p.col, y + p.row]);
  if (cells.some(([x, y]) => x >= WIDTH || y >= HEIGHT)) return null;
  return cells.map(([x, y]) => cellName(x, y));
}

/// The letters of a pieces string (`"FLN"`), as an array.
export const piecesOf = (text) => [...String(text ?? '')].filter((c) => LETTERS.includes(c));

// --- actions as text ----------------------------------------------------------

export const takeText = (a, b) => (b ? `take ${[a, b].sort().join(' ')}` : `take ${a}`);
export const presentText = (orientation, aside) => `present ${canonical(orientation)} aside ${aside}`;
export const placeText = (orientation, at) => `place ${canonical(orientation)} at ${at}`;
export const orientText = (orientation) => `orient ${canonical(orientation)}`;
export const exchangeText = (letter) => `exchange ${letter}`;

/// `give P, return Z, keep W` from {letter: 'give' | 'return' | 'keep'}:
/// give first, then return, then keep, each in letter order.
export function roundEndText(choices) {
  const parts = [];
  for (const verb of ['give', 'return', 'keep']) {
    for (const letter of LETTERS) if (choices[letter] === verb) parts.push(`${verb} ${letter}`);
  }
  return parts.join(', ');
}

/// The placement actions in `legal`, as a map from orientation name to the
/// set of anchor cells where it may go.
export function placementsIn(legal) {
  const out = new Map();
  for (const a of legal ?? []) {
    const m = /^place (\S+) at ([A-J][1-9])$/.exec(a);
    if (!m) continue;
    if (!out.has(m[1])) out.set(m[1], new Set());
    out.get(m[1]).add(m[2]);
  }
  return out;
}

/// The pieces a Double Turn may take now, per `legal` (empty when none).
export function doublesIn(legal) {
  return (legal ?? []).filter((a) => /^take [A-Z] [A-Z]$/.test(a));
}
