// Four Statements' rules as the board needs them: cells, colours, the three
// subset restrictions, the statement menus' sentences and the notation of
// every action. Pure functions (no DOM), re-exported for the unit tests.

import { grid } from '../../board.js';

export const COLS = ['A', 'B', 'C', 'D'];
export const SIZE = 4;
const GRID = grid(SIZE);
export const CELLS = SIZE * SIZE;
export const COLOUR_LETTERS = ['R', 'B', 'G', 'Y'];
export const COLOUR_NAMES = { R: 'red', B: 'blue', G: 'green', Y: 'yellow' };
export const BUY_COST = 8;
export const MIN_SUBSET = 4;
export const MAX_SUBSET = 8;
export const MAX_WORDS = 15;
export const STATEMENTS = 4;

/// Every cell name, A1 … D1, A2 … D4 (the layout's order).
export const ALL_CELLS = GRID.names;
export const cellName = GRID.name;
export const parseCell = GRID.parse;

/// The layout's index of a cell name.
export function cellIndex(name) {
  const p = parseCell(name);
  return p ? p.row * SIZE + p.col : -1;
}

/// "A1" for any case, or null.
export function normCell(name) {
  const p = parseCell(name);
  return p ? cellName(p.col, p.row) : null;
}

/// Cells in the layout's order (A1 … D1, A2 …), without repeats.
export function sortCells(cells) {
  return [...new Set([...cells].map(normCell).filter(Boolean))].sort((a, b) => cellIndex(a) - cellIndex(b));
}

/// A colour as its letter R B G Y, from a letter or a name ("red", "Blue").
export function colourLetter(c) {
  if (c == null) return null;
  const s = String(typeof c === 'object' ? (c.colour ?? c.color ?? '') : c).trim().toUpperCase();
  return COLOUR_LETTERS.includes(s[0]) ? s[0] : null;
}

/// Orthogonal neighbours of a cell.
export function neighbours(name) {
  const p = parseCell(name);
  return GRID.neighbours(p.col, p.row).map(([c, r]) => cellName(c, r));
}

/// Whether the cells are orthogonally connected (an empty set is not).
export function connected(cells) {
  const set = new Set(sortCells(cells));
  if (!set.size) return false;
  const [first] = set;
  const seen = new Set([first]);
  const todo = [first];
  while (todo.length) {
    for (const n of neighbours(todo.pop())) {
      if (set.has(n) && !seen.has(n)) {
        seen.add(n);
        todo.push(n);
      }
    }
  }
  return seen.size === set.size;
}

/// The seat's subset in the round before `round` (the latest it made), or null.
export function previousSubset(view, seat, round = view?.round) {
  const rounds = (view?.rounds ?? []).filter((r) => r.round < round && r.sides?.[seat]?.subset?.length);
  if (!rounds.length) return null;
  return sortCells(rounds[rounds.length - 1].sides[seat].subset);
}

/// The three restrictions on `cells` after `previous` (a subset or null):
/// [{key, ok, text}] for connected, size and overlap.
export function restrictions(cells, previous) {
  const c = sortCells(cells);
  const n = c.length;
  const shared = previous ? c.filter((x) => previous.includes(x)).length : 0;
  const limit = Math.floor(n / 2);
  const joined = n > 0 && connected(c);
  return [
    { key: 'connected', ok: joined, text: n ? (joined ? 'connected' : 'not connected') : 'connected (pick cells)' },
    { key: 'size', ok: n >= MIN_SUBSET && n <= MAX_SUBSET, text: `${n} tile${n === 1 ? '' : 's'} (${MIN_SUBSET}–${MAX_SUBSET})` },
    {
      key: 'overlap',
      ok: !previous || (n > 0 && shared < limit),
      text: previous ? `shares ${shared} with your last subset (fewer than ${limit} allowed)` : 'no previous subset to differ from',
    },
  ];
}

/// Whether `cells` obeys all three restrictions (or No Limit lifts them).
export function subsetOk(cells, previous, nolimit = false) {
  const n = sortCells(cells).length;
  if (nolimit) return n > 0;
  return restrictions(cells, previous).every((r) => r.ok);
}

// --- statements ---------------------------------------------------------------

