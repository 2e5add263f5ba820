// Unit tests of the Flower Domain board module's pure functions (no
// browser): the move checks that guide a player when the server sends no
// legal list, the notation it writes, the scoring steps of the end screen.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import flowerDomain, {
  ORIENTATIONS,
  boardSvg,
  canAdd,
  canComplete,
  canonicalMove,
  fitsSomewhere,
  lastCells,
  legalMoves,
  moveText,
  orient,
  pickable,
  placeAt,
  planMove,
  scoreSteps,
  scoringRegions,
} from '../../web/games/flower-domain.js';

const EMPTY = Array(10).fill('..........');
const QUARTERS = [...Array(5).fill('RRRRRYYYYY'), ...Array(5).fill('GGGGGBBBBB')];
const COLS = 'ABCDEFGHIJ';

/// Ten rows with the given cells set: {A1: 'R', …}.
function rowsWith(cells, base = EMPTY) {
  const rows = base.map((r) => r.split(''));
  for (const [name, ch] of Object.entries(cells)) {
    rows[Number(name.slice(1)) - 1][COLS.indexOf(name[0])] = ch;
  }
  return rows.map((r) => r.join(''));
}

const play = (extra = {}) => ({
  phase: 'play',
  advantage: 'P1',
  meadow: QUARTERS,
  garden: EMPTY,
  restriction: null,
  owners: { red: 'P1', yellow: 'P2', green: 'P1', blue: 'P2' },
  regions: { red: [], yellow: [], green: [], blue: [] },
  score: { P1: 0, P2: 0 },
  passes: 0,
  last: null,
  ...extra,
});

test('the eight orientations are the turns and flips, each once', () => {
  // An L: its eight images are all different.
  const l = [[0, 0], [0, 1], [0, 2], [1, 2]];
  const images = new Set(ORIENTATIONS.map((o) => JSON.stringify(l.map((p) => orient(o, p)))));
  assert.equal(images.size, 8);
  assert.deepEqual(orient({ rot: 1, flip: false }, [1, 0]), [0, 1], 'a quarter turn clockwise: right becomes down');
  assert.deepEqual(orient({ rot: 0, flip: true }, [1, 0]), [-1, 0], 'a flip mirrors left and right');
  assert.deepEqual(orient({ rot: 2, flip: false }, [1, 2]), [-1, -2]);
});

test('a flower joins the selection only if it is new in colour, touching, and there is room', () => {
  const view = play({ meadow: rowsWith({ A1: 'R', B1: 'Y', C1: 'R', D1: 'G', A2: 'B', B2: 'G', E1: 'B' }) });
  assert.ok(canAdd(view, [], 'A1'));
  assert.ok(!canAdd(view, [], 'A3'), 'no flower there');
  assert.ok(canAdd(view, ['A1'], 'B1'));
  assert.ok(!canAdd(view, ['A1'], 'A1'), 'picked already');
  assert.ok(!canAdd(view, ['A1'], 'C1'), 'not touching');
  assert.ok(!canAdd(view, ['A1', 'B1'], 'C1'), 'red twice');
  assert.ok(canAdd(view, ['A1', 'B1'], 'A2'));
  assert.ok(!canAdd(view, ['A1', 'B1', 'A2', 'B2'], 'C1'), 'four at most');
  // The original first move takes exactly two.
  assert.ok(!canAdd({ ...view, restriction: 'original' }, ['A1', 'B1'], 'A2'));
  assert.deepEqual([...pickable(view, ['A1', 'B1'])].sort(), ['A2', 'B2']);
  // Every flower with a neighbour of another colour; alone, nothing.
  assert.deepEqual([...pickable(view, [])].sort(), ['A1', 'A2', 'B1', 'B2', 'C1', 'D1', 'E1']);
  assert.equal(pickable(play({ meadow: rowsWith({ A1: 'R', C1: 'Y' }) }), []).size, 0);
});

