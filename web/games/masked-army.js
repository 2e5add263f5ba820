// Masked Army's board: a 9×9 SVG grid. The server sends each viewer only what
// that viewer may see; this module draws it and turns two clicks into a
// placement in the rulebook's notation ("E5 F5": your colour on E5, the
// opponent's on F5).
//
// It offers the board-module interface described in games/index.js; the
// pure functions (cells, placements, armies, the SVG text) are exported too,
// for the unit tests.

import { boardStates, grid } from '../board.js';

const SIZE = 9;
const GRID = grid(SIZE);
const CELL = 40;
const MARGIN = 24;

/// The colours players may choose ("players may choose any reasonable
/// color"), the Okabe–Ito palette that colour-blind players tell apart:
/// each with its fill, a darker shade for text on white (at least 4.5:1),
/// and the ink its marks are drawn in.
export const PALETTE = {
  red: { label: 'Red', colour: '#D55E00', text: '#a84800', ink: '#fff' },
  blue: { label: 'Blue', colour: '#0072B2', text: '#0067a0', ink: '#fff' },
  orange: { label: 'Orange', colour: '#E69F00', text: '#8a5c00', ink: '#111' },
  'sky-blue': { label: 'Sky blue', colour: '#56B4E9', text: '#1d6a94', ink: '#111' },
  green: { label: 'Green', colour: '#009E73', text: '#00704f', ink: '#111' },
  yellow: { label: 'Yellow', colour: '#F0E442', text: '#6b6300', ink: '#111' },
  purple: { label: 'Purple', colour: '#CC79A7', text: '#94406f', ink: '#111' },
};

/// The seats as shown: their chosen colours (red and blue unless the match
/// says otherwise, see `paint`) and marks, so the two seats also differ in
/// shape: P1 is a cross, P2 a ring.
export const SEATS = {
  P1: { mark: '✕', className: 'p1', ...PALETTE.red },
  P2: { mark: '◯', className: 'p2', ...PALETTE.blue },
};

/// Takes the seats' colours from `view` (its `colours`, red and blue when
/// absent) into SEATS, and into the page's seat colours (--p1, --p2), so
/// the board, the words and the end screen use the chosen ones.
export function paint(view) {
  for (const [seat, fallback] of [['P1', 'red'], ['P2', 'blue']]) {
    const chosen = PALETTE[view?.colours?.[seat]] ?? PALETTE[fallback];
    Object.assign(SEATS[seat], chosen);
    if (typeof document !== 'undefined') {
      const style = document.documentElement.style;
      style.setProperty(`--${SEATS[seat].className}`, chosen.colour);
      style.setProperty(`--${SEATS[seat].className}-text`, chosen.text);
    }
  }
}

const other = (seat) => (seat === 'P1' ? 'P2' : 'P1');
const colourSeat = (ch) => (ch === '1' ? 'P1' : ch === '2' ? 'P2' : null);

export const cellName = GRID.name;
export const parseCell = GRID.parse;

/// The placement text for your colour on `mine`, the opponent's on `theirs`.
export function placement(mine, theirs) {
  return `${mine} ${theirs}`;
}

export const adjacent = GRID.adjacent;

const at = (board, col, row) => (board[row] ?? '')[col] ?? '.';

/// Legal placements as a map: first cell → set of second cells. Taken from
/// the server's `legal` list when there is one, else from the empty cells.
export function placements(board, legal) {
  const moves = new Map();
  const add = (a, b) => {
    if (!moves.has(a)) moves.set(a, new Set());
    moves.get(a).add(b);
  };
  if (Array.isArray(legal)) {
    for (const text of legal) {
      const parts = text.trim().split(/[\s,-]+/);
      if (parts.length === 2 && parseCell(parts[0]) && parseCell(parts[1])) {
        add(parts[0].toUpperCase(), parts[1].toUpperCase());
      }
    }
    return moves;
  }
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      if (at(board, col, row) !== '.') continue;
      for (const [c, r] of GRID.neighbours(col, row)) {
        if (at(board, c, r) === '.') add(cellName(col, row), cellName(c, r));
      }
    }
  }
  return moves;
}

