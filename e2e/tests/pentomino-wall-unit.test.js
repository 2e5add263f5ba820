// Unit tests of the Pentomino Wall board module's pure functions (no
// browser): orientations, names and re-orientation steps against the
// engine's own fixture, the notation the clicks write, the legal list read
// for placements, events and the end in words, the wall's SVG.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import pentominoWall, {
  canonical,
  cellsOf,
  costOf,
  coveredCells,
  deciderWords,
  doublesIn,
  endingHtml,
  eventWords,
  orientations,
  phaseLine,
  placementsIn,
  presentText,
  roundEndText,
  step,
  stepsBetween,
  stepsWords,
  takeText,
  wallSvg,
} from '../../web/games/pentomino-wall.js';
import { ROOT } from './helpers.js';

// Written by the engine's test `the_boards_fixture_matches_the_engine`.
const FIXTURE = fs.readFileSync(path.join(ROOT, 'e2e', 'tests', 'fixtures', 'pentomino-wall-orientations.txt'), 'utf8');

test('orientations, names and steps equal the engine’s, for every piece', () => {
  let lines = 0;
  for (const line of FIXTURE.trim().split('\n')) {
    const [kind, a, b, c, d] = line.split(' ');
    if (kind === 'C') {
      assert.equal(canonical(a), a, `${a} is its own name`);
      assert.equal(cellsOf(a).map(([x, y]) => `${x},${y}`).join(' '), line.split(' ').slice(2).join(' '), `${a}'s cells`);
    } else if (kind === 'N') {
      assert.equal(canonical(a), b, `${a} is named ${b}`);
    } else if (kind === 'S') {
      assert.equal(stepsBetween(a, b, false), Number(c), `${a} to ${b}`);
      assert.equal(stepsBetween(a, b, true), Number(d), `${a} to ${b} with anticlockwise turns`);
    }
    lines += 1;
  }
  assert.ok(lines > 500, `${lines} fixture lines`);
  assert.equal(orientations('X').length, 1);
  assert.equal(orientations('F').length, 8);
  assert.equal(orientations('I').length, 2);
});

test('a step turns or mirrors; names are read in any case', () => {
  assert.equal(step('T', 'cw'), 'T90');
  assert.equal(step('T90', 'cw'), 'T180');
  assert.equal(step('T', 'tb'), 'T180');
  assert.equal(step('F', 'lr'), 'Fm');
  assert.equal(canonical('tm90'), canonical('Tm90'));
  assert.equal(canonical('Q'), null);
  assert.equal(canonical('T45'), null);
  // An anticlockwise quarter turn of F costs three steps (two with the
  // option), so buying Rotation has a use.
  assert.deepEqual(costOf('F', 'F270'), { steps: 3, paid: 1 });
  assert.deepEqual(costOf('F', 'F270', 'both'), { steps: 1, paid: 0 });
  assert.equal(stepsWords('F', 'F270', 'clockwise', 0), '3 steps from F: 2 of 2 free, 1 paid (1 credit to your opponent; you have 0)');
  assert.equal(stepsWords('T', 'T', 'clockwise', 0), '0 steps from T: 0 of 2 free');
});

test('covered cells follow the top-left corner and stay on the wall', () => {
  assert.deepEqual(coveredCells('I', 'A1'), ['A1', 'B1', 'C1', 'D1', 'E1']);
  assert.deepEqual(coveredCells('I90', 'J5'), ['J5', 'J6', 'J7', 'J8', 'J9']);
  assert.equal(coveredCells('I', 'G1'), null, 'I from G1 leaves the wall');
  assert.equal(coveredCells('I90', 'A6'), null);
  assert.deepEqual(coveredCells('X', 'B2'), ['C2', 'B3', 'C3', 'D3', 'C4']);
});

test('clicks write the rulings’ notation', () => {
  assert.equal(takeText('F'), 'take F');
  assert.equal(takeText('L', 'F'), 'take F L');
  assert.equal(presentText('tm90', 'P'), `present ${canonical('Tm90')} aside P`);
  assert.equal(roundEndText({ W: 'keep', P: 'give', Z: 'return' }), 'give P, return Z, keep W');
  assert.equal(roundEndText({ Z: 'give', P: 'give' }), 'give P, give Z');
});

