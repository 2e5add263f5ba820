// Bomb Domain's rules as the board guides a player by them, all pure
// functions of a view: cells, what stands where, the blast shapes the view
// carries, where a placement may go (its domain, occupied cells, the
// neighbour rule and its lifting, the 2×2 rule), and a turn's parts
// (straight moves, pairs, the diagonal fallback, pegs, detonations) with
// its notation. The server lists no placements or turns (too many), so the
// board guides from these; the server still judges.

import { grid } from '../../board.js';

export const SIZE = 9;
const GRID = grid(SIZE);
export const COLS = 'ABCDEFGHI';
export const ROUNDS = 7;
export const TURNS = 50;
export const PEGS = 9;
const MAX_MOVE = 4;

export const KINDS = ['square', 'plus', 'cross'];

export const other = (seat) => (seat === 'P1' ? 'P2' : 'P1');

// --- cells ----------------------------------------------------------------

export const cellName = GRID.name;
export const parseCell = GRID.parse;
const onBoard = GRID.onBoard;
/// Every cell name, row by row.
export const ALL_CELLS = GRID.names;
export const stepFocus = GRID.step;
export const coordinates = GRID.coordinates;

export function shift(name, dc, dr) {
  const p = parseCell(name);
  return p && onBoard(p.col + dc, p.row + dr) ? cellName(p.col + dc, p.row + dr) : null;
}

const ORTHOGONAL = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const DIAGONAL = [[1, -1], [1, 1], [-1, 1], [-1, -1]];

export function neighbours(name) {
  return ORTHOGONAL.map(([dc, dr]) => shift(name, dc, dr)).filter(Boolean);
}

/// Whether two cells lie in one 2×2 block (touching, even diagonally).
export function sameBlock(a, b) {
  const p = parseCell(a);
  const q = parseCell(b);
  return Math.abs(p.col - q.col) <= 1 && Math.abs(p.row - q.row) <= 1;
}

// --- the board of a view --------------------------------------------------

/// The seat whose domain holds `name` ('P1', 'P2' or null).
export function ownerOf(view, name) {
  const p = parseCell(name);
  const ch = p ? (view.domain?.[p.row] ?? '')[p.col] : '.';
  return ch === '1' ? 'P1' : ch === '2' ? 'P2' : null;
}

/// What stands where: {pieces: Map cell → {seat, kind}, pegs: Map cell →
/// {seat, blast (left by a detonation)}}.
export function boardOf(view) {
  const pieces = new Map();
  const pegs = new Map();
  for (const seat of ['P1', 'P2']) {
    for (const kind of KINDS) for (const c of view.pieces?.[seat]?.[kind] ?? []) pieces.set(c, { seat, kind });
    for (const c of view.pegs?.[seat] ?? []) pegs.set(c, { seat, blast: false });
    for (const c of view.blast_pegs?.[seat] ?? []) pegs.set(c, { seat, blast: true });
  }
  return { pieces, pegs };
}

export const isEmpty = (board, name) => !board.pieces.has(name) && !board.pegs.has(name);

/// The board after `steps` ({from, to}) moved their pieces, in order.
export function afterSteps(board, steps) {
  const pieces = new Map(board.pieces);
  for (const s of steps) {
    const piece = pieces.get(s.from);
    if (!piece) continue;
    pieces.delete(s.from);
    pieces.set(s.to, piece);
  }
  return { pieces, pegs: board.pegs };
}

/// A seat's own pieces' cells.
export function piecesOf(board, seat) {
  return [...board.pieces].filter(([, p]) => p.seat === seat).map(([c]) => c);
}

// --- blast shapes ---------------------------------------------------------

/// The offsets a picture (`..#../..#../#####/..#../..#..`) covers from its
/// centre, [dc, dr] each.
export function shapeOffsets(picture) {
  const rows = String(picture ?? '').split('/');
  const h = rows.length;
  const w = rows[0]?.length ?? 0;
  const out = [];
  rows.forEach((line, r) => {
    [...line].forEach((ch, c) => {
      if (ch === '#') out.push([c - (w - 1) / 2, r - (h - 1) / 2]);
    });
  });
  return out;
}

/// The cells of the blast shape `picture` centred on `name` (off-board cells
/// dropped).
export function blastCells(picture, name) {
  return shapeOffsets(picture).map(([dc, dr]) => shift(name, dc, dr)).filter(Boolean);
}

/// A kind's blast picture in this view (the host may change the shapes).
export const shapeOf = (view, kind) => view.shapes?.[kind] ?? '';

/// What a detonation on `name` (a piece of kind `kind`) claims on `board`:
/// its own cell and every cell of its shape holding no peg and no piece.
export function blastClaims(view, board, name, kind) {
  const cells = blastCells(shapeOf(view, kind), name).filter((c) => c !== name && isEmpty(board, c));
  return [name, ...cells];
}