/// Armies: groups of orthogonally connected cells of one colour, in a board
/// whose colours are shown. Each is {seat, cells: [[col, row], …]}.
export function armies(board) {
  const seen = new Set();
  const found = [];
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      const ch = at(board, col, row);
      const seat = colourSeat(ch);
      if (!seat || seen.has(row * SIZE + col)) continue;
      const cells = [];
      const stack = [[col, row]];
      seen.add(row * SIZE + col);
      while (stack.length) {
        const [c, r] = stack.pop();
        cells.push([c, r]);
        for (const [nc, nr] of GRID.neighbours(c, r)) {
          if (at(board, nc, nr) === ch && !seen.has(nr * SIZE + nc)) {
            seen.add(nr * SIZE + nc);
            stack.push([nc, nr]);
          }
        }
      }
      cells.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
      found.push({ seat, cells });
    }
  }
  return found;
}

/// Army sizes per seat, largest first.
export function armySizes(board) {
  const sizes = { P1: [], P2: [] };
  for (const army of armies(board)) sizes[army.seat].push(army.cells.length);
  sizes.P1.sort((a, b) => b - a);
  sizes.P2.sort((a, b) => b - a);
  return sizes;
}

/// The first position where the sorted sizes differ (a missing army counts
/// 0), or -1 when every size is equal.
export function decidingIndex(sizes) {
  const n = Math.max(sizes.P1.length, sizes.P2.length);
  for (let i = 0; i < n; i++) {
    if ((sizes.P1[i] ?? 0) !== (sizes.P2[i] ?? 0)) return i;
  }
  return -1;
}

function lastCells(view) {
  const last = view.last;
  return last ? new Set([last.mine, last.theirs]) : new Set();
}

function cellLabel(name, ch, isLast) {
  const seat = colourSeat(ch);
  if (seat) return `${name}, ${SEATS[seat].label.toLowerCase()}${isLast ? ', last piece' : ''}`;
  if (ch === '#') return `${name}, piece (colour hidden)`;
  return `${name}, empty`;
}

function mark(seat, x, y, colour = SEATS[seat].ink) {
  const c = CELL / 2;
  if (seat === 'P1') {
    const d = 9;
    return (
      `<path class="mark" d="M${x + c - d} ${y + c - d}L${x + c + d} ${y + c + d}` +
      `M${x + c + d} ${y + c - d}L${x + c - d} ${y + c + d}" stroke="${colour}" stroke-width="4" stroke-linecap="round"/>`
    );
  }
  return `<circle class="mark" cx="${x + c}" cy="${y + c}" r="9" fill="none" stroke="${colour}" stroke-width="4"/>`;
}

/// The two cells of a placement text ("E5 F5"), or null.
export function parsePlacement(text) {
  const parts = String(text ?? '').trim().split(/[\s,-]+/);
  if (parts.length !== 2 || !parseCell(parts[0]) || !parseCell(parts[1])) return null;
  return { mine: parts[0].toUpperCase(), theirs: parts[1].toUpperCase() };
}