test('the amended first move: four flowers over a centre cell', () => {
  const view = play({ restriction: 'amended' });
  // Four colours meet only at the centre of this meadow.
  assert.deepEqual([...pickable(view, [])].sort(), ['E5', 'E6', 'F5', 'F6']);
  assert.deepEqual([...pickable(view, ['E5'])].sort(), ['E6', 'F5']);
  const sel = ['E5', 'F5', 'F6', 'E6'];
  assert.match(planMove(view, ['E5', 'F5'], ORIENTATIONS[0], 'E5').problem, /exactly 4 flowers: pick 2 more/);
  assert.equal(planMove(view, sel, ORIENTATIONS[0], 'A1').problem, 'the first move must cover E5, F5, E6 or F6');
  const ok = planMove(view, sel, { rot: 1, flip: false }, 'F5');
  assert.deepEqual(ok, { text: 'E5-F5-F6-E6 to F5-F6-E6-E5', to: ['F5', 'F6', 'E6', 'E5'], problem: null });
  assert.equal(canonicalMove(ok.text), 'E5-F5-E6-F6 to F5-F6-E5-E6');
});

test('a placement must stay on the garden and use empty cells', () => {
  const view = play({ garden: rowsWith({ C3: 'R' }) });
  const sel = ['E4', 'F4', 'F5'];
  assert.deepEqual(placeAt(view, sel, ORIENTATIONS[0], 'A1'), { to: ['A1', 'B1', 'B2'], problem: null });
  assert.equal(placeAt(view, sel, ORIENTATIONS[0], 'J1').problem, 'the shape would leave the garden');
  assert.deepEqual(placeAt(view, sel, ORIENTATIONS[0], 'J1').to, ['J1', null, null]);
  assert.equal(placeAt(view, sel, ORIENTATIONS[0], 'B2').problem, 'garden cell C3 already holds a flower');
  // Flipped, the L hangs to the left.
  assert.deepEqual(placeAt(view, sel, { rot: 0, flip: true }, 'J1').to, ['J1', 'I1', 'I2']);
  assert.equal(moveText(sel, ['J1', 'I1', 'I2']), 'E4-F4-F5 to J1-I1-I2');
});

test('a shape that fits nowhere cannot be started', () => {
  // A garden with every other cell taken has room for no domino.
  const chequer = Array.from({ length: 10 }, (_, r) => Array.from({ length: 10 }, (_, c) => ((r + c) % 2 ? 'R' : '.')).join(''));
  const view = play({ garden: chequer });
  assert.ok(!fitsSomewhere(view, ['E4', 'F4']));
  assert.ok(!canComplete(view, ['E4']));
  assert.equal(pickable(view, []).size, 0);
  assert.ok(canComplete(play(), ['E4']));
});

test('with the server’s legal list, the list decides', () => {
  const legal = legalMoves(['pass', 'E5-F5-E6-F6 to F5-F6-E5-E6', 'e5 f5 e6 f6 -> e5 f5 e6 f6']);
  assert.deepEqual(legal.map((m) => m.text), ['E5-F5-E6-F6 to F5-F6-E5-E6', 'E5-F5-E6-F6 to E5-F5-E6-F6']);
  const view = play({ restriction: 'amended' });
  assert.ok(canComplete(view, ['E5', 'F6'], legal));
  assert.ok(!canComplete(view, ['D5'], legal));
  const sel = ['E5', 'F5', 'F6', 'E6'];
  assert.equal(planMove(view, sel, { rot: 1, flip: false }, 'F5', legal).problem, null);
  assert.equal(planMove(view, sel, { rot: 1, flip: false }, 'E5', legal).problem, 'the umpire does not list this move');
  assert.equal(legalMoves(undefined), null);
});

test('notation is made canonical the way the server writes it', () => {
  assert.equal(canonicalMove('b1-a1 to c4-c3'), 'A1-B1 to C3-C4');
  assert.equal(canonicalMove('A1-B1-C1-C2 to B3-B2-B1-A1'), 'A1-B1-C1-C2 to B3-B2-B1-A1');
  assert.equal(canonicalMove('J10 A10 -> A1 B1'), 'A10-J10 to B1-A1');
  assert.equal(canonicalMove('pass'), null);
  assert.equal(canonicalMove('A1-B1 to C3'), null);
  assert.equal(canonicalMove('A1-K1 to C3-C4'), null);
  assert.deepEqual(lastCells(play({ last: { by: 'P1', action: 'A1-B1 to C3-C4' } })), { from: ['A1', 'B1'], to: ['C3', 'C4'] });
  assert.deepEqual(lastCells(play({ last: { by: 'P1', action: 'pass' } })), { from: [], to: [] });
});