/// The final blast of a finished board: every remaining piece reaches its
/// cell and the final shape's empty cells. {P1: Set, P2: Set, both: Set}.
export function finalReach(view) {
  const board = boardOf(view);
  const reach = { P1: new Set(), P2: new Set() };
  for (const [c, p] of board.pieces) {
    reach[p.seat].add(c);
    for (const n of blastCells(view.shapes?.final ?? '', c)) if (isEmpty(board, n)) reach[p.seat].add(n);
  }
  const both = new Set([...reach.P1].filter((c) => reach.P2.has(c)));
  return { P1: reach.P1, P2: reach.P2, both };
}

// --- placement --------------------------------------------------------------

/// The columns (from 0) a seat's starting domain spans: A–D for the DMO,
/// F–I for the EC.
export function startColumns(view, seat) {
  return seat === view.dmo ? [0, 1, 2, 3] : [5, 6, 7, 8];
}

export const columnsText = (cols) => `${COLS[cols[0]]}–${COLS[cols.at(-1)]}`;

/// Where `seat` places in the open round: its own starting domain in odd
/// rounds, the opponent's in even ones. {columns, own}.
export function placementDomain(view, seat) {
  const own = (view.round ?? 1) % 2 === 1;
  return { columns: startColumns(view, own ? seat : other(seat)), own };
}

/// Occupied orthogonal neighbours of `name`.
export function occupiedNeighbours(board, name) {
  return neighbours(name).filter((n) => !isEmpty(board, n)).length;
}

/// The cells `seat` may use this round: {cells (Set: in the domain, empty,
/// and fewer than 3 occupied neighbours unless lifted), crowded (Set: kept
/// out by the neighbour rule alone), lifted (the neighbour rule is lifted:
/// no three cells of the domain meet both rules at once), columns, own}.
export function placementCells(view, seat) {
  const board = boardOf(view);
  const { columns, own } = placementDomain(view, seat);
  const free = ALL_CELLS.filter((c) => columns.includes(parseCell(c).col) && isEmpty(board, c));
  const roomy = free.filter((c) => occupiedNeighbours(board, c) < 3);
  const lifted = !threeApart(roomy);
  const crowded = new Set(free.filter((c) => !roomy.includes(c)));
  return { cells: new Set(lifted ? free : roomy), crowded: lifted ? new Set() : crowded, lifted, columns, own };
}

/// Whether three of `cells` lie pairwise outside any one 2×2 block.
export function threeApart(cells) {
  for (let i = 0; i < cells.length; i++) {
    for (let j = i + 1; j < cells.length; j++) {
      if (sameBlock(cells[i], cells[j])) continue;
      for (let k = j + 1; k < cells.length; k++) {
        if (!sameBlock(cells[i], cells[k]) && !sameBlock(cells[j], cells[k])) return true;
      }
    }
  }
  return false;
}

/// Why `kind` may not go on `name` given the rest of the submission `sel`
/// ({square, plus, cross}: a cell or null each), or null when it may.
export function placementProblem(view, seat, sel, kind, name) {
  const board = boardOf(view);
  const allowed = placementCells(view, seat);
  const p = parseCell(name);
  if (!p) return `${name} is not a cell`;
  if (!allowed.columns.includes(p.col)) {
    return `round ${view.round} places in ${allowed.own ? 'your own' : 'your opponent’s'} starting domain, columns ${columnsText(allowed.columns)}`;
  }
  if (!isEmpty(board, name)) return `${name} is occupied`;
  if (allowed.crowded.has(name)) {
    return `${name} has ${occupiedNeighbours(board, name)} occupied neighbours: at most 2 while three cells of the domain still meet both rules`;
  }
  for (const k of KINDS) {
    const c = sel[k];
    if (!c || k === kind || c === name) continue;
    if (sameBlock(c, name)) return `${name} and your ${k} on ${c} lie in one 2×2 block`;
  }
  return null;
}

/// The submission's notation: `square B2, plus C4, cross A7`.
export function placementText(sel) {
  return KINDS.map((k) => `${k} ${sel[k]}`).join(', ');
}

/// A placement text as a map {square, plus, cross} (null when it is not one).
export function parsePlacement(text) {
  const out = {};
  const short = { s: 'square', p: 'plus', x: 'cross' };
  const words = String(text ?? '').split(/[\s,]+/).filter(Boolean);
  for (let i = 0; i + 1 < words.length; i += 2) {
    const kind = short[words[i].toLowerCase()] ?? words[i].toLowerCase();
    if (!KINDS.includes(kind) || !parseCell(words[i + 1])) return null;
    out[kind] = words[i + 1].toUpperCase();
  }
  return KINDS.every((k) => out[k]) ? out : null;
}

