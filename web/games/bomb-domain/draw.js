// Bomb Domain's board as SVG text: each cell's domain (colour and pattern),
// pieces by kind and owner, pegs, the marks a decision needs (cells to
// click, pieces to pick, the turn being built and what it claims), the
// blast shape under the pointer and the final blast.

import {
  KINDS,
  SIZE,
  blastCells,
  boardOf,
  cellName,
  coordinates,
  finalReach,
  ownerOf,
  parseCell,
  shapeOf,
  shift,
} from './rules.js';
import {
  SEATS,
  esc,
  lastMarks,
} from './words.js';

const CELL = 50;
const MARGIN = 26;
const WIDTH = MARGIN + SIZE * CELL + 6;

// --- drawing ----------------------------------------------------------------

const cellX = (col) => MARGIN + col * CELL;
const cellY = (row) => MARGIN + row * CELL;
const n1 = (v) => Math.round(v * 10) / 10;

/// One piece of `kind` for `seat` centred on (cx, cy); `r` its half size.
/// P2's pieces carry a white dot, so owner is not told by colour alone.
export function pieceSvg(kind, seat, cx, cy, r = 16, extra = '') {
  const cls = `bd-piece bd-${kind} ${SEATS[seat]?.className ?? ''}${extra ? ` ${extra}` : ''}`;
  let body;
  if (kind === 'square') {
    const s = r * 0.8;
    body = `<rect class="bd-shape" x="${n1(cx - s)}" y="${n1(cy - s)}" width="${n1(2 * s)}" height="${n1(2 * s)}" rx="2"/>`;
  } else {
    const a = r * 0.34;
    const s = kind === 'cross' ? r * 1.05 : r;
    const pts = [
      [-a, -s], [a, -s], [a, -a], [s, -a], [s, a], [a, a], [a, s], [-a, s], [-a, a], [-s, a], [-s, -a], [-a, -a],
    ]
      .map(([x, y]) => `${n1(cx + x)},${n1(cy + y)}`)
      .join(' ');
    const turn = kind === 'cross' ? ` transform="rotate(45 ${n1(cx)} ${n1(cy)})"` : '';
    body = `<polygon class="bd-shape" points="${pts}"${turn}/>`;
  }
  const dot = seat === 'P2' ? `<circle class="bd-seat-dot" cx="${n1(cx)}" cy="${n1(cy)}" r="${n1(r * 0.2)}"/>` : '';
  return `<g class="${cls}">${body}${dot}</g>`;
}

/// A peg: round for one placed with the peg step, a burst for one a
/// detonation left.
export function pegSvg(seat, blast, cx, cy, r = 10, extra = '') {
  const cls = `bd-peg ${blast ? 'bd-blast-peg' : ''} ${SEATS[seat]?.className ?? ''}${extra ? ` ${extra}` : ''}`;
  let body;
  if (blast) {
    const pts = Array.from({ length: 16 }, (_, i) => {
      const rr = i % 2 ? r * 0.55 : r * 1.2;
      const a = (Math.PI / 8) * i - Math.PI / 2;
      return `${n1(cx + rr * Math.cos(a))},${n1(cy + rr * Math.sin(a))}`;
    }).join(' ');
    body = `<polygon class="bd-shape" points="${pts}"/>`;
  } else {
    body = `<circle class="bd-shape" cx="${n1(cx)}" cy="${n1(cy)}" r="${n1(r)}"/>`;
  }
  const dot = seat === 'P2' ? `<circle class="bd-seat-dot" cx="${n1(cx)}" cy="${n1(cy)}" r="${n1(r * 0.3)}"/>` : '';
  return `<g class="${cls}">${body}${dot}</g>`;
}