export const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
export const QUANTS = ['at least', 'exactly', 'at most'];
export const ADJACENCIES = [
  ['any', 'adjacent (diagonals too)'],
  ['orth', 'orthogonally adjacent'],
  ['diag', 'diagonally adjacent'],
];
export const COMPARISONS = [
  ['more', 'more … than'],
  ['fewer', 'fewer … than'],
  ['same', 'as many … as'],
];

/// The kinds of sentence the menus build (the statement language's
/// canonical forms), with the fields each one uses.
export const KINDS = [
  { key: 'count', label: 'how many tiles of a colour', fields: ['quant', 'n', 'c1'] },
  { key: 'compare', label: 'compare two colours', fields: ['cmp', 'c1', 'c2'] },
  { key: 'colours', label: 'how many colours', fields: ['quant', 'n'] },
  { key: 'adjacent', label: 'a colour next to a colour', fields: ['c1', 'c2', 'adj'] },
  { key: 'share', label: 'two neighbours share a colour', fields: ['adj'] },
  { key: 'square', label: 'a 2x2 square with a colour', fields: ['qf', 'quant', 'n', 'c1'] },
  { key: 'group', label: 'the largest group of a colour', fields: ['quant', 'n', 'c1', 'conn'] },
  { key: 'connected', label: 'all tiles of a colour connected', fields: ['c1', 'conn'] },
  { key: 'lines', label: 'rows or columns with a colour', fields: ['qf', 'line', 'quant', 'n', 'c1'] },
];

const adjWord = (a) => ({ orth: 'orthogonally adjacent', diag: 'diagonally adjacent' })[a] ?? 'adjacent';

/// "at least two red tiles", "no red tiles", "a red tile" (the language's
/// own way of saying how many `what`s).
function has(quant, n, what) {
  if (quant === 'exactly' && n === 0) return `no ${what}s`;
  if (quant === 'at least' && n === 1 && what !== 'tile') return `a ${what}`;
  return `${quant} ${NUMBER_WORDS[n]} ${what}${n === 1 ? '' : 's'}`;
}