/// The board as an SVG string. `opts`: {focus, selected, targets (Set of
/// cell names), playable (Set of first cells), armies (bool), staged (a
/// placement waiting for confirmation, drawn in place: {mine, theirs})}.
export function boardSvg(view, opts = {}) {
  const board = view.board;
  const staged = opts.staged ?? null;
  const last = lastCells(view);
  const targets = opts.targets ?? new Set();
  const playable = opts.playable ?? new Set();
  const focus = opts.focus ?? 'E5';
  const you = opts.you;
  const parts = [];
  parts.push(GRID.svgStart({ margin: MARGIN, cell: CELL, attrs: 'class="ma-board"', label: 'Masked Army board', prefix: 'ma' }));
  for (let row = 0; row < SIZE; row++) {
    parts.push('<g role="row">');
    for (let col = 0; col < SIZE; col++) {
      const name = cellName(col, row);
      const ch = at(board, col, row);
      const x = MARGIN + col * CELL;
      const y = MARGIN + row * CELL;
      const seat = colourSeat(ch);
      const isLast = last.has(name);
      const classes = ['cell'];
      if (playable.has(name)) classes.push('playable');
      if (targets.has(name)) classes.push('target');
      if (opts.selected === name) classes.push('selected');
      let body;
      const stagedSeat = !you || !staged ? null : staged.mine === name ? you : staged.theirs === name ? other(you) : null;
      if (stagedSeat) {
        body =
          `<rect class="empty" x="${x + 1}" y="${y + 1}" width="${CELL - 2}" height="${CELL - 2}"/>` +
          `<rect class="preview staged ${SEATS[stagedSeat].className}" x="${x + 3}" y="${y + 3}" width="${CELL - 6}" height="${CELL - 6}" rx="3"/>` +
          mark(stagedSeat, x, y);
      } else if (ch === '#') {
        // A hidden piece fills its whole cell, so hidden cells merge into
        // one grey mass: nothing shows where one piece ends.
        body = `<rect class="hidden-piece" x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>`;
      } else if (seat) {
        body =
          `<rect class="colour ${SEATS[seat].className}" x="${x}" y="${y}" width="${CELL}" height="${CELL}"/>` +
          mark(seat, x, y);
      } else if (opts.selected === name && you) {
        body =
          `<rect class="empty" x="${x + 1}" y="${y + 1}" width="${CELL - 2}" height="${CELL - 2}"/>` +
          `<rect class="preview ${SEATS[you].className}" x="${x + 3}" y="${y + 3}" width="${CELL - 6}" height="${CELL - 6}" rx="3"/>` +
          mark(you, x, y);
      } else if (targets.has(name) && you) {
        body =
          `<rect class="empty" x="${x + 1}" y="${y + 1}" width="${CELL - 2}" height="${CELL - 2}"/>` +
          `<rect class="preview-target ${SEATS[other(you)].className}" x="${x + 5}" y="${y + 5}" width="${CELL - 10}" height="${CELL - 10}" rx="3"/>` +
          mark(other(you), x, y, SEATS[other(you)].colour);
      } else {
        body = `<rect class="empty" x="${x + 1}" y="${y + 1}" width="${CELL - 2}" height="${CELL - 2}"/>`;
      }
      const label = stagedSeat ? `${name}, ${SEATS[stagedSeat].label.toLowerCase()}, waiting for your confirmation` : cellLabel(name, ch, isLast);
      parts.push(
        `<g class="${classes.join(' ')}" data-cell="${name}" role="gridcell" tabindex="${name === focus ? 0 : -1}" aria-label="${label}"${opts.selected === name ? ' aria-selected="true"' : ''}${stagedSeat ? ' data-staged=""' : ''}>`,
        body,
        `<rect class="ring" x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4"/>`,
        '</g>',
      );
    }
    parts.push('</g>');
  }
  if (view.last && !opts.armies) {
    const a = parseCell(view.last.mine);
    const b = parseCell(view.last.theirs);
    if (a && b) {
      const x = MARGIN + Math.min(a.col, b.col) * CELL;
      const y = MARGIN + Math.min(a.row, b.row) * CELL;
      const w = (Math.abs(a.col - b.col) + 1) * CELL;
      const h = (Math.abs(a.row - b.row) + 1) * CELL;
      parts.push(
        `<rect class="last-piece" x="${x - 2}" y="${y - 2}" width="${w + 4}" height="${h + 4}" rx="5" aria-hidden="true"/>`,
      );
    }
  }
  if (opts.armies) parts.push(armyOutlines(board));
  parts.push('</svg>');
  return parts.join('');
}

/// Thick lines around every army, and each army's size written on its first
/// cell (armies of one keep their mark).
function armyOutlines(board) {
  const out = ['<g class="armies" aria-hidden="true">'];
  for (const army of armies(board)) {
    const inside = new Set(army.cells.map(([c, r]) => r * SIZE + c));
    const has = (c, r) => c >= 0 && r >= 0 && c < SIZE && r < SIZE && inside.has(r * SIZE + c);
    let d = '';
    for (const [c, r] of army.cells) {
      const x = MARGIN + c * CELL;
      const y = MARGIN + r * CELL;
      if (!has(c, r - 1)) d += `M${x} ${y}H${x + CELL}`;
      if (!has(c + 1, r)) d += `M${x + CELL} ${y}V${y + CELL}`;
      if (!has(c, r + 1)) d += `M${x} ${y + CELL}H${x + CELL}`;
      if (!has(c - 1, r)) d += `M${x} ${y}V${y + CELL}`;
    }
    out.push(`<path class="army-outline" d="${d}"/>`);
    if (army.cells.length > 1) {
      const [c, r] = army.cells[0];
      const x = MARGIN + c * CELL;
      const y = MARGIN + r * CELL;
      out.push(
        `<rect class="army-badge ${SEATS[army.seat].className}" x="${x + 3}" y="${y + 3}" width="16" height="14" rx="3"/>`,
        `<text class="army-size" x="${x + 11}" y="${y + 14}" text-anchor="middle">${army.cells.length}</text>`,
      );
    }
  }
  out.push('</g>');
  return out.join('');
}

/// A seat's chip: its mark and its name (the colour it plays).
function seatChip(seat) {
  const s = SEATS[seat];
  return `<span class="chip ${s.className}"><span class="chip-mark" aria-hidden="true">${s.mark}</span> ${s.label}</span>`;
}