/// A seat's sealed part of the open round as this view shows it:
/// 'waiting', 'submitted', 'missed', or the placement {square, plus, cross}
/// when this viewer may see it.
export function sealedOf(view, seat) {
  const s = view.sealed?.[seat];
  if (s && typeof s === 'object' && s.placed) return parsePlacement(s.placed) ?? 'submitted';
  return typeof s === 'string' ? s : 'waiting';
}

// --- turns ------------------------------------------------------------------

/// A straight move on `board`: {len, axis ('vertical' | 'horizontal'),
/// problem (why not, or null)}.
export function straightMove(board, from, to) {
  const a = parseCell(from);
  const b = parseCell(to);
  if (!a || !b) return { problem: 'not a cell' };
  if (a.col !== b.col && a.row !== b.row) return { problem: `${from}-${to} is neither vertical nor horizontal` };
  const axis = a.col === b.col ? 'vertical' : 'horizontal';
  const len = Math.abs(a.col - b.col) + Math.abs(a.row - b.row);
  if (len < 1 || len > MAX_MOVE) return { axis, len, problem: `${from}-${to} moves ${len} cells: a straight move is 1 to ${MAX_MOVE}` };
  const dc = Math.sign(b.col - a.col);
  const dr = Math.sign(b.row - a.row);
  for (let k = 1; k <= len; k++) {
    const c = cellName(a.col + dc * k, a.row + dr * k);
    if (!isEmpty(board, c)) return { axis, len, problem: `${from}-${to} is blocked at ${c}` };
  }
  return { axis, len, problem: null };
}

const AXES = { vertical: [[0, -1], [0, 1]], horizontal: [[-1, 0], [1, 0]] };
export const otherAxis = (axis) => (axis === 'vertical' ? 'horizontal' : 'vertical');

/// The cells a piece on `from` reaches along `axis` by exactly `len` cells
/// (or by 1–4 when `len` is null), unblocked.
export function straightTargets(board, from, axis, len = null) {
  const out = [];
  for (const [dc, dr] of AXES[axis]) {
    for (let k = 1; k <= MAX_MOVE; k++) {
      const c = shift(from, dc * k, dr * k);
      if (!c || !isEmpty(board, c)) break;
      if (len === null || k === len) out.push({ to: c, len: k, axis });
    }
  }
  return out;
}

/// Whether a second move of a different piece of `seat` completes the
/// first move `first` ({from, to, len, axis}) into a pair.
function completes(board, seat, first) {
  const after = afterSteps(board, [first]);
  return piecesOf(after, seat).some(
    (q) => q !== first.to && straightTargets(after, q, otherAxis(first.axis), first.len).length > 0,
  );
}

/// Whether `seat` has a move pair at all on `board` (if not, the diagonal
/// step is allowed).
export function pairExists(board, seat) {
  for (const p of piecesOf(board, seat)) {
    for (const axis of ['vertical', 'horizontal']) {
      for (const t of straightTargets(board, p, axis)) {
        if (completes(board, seat, { from: p, ...t })) return true;
      }
    }
  }
  return false;
}

/// Where the piece on `from` may go as the first move of a pair: the
/// straight moves a second piece can answer. [{to, len, axis}]
export function firstMoveTargets(board, seat, from) {
  const out = [];
  for (const axis of ['vertical', 'horizontal']) {
    for (const t of straightTargets(board, from, axis)) if (completes(board, seat, { from, ...t })) out.push(t);
  }
  return out;
}

/// Where the piece on `from` may go as the second move of the pair after
/// `first`: the other axis, the same length, on the board after `first`.
export function secondMoveTargets(board, seat, first, from) {
  const after = afterSteps(board, [first]);
  const piece = after.pieces.get(from);
  if (!piece || piece.seat !== seat || from === first.to) return [];
  return straightTargets(after, from, otherAxis(first.axis), first.len);
}

/// The empty cells one diagonal step from `from`.
export function diagonalTargets(board, from) {
  return DIAGONAL.map(([dc, dr]) => shift(from, dc, dr)).filter((c) => c && isEmpty(board, c));
}

/// A turn being built: {moves: [{from, to, len, axis}], diagonal: {from,
/// to} | null, peg: cell | null, detonate: cell | null}.
export const emptyTurn = () => ({ moves: [], diagonal: null, peg: null, detonate: null });

/// The turn's notation: `move D4-D7 F3-I3; peg G7; detonate C3`,
/// `diagonal D4-E5`, or `pass`.
export function turnText(turn) {
  const parts = [];
  if (turn.diagonal) parts.push(`diagonal ${turn.diagonal.from}-${turn.diagonal.to}`);
  else if (turn.moves.length) parts.push(`move ${turn.moves.map((m) => `${m.from}-${m.to}`).join(' ')}`);
  if (turn.peg) parts.push(`peg ${turn.peg}`);
  if (turn.detonate) parts.push(`detonate ${turn.detonate}`);
  return parts.length ? parts.join('; ') : 'pass';
}