/// A small inline icon of a piece kind (or a peg: 'peg', 'blast-peg').
export function icon(what, seat = null, label = '') {
  const body = what === 'peg' || what === 'blast-peg' ? pegSvg(seat ?? 'none', what === 'blast-peg', 12, 12, 7) : pieceSvg(what, seat ?? 'none', 12, 12, 9);
  const named = label ? `<span class="sr-only">${esc(label)}</span>` : '';
  return `<svg class="bd-icon" viewBox="0 0 24 24" aria-hidden="true">${body}</svg>${named}`;
}

/// A domain swatch for the legend.
export function swatch(seat) {
  const fill = seat ? `url(#bd-${SEATS[seat].pattern})` : '#fbf8f1';
  return `<svg class="bd-icon bd-swatch" viewBox="0 0 24 24" aria-hidden="true"><rect x="1" y="1" width="22" height="22" rx="3" fill="${fill}" stroke="#8a8373"/></svg>`;
}

const DEFS =
  '<defs>' +
  '<pattern id="bd-stripes" width="9" height="9" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
  '<rect width="9" height="9" fill="#f9dcc8"/><rect width="3.4" height="9" fill="#eba678"/></pattern>' +
  '<pattern id="bd-dots" width="10" height="10" patternUnits="userSpaceOnUse">' +
  '<rect width="10" height="10" fill="#d4e7f4"/><circle cx="5" cy="5" r="2.3" fill="#5d9fcf"/></pattern>' +
  '</defs>';

function describeCell(view, board, name, extra) {
  const owner = ownerOf(view, name);
  const domain = owner ? `${SEATS[owner].label}’s domain` : 'nobody’s domain';
  const piece = board.pieces.get(name);
  const peg = board.pegs.get(name);
  let what = 'empty';
  if (piece) what = `${SEATS[piece.seat].label} ${piece.kind}`;
  else if (peg) what = `${SEATS[peg.seat].label} ${peg.blast ? 'peg left by a blast' : 'peg'}`;
  return `${name}, ${domain}, ${what}${extra.length ? `, ${extra.join(', ')}` : ''}`;
}

/// The board as an SVG string. opts: {focus, you, sealed (placements to
/// draw sealed: [{seat, placement}]), sel (the placement being made),
/// selSeat, plan ({turn, board after it, claims}), picked, targets (Set),
/// pickable (Set), off (Set: cells greyed), crowded (Set), final (draw the
/// final blast), hoverLayer (SVG for the pointer's layer), staged (Set: the
/// cells of the action waiting for confirmation)}.
export function boardSvg(view, opts = {}) {
  const scene = sceneOf(view, opts);
  const parts = [
    `<svg class="bd-board" data-board="bomb" viewBox="0 0 ${WIDTH} ${WIDTH}" role="grid" aria-label="Bomb Domain board, columns A to I, rows 1 to 9" xmlns="http://www.w3.org/2000/svg">`,
    DEFS,
    `<rect x="${MARGIN - 3}" y="${MARGIN - 3}" width="${SIZE * CELL + 6}" height="${SIZE * CELL + 6}" rx="4" class="bd-frame"/>`,
    coordinatesSvg(),
  ];
  for (let row = 0; row < SIZE; row++) {
    parts.push('<g role="row">');
    for (let col = 0; col < SIZE; col++) parts.push(cellSvg(scene, cellName(col, row)));
    parts.push('</g>');
  }
  if (scene.plan?.claims.size) parts.push(claimOutline(scene.plan.claims, opts.you));
  parts.push(`<g class="bd-hover-layer" aria-hidden="true">${opts.hoverLayer ?? ''}</g>`, '</svg>');
  return parts.join('');
}