/// The comparison of army sizes, for the end screen: every position up to
/// the one that decides (at least three), the rest summed up below.
export function armyTable(sizes) {
  const n = Math.max(sizes.P1.length, sizes.P2.length, 1);
  const decide = decidingIndex(sizes);
  const shown = Math.min(n, Math.max(3, decide + 1));
  const rows = [];
  for (let i = 0; i < shown; i++) {
    const a = sizes.P1[i] ?? 0;
    const b = sizes.P2[i] ?? 0;
    const cls = i === decide ? ' class="deciding"' : '';
    const verdict = a > b ? seatChip('P1') : b > a ? seatChip('P2') : 'equal';
    rows.push(`<tr${cls}><th scope="row">${ordinal(i + 1)}</th><td>${a}</td><td>${b}</td><td>${verdict}${i === decide ? ' <strong>decides</strong>' : ''}</td></tr>`);
  }
  let rest = '';
  if (shown < n) {
    const tail = (seat) => sizes[seat].slice(shown).join(', ') || 'none';
    rest = `<p class="hint army-rest">Smaller armies: ${SEATS.P1.label} ${tail('P1')}; ${SEATS.P2.label} ${tail('P2')}.</p>`;
  }
  if (decide < 0) rest += '<p class="hint">Every size is equal: the player who placed the last piece wins.</p>';
  return (
    `<div class="table-wrap"><table class="army-table"><caption>Army sizes, largest first (${sizes.P1.length} ${SEATS.P1.label.toLowerCase()}, ${sizes.P2.length} ${SEATS.P2.label.toLowerCase()} armies)</caption>` +
    `<thead><tr><th scope="col">army</th><th scope="col">${seatChip('P1')}</th><th scope="col">${seatChip('P2')}</th><th scope="col">larger</th></tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table></div>${rest}`
  );
}

function ordinal(n) {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

// --- DOM glue -------------------------------------------------------------

const boards = boardStates({
  make: () => ({ focus: 'E5' }),
  fresh: (st) => {
    st.selected = null;
  },
  on: { click: onClick, keydown: onKey },
});

function draw(container) {
  const st = boards.get(container);
  const { view, ctx } = st;
  const acting = ctx.acting && view.phase === 'place' && (ctx.you === 'P1' || ctx.you === 'P2');
  const moves = acting ? placements(view.board, ctx.legal) : new Map();
  if (st.selected && !moves.has(st.selected)) st.selected = null;
  const hadFocus = container.contains(document.activeElement) && document.activeElement?.dataset?.cell;
  const parts = [];
  if (ctx.acting && view.phase === 'first' && (ctx.you === 'P1' || ctx.you === 'P2')) {
    parts.push(
      '<div class="ma-first" role="group" aria-label="Choose who places first">',
      '<p>You have the advantage: choose who places the first piece.</p>',
      `<button type="button" class="primary" data-action="first P1">${seatChip('P1')} places first</button> `,
      `<button type="button" data-action="first P2">${seatChip('P2')} places first</button>`,
      '</div>',
    );
  }
  parts.push(
    boardSvg(view, {
      you: acting ? ctx.you : null,
      focus: st.focus,
      selected: st.selected,
      targets: st.selected ? moves.get(st.selected) : new Set(),
      playable: new Set(moves.keys()),
      armies: view.phase === 'over' && !!ctx.final,
      staged: acting && !st.selected ? parsePlacement(ctx.staged) : null,
    }),
  );
  container.innerHTML = parts.join('');
  container.classList.toggle('acting', acting);
  if (hadFocus) container.querySelector(`[data-cell="${st.focus}"]`)?.focus();
  st.moves = moves;
}

function pick(container, name) {
  const st = boards.get(container);
  st.focus = name;
  const moves = st.moves ?? new Map();
  if (st.selected && moves.get(st.selected)?.has(name)) {
    const text = placement(st.selected, name);
    st.selected = null;
    draw(container);
    st.ctx.submit(text);
    return;
  }
  if (st.selected === name) st.selected = null;
  else if (moves.has(name)) st.selected = name;
  else if (st.selected) st.selected = null;
  draw(container);
}

function onClick(container, e) {
  const cell = e.target.closest('[data-cell]');
  if (cell) pick(container, cell.dataset.cell);
}

function onKey(container, e) {
  const cell = e.target.closest?.('[data-cell]');
  if (!cell) return;
  const st = boards.get(container);
  const to = GRID.step(cell.dataset.cell, e.key);
  if (to) {
    e.preventDefault();
    moveFocus(container, to);
  } else if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    pick(container, cell.dataset.cell);
  } else if (e.key === 'Escape' && st.selected) {
    e.preventDefault();
    st.selected = null;
    draw(container);
  }
}