test('the legal list says where each orientation may go and which doubles', () => {
  const legal = ['place T at A1', 'place T at B1', 'place T90 at A1', 'exchange L', 'take F', 'take F L'];
  const places = placementsIn(legal);
  assert.deepEqual([...places.get('T')], ['A1', 'B1']);
  assert.deepEqual([...places.get('T90')], ['A1']);
  assert.equal(places.get('Tm'), undefined);
  assert.deepEqual(doublesIn(legal), ['take F L']);
  assert.deepEqual(placementsIn(null), new Map());
});

const emptyRows = Array.from({ length: 9 }, () => '..........');

function view(extra = {}) {
  return {
    advantage: 'P1',
    phase: 'place',
    round: 2,
    turn: 1,
    quarter_turns: 'clockwise',
    pool: '',
    hands: { P1: 'FL', P2: 'NP' },
    aside: { P1: '', P2: '' },
    credits: { P1: 3, P2: 1 },
    sealed: { P1: null, P2: null },
    submitted: { P1: false, P2: false },
    to_place: { P1: 'T90', P2: null },
    exchanged: { P1: null, P2: null },
    placed: { P1: false, P2: true },
    walls: {
      P1: { placed: [], rows: emptyRows },
      P2: { placed: [{ piece: 'I', at: 'A1' }], rows: ['IIIII.....', ...emptyRows.slice(1)] },
    },
    kept: { P1: [], P2: [] },
    choices: { P1: null, P2: null },
    scores: {
      P1: { square: 0, pieces: 0, credits: 3, unpainted: 90, total: -177, piece_points: [] },
      P2: { square: 1, pieces: 0, credits: 1, unpainted: 85, total: -168, piece_points: [0] },
    },
    history: [],
    last: null,
    ...extra,
  };
}

test('the wall draws 90 cells, letters in their colour, black overlaps, the ghost', () => {
  const rows = ['II#II.....', ...emptyRows.slice(1)];
  const v = view({ walls: { P1: { placed: [], rows }, P2: { placed: [], rows: emptyRows } } });
  const svg = wallSvg(v, 'P1', { ghost: { cells: ['A3', 'B3'], good: false, letter: 'T' }, fits: new Set(['A2']) });
  assert.equal((svg.match(/class="pw-cell/g) ?? []).length, 90);
  assert.equal((svg.match(/pw-cell black/g) ?? []).length, 1);
  assert.match(svg, /aria-label="C1, black \(overlap\)"/);
  assert.match(svg, /aria-label="A1, I"/);
  assert.match(svg, /pw-ghost bad/);
  assert.match(svg, /pw-cell fits" data-cell="A2"/);
});

test('events in words name the seats; a sealed choice says only that', () => {
  assert.equal(eventWords({ by: 'P2', event: { kind: 'sealed' } }), 'Blue sealed a choice');
  assert.equal(
    eventWords({ by: 'P1', event: { kind: 'placed', placed: { piece: 'T90', at: 'C4' }, paid: 1 } }),
    'Red placed T turned 90° at C4 (T90 C4) (1 paid step: 1 credit to Blue)',
  );
  assert.equal(
    eventWords({ by: 'P1', event: { kind: 'took', pieces: 'FL', double: true, rest: 'NPT' } }),
    'Red took F and L with a Double Turn (2 credits to Blue); Blue takes the rest of the pool (N P T)',
  );
  assert.match(eventWords({ by: 'P2', event: { kind: 'placed', placed: { piece: 'X', at: 'A1' }, paid: 0 }, timeout: true }), /^Blue’s time ran out; the umpire chose: Blue placed X at A1/);
  assert.equal(pentominoWall.status(view({ last: null })), 'Scores: Red -177, Blue -168.');
  assert.equal(phaseLine(view()), 'Round 2 of 6, turn 1 of 3: both seats place the piece presented to them.');
});

test('the end shows each term per seat and the deciding step', () => {
  const html = endingHtml(view({ phase: 'over' }), { winner: 'P2', decided_by: 'score' });
  assert.match(html, /largest painted square/);
  assert.match(html, /90 \(−180\)/);
  assert.match(html, /Blue wins on the higher score\./);
  assert.equal(deciderWords('first to reach -10'), 'everything else equal: first to reach -10 with the running score');
  assert.match(endingHtml(view({ phase: 'over' }), { winner: null, decided_by: 'draw' }), /A draw: every tiebreak equal/);
  assert.equal(pentominoWall.ending(view(), null), '', 'no end screen before the end');
});