/// Everything the cells are drawn from: the view's board, the board after
/// the planned turn, the pieces drawn as ghosts (sealed or being placed),
/// the last event's cells, the final blast's reach.
function sceneOf(view, opts) {
  const board = boardOf(view);
  const last = lastMarks(view);
  const ghosts = new Map();
  for (const { seat, placement } of opts.sealed ?? []) {
    for (const k of KINDS) ghosts.set(placement[k], { kind: k, seat, cls: 'bd-sealed', label: `${SEATS[seat].label}’s sealed ${k}` });
  }
  for (const k of KINDS) {
    const c = opts.sel?.[k];
    if (c) ghosts.set(c, { kind: k, seat: opts.selSeat, cls: 'bd-chosen', label: `your ${k}, not yet submitted` });
  }
  const plan = opts.plan ?? null;
  return {
    view,
    opts,
    board,
    plan,
    shown: plan ? plan.board : board,
    ghosts,
    lastCells: new Set([...last.from, ...last.to, last.peg, last.detonate, ...last.placed].filter(Boolean)),
    reach: opts.final ? finalReach(view) : null,
  };
}

function coordinatesSvg() {
  return coordinates(MARGIN, CELL, 'bd-coord');
}

/// One cell: its domain, what stands on it, its marks, and its label.
function cellSvg(scene, name) {
  const { view, opts } = scene;
  const { col, row } = parseCell(name);
  const x = cellX(col);
  const y = cellY(row);
  const owner = ownerOf(view, name);
  const classes = ['bd-cell', owner ? `bd-dom-${owner.toLowerCase()}` : 'bd-dom-none'];
  const extra = [];
  const mark = (set, cls, words = null) => {
    if (!set?.has(name)) return;
    classes.push(cls);
    if (words) extra.push(words);
  };
  mark(opts.targets, 'target');
  mark(opts.pickable, 'pickable');
  mark(new Set([opts.picked]), 'picked');
  mark(opts.off, 'off');
  mark(opts.crowded, 'crowded', '3 or more occupied neighbours');
  mark(scene.lastCells, 'last', 'changed by the last event');
  mark(opts.staged, 'staged', 'waiting for your confirmation');
  const inner = cellContent(scene, name, x + CELL / 2, y + CELL / 2, classes, extra);
  const fill = owner ? `url(#bd-${SEATS[owner].pattern})` : '#fbf8f1';
  return [
    `<g class="${classes.join(' ')}" data-cell="${name}" role="gridcell" tabindex="${name === (opts.focus ?? 'E5') ? 0 : -1}" aria-label="${esc(describeCell(view, scene.shown, name, extra))}"${opts.picked === name ? ' aria-selected="true"' : ''}${opts.staged?.has(name) ? ' data-staged=""' : ''}>`,
    `<rect class="bd-bg" x="${x + 1}" y="${y + 1}" width="${CELL - 2}" height="${CELL - 2}" fill="${fill}"/>`,
    ...inner,
    scene.lastCells.has(name) ? `<path class="bd-last-mark" d="M${x + 1} ${y + 1}h14l-14 14z"/>` : '',
    `<rect class="bd-ring" x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4"/>`,
    '</g>',
  ].join('');
}