/// The sentence a menu choice makes: `m` = {kind, quant, n, c1, c2, adj,
/// cmp, qf, line, conn, not} (colours as letters), in the canonical form
/// the server prints.
export function sentence(m) {
  const q = QUANTS.includes(m.quant) ? m.quant : 'at least';
  const n = Math.max(0, Math.min(8, Number(m.n) || 0));
  const c1 = COLOUR_NAMES[colourLetter(m.c1) ?? 'R'];
  const c2 = COLOUR_NAMES[colourLetter(m.c2) ?? 'B'];
  const qf = m.qf === 'every' ? 'every' : 'some';
  let s;
  switch (m.kind) {
    case 'compare':
      s = m.cmp === 'fewer' ? `fewer tiles are ${c1} than ${c2}` : m.cmp === 'same' ? `as many tiles are ${c1} as ${c2}` : `more tiles are ${c1} than ${c2}`;
      break;
    case 'colours':
      s = `there ${n === 1 ? 'is' : 'are'} ${q} ${NUMBER_WORDS[n]} ${n === 1 ? 'colour' : 'colours'}`;
      break;
    case 'adjacent':
      s = c1 === c2 ? `two ${c1} tiles are ${adjWord(m.adj)}` : `a ${c1} tile is ${adjWord(m.adj)} to a ${c2} tile`;
      break;
    case 'share':
      s = `two ${adjWord(m.adj)} tiles share a colour`;
      break;
    case 'square':
      s = `${qf} 2x2 square has ${has(q, n, `${c1} tile`)}`;
      break;
    case 'group':
      s = `the largest ${m.conn ? 'orthogonally connected ' : ''}${c1} group has ${has(q, n, 'tile')}`;
      break;
    case 'connected':
      s = `all ${c1} tiles are ${m.conn ? 'orthogonally ' : ''}connected`;
      break;
    case 'lines':
      s = `${qf} ${m.line === 'column' ? 'column' : 'row'} has ${has(q, n, `${c1} tile`)}`;
      break;
    case 'count':
    default:
      s = q === 'exactly' && n === 0 ? `no tile is ${c1}` : `${q} ${NUMBER_WORDS[n]} ${n === 1 ? 'tile is' : 'tiles are'} ${c1}`;
      break;
  }
  if (m.not) s = `it is not true that ${s}`;
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

/// Words in a sentence, as a player counts them ("2x2" is one word).
export function wordCount(text) {
  return String(text ?? '')
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

// --- notation -------------------------------------------------------------------

/// A statement as a part of the bluff: one line, no `;`.
export function statementPart(text) {
  return String(text ?? '').replace(/\s+/g, ' ').replace(/;/g, ',').trim();
}

/// The whole bluff: `subset …; s1; s2; s3; s4` (+ `; smokescreen k`, `; nolimit`).
/// `smoke` is the statement's index from 0, or null.
export function bluffText(cells, statements, { smoke = null, nolimit = false } = {}) {
  const parts = [`subset ${sortCells(cells).join(' ')}`, ...statements.map(statementPart)];
  if (Number.isInteger(smoke) && smoke >= 0) parts.push(`smokescreen ${smoke + 1}`);
  if (nolimit) parts.push('nolimit');
  return parts.join('; ');
}

/// The statements of a canonical bluff, in order (the parts after the
/// subset that are neither an item nor empty).
export function statementsOf(action) {
  const parts = String(action ?? '').split(';').map((p) => p.trim());
  if (!/^subset\b/i.test(parts[0] ?? '')) return [];
  return parts.slice(1).filter((p) => p && !/^(smokescreen\s+\d+|nolimit|no limit)$/i.test(p));
}

/// Claims on the opponent's statements: `claims T F - T`. `claims` holds
/// 'T', 'F' or '-' per statement.
export function claimsText(claims) {
  return `claims ${claims.map((c) => (c === 'T' || c === 'F' ? c : '-')).join(' ')}`;
}

/// Detective on the opponent's statement `i` (from 0): `detective 3`.
export function detectiveText(i) {
  return `detective ${i + 1}`;
}

/// What the umpire reads in a statement of a canonical bluff: the reading
/// in brackets the notation adds after the player's words, or the words
/// themselves when they are the reading.
export function readingOf(part) {
  const m = /\[([^\]]*)\]\s*$/.exec(String(part ?? ''));
  return m ? m[1].trim() : String(part ?? '').trim();
}

export function buyText(cells) {
  return `buy ${sortCells(cells).join(' ')}`;
}

/// A guess of the whole grid from 16 letters (A1 … D1, A2 …), in rows.
export function guessText(letters) {
  const l = letters.map((c) => colourLetter(c) ?? '?').join('');
  return `guess ${l.slice(0, 4)} ${l.slice(4, 8)} ${l.slice(8, 12)} ${l.slice(12, 16)}`;
}

/// How many cells `rp` reveal points buy.
export function affordable(rp) {
  return Math.max(0, Math.floor((Number(rp) || 0) / BUY_COST));
}

/// The seat's known cells as {A1: 'R', …}: dealt and bought ones (from
/// `known`: 16 letters with `.` for unknown, or a map of cells), and the
/// whole layout when the view holds it.
export function knownLetters(view, seat) {
  const out = {};
  if (typeof view?.layout === 'string' && view.layout.length >= CELLS) {
    ALL_CELLS.forEach((c, i) => (out[c] = colourLetter(view.layout[i])));
    return out;
  }
  const known = view?.known?.[seat];
  if (typeof known === 'string') {
    // 16 letters A1 … D1, A2 … D4, `.` for a tile the seat does not know.
    [...known.replace(/\s+/g, '')].slice(0, CELLS).forEach((ch, i) => {
      const l = colourLetter(ch);
      if (l) out[ALL_CELLS[i]] = l;
    });
  } else if (known && typeof known === 'object') {
    for (const [cell, v] of Object.entries(known)) {
      const n = normCell(cell);
      const l = colourLetter(v);
      if (n && l) out[n] = l;
    }
  }
  return out;
}

/// A cell's chances of each colour from the aid's `odds` (any scale):
/// [r, b, g, y] adding up to 1, or null.
export function chances(odds, index) {
  const row = Array.isArray(odds) ? odds[index] : null;
  if (!Array.isArray(row) || row.length < 4) return null;
  const nums = row.slice(0, 4).map((x) => Math.max(0, Number(x) || 0));
  const sum = nums.reduce((a, b) => a + b, 0);
  return sum > 0 ? nums.map((x) => x / sum) : null;
}

/// An item's use: the round it was used in, or null when still unused.
export function itemUsed(view, seat, item) {
  const used = view?.items?.[seat]?.[item];
  return used === undefined || used === null || used === false ? null : used;
}