function moveFocus(container, name) {
  const st = boards.get(container);
  st.focus = name;
  for (const el of container.querySelectorAll('[data-cell]')) {
    el.setAttribute('tabindex', el.dataset.cell === name ? '0' : '-1');
  }
  container.querySelector(`[data-cell="${name}"]`)?.focus();
}

export default {
  id: 'masked-army',
  name: 'Masked Army',
  seats: SEATS,
  example: 'E5 F5',
  help:
    'Click an empty cell for your colour, then an orthogonally adjacent empty cell ' +
    'for your opponent’s colour; the piece is placed at once. Click the first cell ' +
    'again (or press Escape) to cancel. Keyboard: Tab to the board, arrow keys move, ' +
    'Enter or Space picks a cell. Or type the rulebook notation, e.g. “E5 F5” ' +
    '(your colour on E5, the opponent’s on F5). Grey cells hold pieces whose ' +
    'colours are hidden; only the last piece shows its colours.',

  /// The acting seat's line for a decision of `kind`.
  prompt(kind) {
    if (kind === 'first') return 'Your turn: choose who places first.';
    return 'Your turn: click an empty cell for your colour, then a neighbouring empty cell for your opponent’s.';
  },

  /// A rules example drawn: a board written as rows of R, B and `.` under a
  /// line of column letters becomes the board, its armies outlined.
  illustrate(text) {
    const lines = text.split('\n').filter((l) => l.trim());
    const rows = lines.slice(1).map((l) => l.trim().split(/\s+/));
    if (!/^[A-I](\s+[A-I])+$/.test(lines[0]?.trim() ?? '') || !rows.length) return null;
    if (!rows.every((r) => /^[1-9]$/.test(r[0]) && r.slice(1).every((c) => /^[RB.]$/.test(c)))) return null;
    paint({});
    const board = Array.from({ length: SIZE }, () => Array(SIZE).fill('.'));
    for (const r of rows) r.slice(1).forEach((c, i) => (board[Number(r[0]) - 1][i] = c === 'R' ? '1' : c === 'B' ? '2' : '.'));
    const rowsText = board.map((r) => r.join(''));
    const sizes = armySizes(rowsText);
    const caption = `Red’s armies: ${sizes.P1.join(', ')}; Blue’s: ${sizes.P2.join(', ')} (each outlined)`;
    return { html: `<div class="ma-rules-board">${boardSvg({ board: rowsText }, { armies: true })}</div>`, caption };
  },

  /// An action in words: "Red on E5, Blue on F5".
  describe(action, view) {
    paint(view);
    const first = /^first (P[12])$/.exec(action.trim());
    if (first) return `${SEATS[first[1]].label} places first`;
    const p = parsePlacement(action);
    const you = view?.to_move;
    if (!p || !SEATS[you]) return null;
    return `${SEATS[you].label} on ${p.mine}, ${SEATS[other(you)].label.toLowerCase()} on ${p.theirs}`;
  },

  /// What the others wait for: "Red (P1) to choose who starts".
  doing(kind) {
    return kind === 'first' ? 'choose who starts' : 'move';
  },

  /// Draws `view` into `container`. ctx: {you, acting, kind, decision,
  /// legal, submit, final}. Keeps a half-made selection across redraws.
  render(container, view, ctx) {
    paint(view);
    boards.update(container, view, ctx, view.pieces, ctx.acting);
    draw(container);
  },

  /// Drops a half-made selection (after an error, say).
  reset(container) {
    if (boards.reset(container)) draw(container);
  },

  status(view) {
    paint(view);
    const n = view.pieces ?? 0;
    const placed = `${n} piece${n === 1 ? '' : 's'} placed`;
    if (!view.last) return `${placed[0].toUpperCase()}${placed.slice(1)}.`;
    const by = view.last.by;
    return (
      `Last: ${SEATS[by].label} put ${SEATS[by].label.toLowerCase()} on ${view.last.mine} and ` +
      `${SEATS[other(by)].label.toLowerCase()} on ${view.last.theirs} (${view.last.mine} ${view.last.theirs}). ${placed}.`
    );
  },

  moveOf(before, entry) {
    if (before.phase !== 'place') return { label: 'Setup' };
    return entry.action === 'timeout' ? { label: 'Out of time' } : 'Move';
  },
  ending(view) {
    paint(view);
    if (view.phase !== 'over') return '';
    const sizes = view.armies ?? armySizes(view.board);
    return armyTable(sizes);
  },

};