/// A turn's text as parts: {steps: [{from, to}], diagonal (bool), peg,
/// detonate}; null when it is not a turn.
export function parseTurn(text) {
  const out = { steps: [], diagonal: false, peg: null, detonate: null };
  if (!text) return null;
  for (const part of String(text).split(';').map((p) => p.trim()).filter(Boolean)) {
    const [word, ...rest] = part.split(/\s+/);
    const w = word.toLowerCase();
    if (w === 'pass') continue;
    if (w === 'move' || w === 'diagonal') {
      out.diagonal = w === 'diagonal';
      for (const s of rest) {
        const [from, to] = s.split('-').map((c) => c.toUpperCase());
        if (parseCell(from) && parseCell(to)) out.steps.push({ from, to });
      }
    } else if (w === 'peg' && parseCell(rest[0])) out.peg = rest[0].toUpperCase();
    else if (w === 'detonate' && parseCell(rest[0])) out.detonate = rest[0].toUpperCase();
    else return null;
  }
  return out;
}

/// The board after the turn's move step.
export function afterMotion(board, turn) {
  return afterSteps(board, turn.diagonal ? [turn.diagonal] : turn.moves);
}

/// Why `seat` may not peg `name` in `turn` (built so far, detonation
/// included when chosen), or null when it may.
export function pegProblem(view, board, seat, turn, name) {
  if (turn.diagonal) return 'a diagonal step ends the turn: no peg after it';
  if ((view.pegs_left?.[seat] ?? 0) <= 0) return `all ${PEGS} of your pegs are placed`;
  const after = afterMotion(board, turn);
  if (!isEmpty(after, name)) return `${name} is occupied`;
  const p = parseCell(name);
  for (const peg of view.pegs?.[seat] ?? []) {
    const q = parseCell(peg);
    if (q.row === p.row) return `${name} shares a row with your peg on ${peg}: each peg needs its own row and column`;
    if (q.col === p.col) return `${name} shares a column with your peg on ${peg}: each peg needs its own row and column`;
  }
  for (const m of turn.moves) {
    const kind = board.pieces.get(m.from)?.kind;
    for (const [centre, how] of [[m.from, 'moved from'], [m.to, 'moved to']]) {
      if (kind && blastCells(shapeOf(view, kind), centre).includes(name)) {
        return `${name} is in the blast shape of your ${kind} ${how} ${centre}`;
      }
    }
  }
  if (turn.detonate) {
    const kind = after.pieces.get(turn.detonate)?.kind;
    if (kind && blastCells(shapeOf(view, kind), turn.detonate).includes(name)) {
      return `${name} is in the blast shape of the ${kind} you detonate on ${turn.detonate}`;
    }
  }
  if (view.diagonal && neighbours(view.diagonal).includes(name)) {
    return `${name} is next to ${view.diagonal}, which moved diagonally in the turn just before`;
  }
  return null;
}

/// Why `seat` may not detonate the piece on `name` in `turn`, or null.
export function detonateProblem(view, board, seat, turn, name) {
  if (turn.diagonal) return 'a diagonal step ends the turn: no detonation after it';
  const after = afterMotion(board, turn);
  const piece = after.pieces.get(name);
  if (!piece || piece.seat !== seat) return `${name} holds no piece of yours`;
  if (turn.peg && blastCells(shapeOf(view, piece.kind), name).includes(turn.peg)) {
    return `your peg on ${turn.peg} would lie in this ${piece.kind}’s blast shape`;
  }
  return null;
}

/// The cells the turn claims for its seat: the cells moving pieces leave
/// and land on, the peg's cell, the detonation's blast.
export function turnClaims(view, board, turn) {
  const out = new Set();
  for (const m of turn.diagonal ? [turn.diagonal] : turn.moves) {
    out.add(m.from);
    out.add(m.to);
  }
  if (turn.peg) out.add(turn.peg);
  if (turn.detonate) {
    const after = afterMotion(board, turn);
    const pegged = turn.peg ? { pieces: after.pieces, pegs: new Map([...after.pegs, [turn.peg, { seat: '?', blast: false }]]) } : after;
    const kind = after.pieces.get(turn.detonate)?.kind;
    if (kind) for (const c of blastClaims(view, pegged, turn.detonate, kind)) out.add(c);
  }
  return out;
}

/// The step the builder is at: 'move', 'peg', 'detonate' or 'done'.
export function stageOf(turn, skipped = {}) {
  if (turn.diagonal || turn.detonate) return 'done';
  if (turn.peg || skipped.peg) return 'detonate';
  if (turn.moves.length === 2 || skipped.move) return 'peg';
  return 'move';
}