/// What a cell centred on (cx, cy) holds: a piece (moved by the planned
/// turn or not), a peg, a ghost, the planned peg and detonation, a target
/// dot, the final blast. Adds to the cell's classes and label words.
function cellContent(scene, name, cx, cy, classes, extra) {
  const { board, plan, reach, opts } = scene;
  const inner = [];
  const piece = scene.shown.pieces.get(name);
  const peg = board.pegs.get(name);
  if (plan && board.pieces.has(name) && !plan.board.pieces.has(name)) {
    inner.push(`<rect class="bd-vacated" x="${cx - CELL / 2 + 6}" y="${cy - CELL / 2 + 6}" width="${CELL - 12}" height="${CELL - 12}" rx="4"/>`);
    extra.push(`${board.pieces.get(name).kind} moves away`);
  }
  if (reach && piece) inner.push(burstSvg(piece.seat, cx, cy));
  if (piece) {
    const moved = plan && !board.pieces.has(name);
    inner.push(pieceSvg(piece.kind, piece.seat, cx, cy, 16, moved ? 'bd-moved' : ''));
    if (moved) extra.push('moves here');
  } else if (peg) {
    inner.push(pegSvg(peg.seat, peg.blast, cx, cy));
  } else if (scene.ghosts.has(name)) {
    const g = scene.ghosts.get(name);
    classes.push(g.cls === 'bd-chosen' ? 'chosen' : 'sealed');
    inner.push(pieceSvg(g.kind, g.seat, cx, cy, 16, g.cls));
    extra.push(g.label);
  }
  if (plan?.turn.peg === name) {
    inner.push(pegSvg(opts.you, false, cx, cy, 10, 'bd-planned'));
    extra.push('your peg, planned');
  }
  if (plan?.turn.detonate === name) {
    inner.push(`<g class="bd-fuse">${pegSvg(opts.you, true, cx, cy, 13, 'bd-planned')}</g>`);
    extra.push('detonates, planned');
  }
  if (plan?.claims.has(name)) extra.push('claimed by your turn');
  if (opts.targets?.has(name)) inner.push(`<circle class="bd-target-dot" cx="${cx}" cy="${cy}" r="6"/>`);
  if (reach && (reach.P1.has(name) || reach.P2.has(name))) {
    const both = reach.both.has(name);
    const who = both ? 'both' : reach.P1.has(name) ? 'p1' : 'p2';
    inner.push(`<rect class="bd-reach bd-reach-${who}" x="${cx - CELL / 2 + 3}" y="${cy - CELL / 2 + 3}" width="${CELL - 6}" height="${CELL - 6}" rx="3"/>`);
    extra.push(both ? 'reached by both final blasts: kept its owner' : `reached by ${SEATS[who.toUpperCase()].label}’s final blast`);
  }
  return inner;
}

/// An outline around a set of cells (the edges not shared inside it).
function outline(cells, cls) {
  let d = '';
  for (const name of cells) {
    const { col, row } = parseCell(name);
    const x = cellX(col);
    const y = cellY(row);
    const has = (dc, dr) => cells.has(shift(name, dc, dr) ?? '');
    if (!has(0, -1)) d += `M${x} ${y}H${x + CELL}`;
    if (!has(1, 0)) d += `M${x + CELL} ${y}V${y + CELL}`;
    if (!has(0, 1)) d += `M${x} ${y + CELL}H${x + CELL}`;
    if (!has(-1, 0)) d += `M${x} ${y}V${y + CELL}`;
  }
  return d ? `<path class="${cls}" d="${d}"/>` : '';
}

function claimOutline(claims, seat) {
  return `<g class="bd-claims" aria-hidden="true">${outline(claims, `bd-claim-line ${SEATS[seat]?.className ?? ''}`)}</g>`;
}

/// The final blast: a burst behind each piece that went off.
function burstSvg(seat, cx, cy) {
  const pts = Array.from({ length: 20 }, (_, i) => {
    const r = i % 2 ? 14 : 24;
    const a = (Math.PI / 10) * i;
    return `${n1(cx + r * Math.cos(a))},${n1(cy + r * Math.sin(a))}`;
  }).join(' ');
  return `<polygon class="bd-burst ${SEATS[seat].className}" points="${pts}"/>`;
}

/// The blast shape of a piece of `kind` on `name`, drawn over the board:
/// every covered cell outlined; `claims` (a Set) the cells it would claim.
export function blastSvg(view, kind, name, claims = null, seat = null) {
  const cells = new Set(blastCells(shapeOf(view, kind), name));
  const parts = [`<g class="bd-blast-preview${claims ? ' live' : ''}" data-shape="${kind}" data-centre="${name}">`];
  for (const c of cells) {
    const { col, row } = parseCell(c);
    const cls = claims?.has(c) ? `bd-blast-cell claim ${SEATS[seat]?.className ?? ''}` : 'bd-blast-cell';
    parts.push(`<rect class="${cls}" data-blast-cell="${c}" x="${cellX(col) + 4}" y="${cellY(row) + 4}" width="${CELL - 8}" height="${CELL - 8}" rx="3"/>`);
  }
  parts.push(outline(cells, 'bd-blast-line'), '</g>');
  return parts.join('');
}
