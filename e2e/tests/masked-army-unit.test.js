// Unit tests of the Masked Army board module's pure functions (no browser).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import maskedArmy, {
  adjacent,
  armies,
  armySizes,
  boardSvg,
  cellName,
  decidingIndex,
  paint,
  parseCell,
  placements,
  SEATS,
} from '../../web/games/masked-army.js';

const EMPTY = Array(9).fill('.........');

function boardWith(cells) {
  const rows = EMPTY.map((r) => r.split(''));
  for (const [name, ch] of Object.entries(cells)) {
    const { col, row } = parseCell(name);
    rows[row][col] = ch;
  }
  return rows.map((r) => r.join(''));
}

test('cell names round-trip', () => {
  assert.equal(cellName(4, 4), 'E5');
  assert.deepEqual(parseCell('e5'), { col: 4, row: 4 });
  assert.deepEqual(parseCell('I9'), { col: 8, row: 8 });
  assert.equal(parseCell('J1'), null);
  assert.equal(parseCell('A10'), null);
  assert.ok(adjacent('E5', 'F5'));
  assert.ok(adjacent('E5', 'E4'));
  assert.ok(!adjacent('E5', 'F6'));
  assert.ok(!adjacent('E5', 'E5'));
});

test('placements come from the legal list when given', () => {
  const moves = placements(EMPTY, ['E5 F5', 'e5-e6', 'A1,B1', 'first P1']);
  assert.deepEqual([...moves.get('E5')].sort(), ['E6', 'F5']);
  assert.deepEqual([...moves.get('A1')], ['B1']);
  assert.equal(moves.size, 2);
});

test('placements without a legal list need two adjacent empty cells', () => {
  const board = boardWith({ B1: '#', A2: '#' });
  const moves = placements(board, undefined);
  assert.ok(!moves.has('A1'), 'A1 is boxed in');
  assert.ok(!moves.has('B1'));
  assert.deepEqual([...moves.get('C1')].sort(), ['C2', 'D1']);
  // Every ordered pair of adjacent empty cells on an empty board: 2 × 144.
  const all = placements(EMPTY);
  const count = [...all.values()].reduce((n, s) => n + s.size, 0);
  assert.equal(count, 288);
});

test('armies are orthogonal groups of one colour', () => {
  // Rulebook example: Red 4 and 1, Blue 3, 1 and 1.
  const board = boardWith({
    A1: '1', B1: '1', C1: '1', C2: '1', // red 4
    E5: '1', // red 1
    A3: '2', B3: '2', B4: '2', // blue 3
    G7: '2', I9: '2', // blue 1, 1
    D2: '2', // blue touching red diagonally only? no: C2-D2 adjacent, different colour
  });
  const sizes = armySizes(board);
  assert.deepEqual(sizes, { P1: [4, 1], P2: [3, 1, 1, 1] });
  assert.equal(decidingIndex(sizes), 0);
  assert.equal(armies(board).length, 6);
  assert.equal(decidingIndex({ P1: [3, 2], P2: [3, 1] }), 1);
  assert.equal(decidingIndex({ P1: [3, 1], P2: [3, 1, 1] }), 2);
  assert.equal(decidingIndex({ P1: [2], P2: [2] }), -1);
});

test('the SVG shows hidden cells as plain grey and no colour for them', () => {
  const view = {
    phase: 'place',
    advantage: 'P1',
    to_move: 'P1',
    board: boardWith({ A1: '#', B1: '#', E5: '1', F5: '2' }),
    last: { by: 'P1', mine: 'E5', theirs: 'F5' },
    pieces: 2,
    armies: null,
  };
  const svg = boardSvg(view, {});
  assert.equal((svg.match(/class="hidden-piece"/g) ?? []).length, 2);
  assert.equal((svg.match(/class="colour p1"/g) ?? []).length, 1);
  assert.equal((svg.match(/class="colour p2"/g) ?? []).length, 1);
  assert.match(svg, /data-cell="A1"[^>]*aria-label="A1, piece \(colour hidden\)"/);
  assert.match(svg, /aria-label="E5, red, last piece"/);
  assert.match(svg, /class="last-piece"/);
  // One focusable cell (roving tabindex).
  assert.equal((svg.match(/tabindex="0"/g) ?? []).length, 1);
  assert.equal((svg.match(/role="gridcell"/g) ?? []).length, 81);
});

test('the end board outlines each army and the table names the deciding size', () => {
  const board = boardWith({ A1: '1', B1: '1', A2: '2', B2: '2', C2: '2' });
  const svg = boardSvg({ phase: 'over', board, last: null, pieces: 0 }, { armies: true });
  assert.equal((svg.match(/class="army-outline"/g) ?? []).length, 2);
  const table = maskedArmy.ending({ phase: 'over', board, armies: { P1: [2], P2: [3] } });
  assert.match(table, /class="deciding"/);
  assert.match(table, /decides/);
});

test('the seats wear the colours the match chose, red and blue by default', () => {
  const board = boardWith({ E5: '1', F5: '2' });
  const view = {
    phase: 'over',
    board,
    last: { by: 'P1', mine: 'E5', theirs: 'F5' },
    pieces: 1,
    armies: { P1: [1], P2: [1] },
    colours: { P1: 'orange', P2: 'sky-blue' },
  };
  const table = maskedArmy.ending(view);
  assert.equal(SEATS.P1.label, 'Orange');
  assert.equal(SEATS.P2.colour, '#56B4E9');
  assert.match(table, /\(1 orange, 1 sky blue armies\)/);
  assert.match(boardSvg(view, {}), /aria-label="E5, orange, last piece"/);
  assert.equal(maskedArmy.status(view), 'Last: Orange put orange on E5 and sky blue on F5 (E5 F5). 1 piece placed.');
  // A view without colours (a record from before the option) is red and blue.
  paint({ ...view, colours: undefined });
  assert.deepEqual([SEATS.P1.label, SEATS.P2.label], ['Red', 'Blue']);
  assert.match(boardSvg(view, {}), /aria-label="E5, red, last piece"/);
});