test('scoring steps: the rules’ example ties on the largest regions and P1 wins on the second', () => {
  // P1 red and blue, P2 yellow and green. Red 4 and 1, blue 2 and 1,
  // yellow 3 and 1, green 3.
  const region = (n, at) => Array.from({ length: n }, (_, i) => `${COLS[i]}${at}`);
  const view = play({
    phase: 'over',
    owners: { red: 'P1', yellow: 'P2', green: 'P2', blue: 'P1' },
    regions: {
      red: [region(4, 1), region(1, 3)],
      blue: [region(2, 5), region(1, 7)],
      yellow: [region(3, 9), ['J1']],
      green: [region(3, 10)],
    },
  });
  const steps = scoreSteps(view);
  assert.deepEqual(steps.rows.map((r) => [r.P1, r.P2]), [[6, 6], [8, 7]]);
  assert.equal(steps.deciding, 1);
  // Scoring: every colour's largest and second-largest region (green has one).
  assert.equal(scoringRegions(view).length, 7);
  const table = flowerDomain.ending(view);
  assert.match(table, /<tr class="deciding"><th scope="row">\+ second-largest<\/th>/);
  assert.match(table, /decides/);
  // Tied at every step: blue's controller wins, every region counts.
  const tied = play({ phase: 'over', regions: { red: [['A1']], yellow: [['C1']], green: [['E1']], blue: [['G1']] } });
  assert.equal(scoreSteps(tied).deciding, -1);
  assert.equal(scoringRegions(tied).length, 4);
  assert.match(flowerDomain.ending(tied), /wins the tie/);
  assert.equal(flowerDomain.ending(play()), '', 'no end screen before the end');
});

test('the SVG draws each colour with its shape, coordinates, and the scoring regions at the end', () => {
  const view = play({ garden: rowsWith({ A1: 'R', B1: 'Y', C1: 'G', D1: 'B' }) });
  const garden = boardSvg(view, 'garden', { last: new Set(['A1', 'B1']) });
  assert.equal((garden.match(/role="gridcell"/g) ?? []).length, 100);
  assert.equal((garden.match(/tabindex="0"/g) ?? []).length, 1, 'one focusable cell (roving tabindex)');
  assert.match(garden, /<polygon class="fd-flower fd-red"/);
  assert.match(garden, /<polygon class="fd-flower fd-yellow"/);
  assert.match(garden, /<rect class="fd-flower fd-green"/);
  assert.match(garden, /<circle class="fd-flower fd-blue"/);
  assert.match(garden, /aria-label="A1, red diamond, last move"/);
  assert.match(garden, /aria-label="E1, empty"/);
  for (const text of ['>A<', '>J<', '>1<', '>10<']) assert.ok(garden.includes(text), `coordinate ${text}`);
  const meadow = boardSvg(play(), 'meadow', { picked: ['E5', 'F5'], pickable: new Set(['E6']), dim: true });
  assert.match(meadow, /aria-label="F5, yellow hexagon, picked 2" aria-selected="true"/);
  assert.match(meadow, /class="fd-cell flower pickable"[^>]*data-cell="E6"/);
  assert.equal((meadow.match(/class="fd-cell flower dim"/g) ?? []).length, 97);
  const end = boardSvg(view, 'garden', { regions: [{ colour: 'red', cells: ['A1'], seat: 'P1' }] });
  assert.equal((end.match(/class="fd-region-outline"/g) ?? []).length, 1);
});

test('status and prompts speak of the position', () => {
  const moved = play({ garden: rowsWith({ C3: 'R', C4: 'B' }), last: { by: 'P2', action: 'A1-B1 to C3-C4' } });
  assert.equal(flowerDomain.status(moved), 'Last: Yellow & blue moved 2 flowers: red A1 to C3, blue B1 to C4 (A1-B1 to C3-C4). 2 flowers in the garden.');
  const passed = play({ passes: 3, last: { by: 'P1', action: 'pass' } });
  assert.match(flowerDomain.status(passed), /^Last: Red & green passed; 3 passes in a row \(4 end the game\)/);
  assert.equal(flowerDomain.status(play({ phase: 'draft', first_drafter: 'P2', picks: ['blue'] })), 'Draft: Player 2 took blue.');
  assert.equal(flowerDomain.prompt('draft', play()), 'Your turn: pick a colour.');
  assert.match(flowerDomain.prompt('move', play({ restriction: 'amended' })), /first move: 4 connected flowers/);
  assert.equal(flowerDomain.doing('study'), 'study the meadow');
  assert.equal(flowerDomain.doing('move'), 'move');
});
