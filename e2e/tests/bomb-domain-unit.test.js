// Unit tests of the Bomb Domain board module's pure functions (no browser):
// the placement and turn rules that guide a player when the server sends no
// legal list, the notation the clicks write, the blast shapes read from the
// view, the words for each event (never a sealed placement early) and the
// final blast of the end screen.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import bombDomain, {
  blastCells,
  blastClaims,
  boardOf,
  boardSvg,
  detonateProblem,
  diagonalTargets,
  emptyTurn,
  endingHtml,
  eventWords,
  finalReach,
  firstMoveTargets,
  lastMarks,
  pairExists,
  parseTurn,
  pegProblem,
  placementCells,
  placementProblem,
  placementText,
  secondMoveTargets,
  sealedOf,
  shapeOffsets,
  stageOf,
  straightMove,
  threeApart,
  turnClaims,
  turnText,
} from '../../web/games/bomb-domain.js';

const SHAPES = {
  square: '###/###/###',
  plus: '..#../..#../#####/..#../..#..',
  cross: '#...#/.#.#./..#../.#.#./#...#',
  final: '.#./###/.#.',
};
const DOMAIN = Array(9).fill('1111.2222');
const none = () => ({ P1: { square: [], plus: [], cross: [] }, P2: { square: [], plus: [], cross: [] } });

/// A view like the server's: pieces given as {P1: {square: [...]}, ...}.
function view(extra = {}) {
  const pieces = none();
  for (const seat of ['P1', 'P2']) Object.assign(pieces[seat], extra.pieces?.[seat] ?? {});
  return {
    phase: 'turns',
    dmo: 'P1',
    shapes: SHAPES,
    domain: DOMAIN,
    pegs: { P1: [], P2: [] },
    blast_pegs: { P1: [], P2: [] },
    pegs_left: { P1: 9, P2: 9 },
    deferred: false,
    chooser: 'P1',
    starter: 'P1',
    round: 7,
    in_hand: 0,
    lost: { P1: 0, P2: 0 },
    sealed: { P1: 'waiting', P2: 'waiting' },
    turn: 0,
    to_move: 'P1',
    diagonal: null,
    cells: { P1: 36, P2: 36 },
    last: null,
    ...extra,
    pieces,
  };
}

const sorted = (xs) => [...xs].sort();

test('blast shapes come from the view’s pictures, centred, clipped at the edges', () => {
  assert.equal(shapeOffsets(SHAPES.plus).length, 9);
  assert.deepEqual(sorted(blastCells(SHAPES.square, 'E5')), sorted(['D4', 'E4', 'F4', 'D5', 'E5', 'F5', 'D6', 'E6', 'F6']));
  assert.deepEqual(sorted(blastCells(SHAPES.plus, 'A1')), sorted(['A1', 'B1', 'C1', 'A2', 'A3']));
  assert.deepEqual(sorted(blastCells(SHAPES.cross, 'I9')), sorted(['I9', 'H8', 'G7']));
  assert.deepEqual(sorted(blastCells(SHAPES.final, 'E1')), sorted(['E1', 'D1', 'F1', 'E2']));
  // A host's own shape: a line of three.
  assert.deepEqual(sorted(blastCells('###', 'B2')), ['A2', 'B2', 'C2']);
});

test('placement: the round’s domain, occupied cells, the neighbour rule and the 2×2 rule', () => {
  const v = view({ phase: 'place', round: 1, pieces: { P1: { square: ['B2', 'A3', 'C3'], plus: ['B4'] } } });
  const p1 = placementCells(v, 'P1');
  assert.deepEqual(p1.columns, [0, 1, 2, 3], 'round 1: the DMO places in A–D');
  assert.equal(p1.lifted, false);
  assert.ok(p1.crowded.has('B3'), 'B3 has four occupied neighbours');
  assert.ok(!p1.cells.has('B3'));
  assert.deepEqual(placementCells(v, 'P2').columns, [5, 6, 7, 8], 'the EC places in F–I');
  assert.deepEqual(placementCells({ ...v, round: 2 }, 'P1').columns, [5, 6, 7, 8], 'round 2: the opponent’s domain');
  const sel = { square: 'D8', plus: null, cross: null };
  assert.match(placementProblem(v, 'P1', sel, 'plus', 'F1'), /own starting domain, columns A–D/);
  assert.match(placementProblem(v, 'P1', sel, 'plus', 'B2'), /B2 is occupied/);
  assert.match(placementProblem(v, 'P1', sel, 'plus', 'B3'), /4 occupied neighbours/);
  assert.match(placementProblem(v, 'P1', sel, 'plus', 'C7'), /C7 and your square on D8 lie in one 2×2 block/);
  assert.equal(placementProblem(v, 'P1', sel, 'plus', 'D6'), null);
  // Moving the square itself is no clash with its own old cell.
  assert.equal(placementProblem(v, 'P1', sel, 'square', 'D7'), null);
  assert.equal(placementText({ square: 'B2', plus: 'C4', cross: 'A7' }), 'square B2, plus C4, cross A7');
});

test('the neighbour rule is lifted when no three cells meet both rules', () => {
  assert.equal(threeApart(['A1', 'C1', 'A3']), true);
  assert.equal(threeApart(['A1', 'C3', 'E1']), true);
  assert.equal(threeApart(['A1', 'B2', 'C3', 'D4']), false, 'a diagonal line: only every other cell is apart');
  assert.equal(threeApart(['A1', 'B1', 'B2', 'C1']), false);
  // Fill A–D so that only A1, B1, A2 stay empty with fewer than 3
  // occupied neighbours: they all touch, so the rule is lifted.
  const empty = new Set(['A1', 'B1', 'A2', 'D9']);
  const filled = [];
  for (const c of 'ABCD') for (let r = 1; r <= 9; r++) if (!empty.has(`${c}${r}`)) filled.push(`${c}${r}`);
  const v = view({ phase: 'place', round: 1, pieces: { P2: { square: filled } } });
  const p = placementCells(v, 'P1');
  assert.equal(p.lifted, true);
  assert.ok(p.cells.has('D9'), 'D9 (3 occupied neighbours) is allowed once lifted');
  assert.equal(p.crowded.size, 0);
  assert.equal(placementProblem(v, 'P1', { square: null, plus: null, cross: null }, 'square', 'D9'), null);
});

test('a seat’s sealed placement is read only when the view holds it', () => {
  const mine = view({ phase: 'place', round: 3, sealed: { P1: { placed: 'square B2, plus C4, cross A7' }, P2: 'waiting' } });
  assert.deepEqual(sealedOf(mine, 'P1'), { square: 'B2', plus: 'C4', cross: 'A7' });
  assert.equal(sealedOf(mine, 'P2'), 'waiting');
  assert.equal(sealedOf({ ...mine, sealed: { P1: 'submitted', P2: 'waiting' } }, 'P1'), 'submitted');
  assert.match(eventWords(mine), /^Red submitted square B2, plus C4, cross A7 for round 3/);
  const theirs = view({ phase: 'place', round: 3, sealed: { P1: 'submitted', P2: 'waiting' } });
  assert.equal(eventWords(theirs), 'Red submitted its round 3 placement (sealed until both are in)');
  const svg = boardSvg(theirs, {});
  assert.doesNotMatch(svg, /sealed|B2, .*square/);
  const missed = view({ phase: 'place', round: 4, sealed: { P1: 'waiting', P2: 'missed' } });
  assert.match(eventWords(missed), /Blue missed round 4: its square, plus and cross are lost/);
});

test('straight moves stop at pieces and pegs; a pair needs a second piece to answer', () => {
  const v = view({ pieces: { P1: { square: ['B2'], plus: ['D5'] }, P2: { cross: ['B5'] } }, pegs: { P1: [], P2: ['F5'] } });
  const b = boardOf(v);
  assert.deepEqual(straightMove(b, 'B2', 'B4'), { axis: 'vertical', len: 2, problem: null });
  assert.match(straightMove(b, 'B2', 'B6').problem, /blocked at B5/);
  assert.match(straightMove(b, 'B2', 'C3').problem, /neither vertical nor horizontal/);
  assert.match(straightMove(b, 'B2', 'B7').problem, /moves 5 cells/);
  assert.equal(pairExists(b, 'P1'), true);
  // D5 right: E5 only (F5 holds a peg); B2 answers 1 vertically.
  const targets = firstMoveTargets(b, 'P1', 'D5').map((t) => t.to);
  assert.ok(targets.includes('E5') && !targets.includes('F5'));
  const first = { from: 'D5', to: 'E5', len: 1, axis: 'horizontal' };
  assert.deepEqual(sorted(secondMoveTargets(b, 'P1', first, 'B2').map((t) => t.to)), ['B1', 'B3']);
  assert.deepEqual(secondMoveTargets(b, 'P1', first, 'E5'), [], 'the same piece cannot move twice');
  // The first move may clear the way for the second.
  const w = view({ pieces: { P1: { square: ['A1', 'A2'] } } });
  const bw = boardOf(w);
  const clear = { from: 'A1', to: 'B1', len: 1, axis: 'horizontal' };
  assert.deepEqual(secondMoveTargets(bw, 'P1', clear, 'A2').map((t) => t.to).sort(), ['A1', 'A3']);
});

test('the diagonal step only when no pair exists', () => {
  // One piece alone has no pair.
  const lone = boardOf(view({ pieces: { P1: { cross: ['E5'] } } }));
  assert.equal(pairExists(lone, 'P1'), false);
  assert.deepEqual(sorted(diagonalTargets(lone, 'E5')), ['D4', 'D6', 'F4', 'F6']);
  // Two pieces boxed in by pegs: no pair, a diagonal step is allowed.
  const pegs = ['A2', 'B1', 'B2', 'B3', 'C2', 'H2', 'I1', 'I3', 'G2'];
  const boxed = boardOf(view({ pieces: { P1: { square: ['A1'], plus: ['I2'] } }, pegs: { P1: [], P2: pegs } }));
  assert.equal(pairExists(boxed, 'P1'), false);
  assert.deepEqual(sorted(diagonalTargets(boxed, 'I2')), ['H1', 'H3']);
  assert.deepEqual(diagonalTargets(boxed, 'A1'), [], 'B2 holds a peg');
  const turn = { ...emptyTurn(), diagonal: { from: 'I2', to: 'H1' } };
  assert.equal(turnText(turn), 'diagonal I2-H1');
  assert.equal(stageOf(turn), 'done');
  assert.match(pegProblem(view(), boxed, 'P1', turn, 'E5'), /diagonal step ends the turn/);
});

test('pegs: empty, own row and column, moved and detonated blast shapes, next to a diagonal step', () => {
  const v = view({
    pieces: { P1: { square: ['B2'], plus: ['D5'], cross: ['E8'] }, P2: { cross: ['H8'] } },
    pegs: { P1: ['G3'], P2: [] },
    pegs_left: { P1: 8, P2: 9 },
    diagonal: 'H8',
  });
  const b = boardOf(v);
  const t = { ...emptyTurn(), moves: [{ from: 'D5', to: 'E5', len: 1, axis: 'horizontal' }, { from: 'B2', to: 'B3', len: 1, axis: 'vertical' }] };
  assert.match(pegProblem(v, b, 'P1', t, 'E5'), /E5 is occupied/);
  assert.equal(pegProblem(v, b, 'P1', t, 'D5'), 'D5 is in the blast shape of your plus moved from D5');
  assert.equal(pegProblem(v, b, 'P1', t, 'A1'), 'A1 is in the blast shape of your square moved from B2');
  assert.equal(pegProblem(v, b, 'P1', t, 'A4'), 'A4 is in the blast shape of your square moved to B3');
  assert.match(pegProblem(v, b, 'P1', t, 'A3'), /shares a row with your peg on G3/);
  assert.match(pegProblem(v, b, 'P1', t, 'G9'), /shares a column with your peg on G3/);
  assert.match(pegProblem(v, b, 'P1', t, 'I8'), /next to H8, which moved diagonally/);
  assert.equal(pegProblem(v, b, 'P1', t, 'A9'), null);
  assert.match(pegProblem({ ...v, pegs_left: { P1: 0, P2: 9 } }, b, 'P1', t, 'A9'), /all 9 of your pegs/);
  // Detonating the cross on E8 forbids pegs in its shape.
  assert.equal(pegProblem(v, b, 'P1', t, 'C6'), null);
  const boom = { ...t, detonate: 'E8' };
  assert.equal(pegProblem(v, b, 'P1', boom, 'C6'), 'C6 is in the blast shape of the cross you detonate on E8');
  assert.equal(detonateProblem(v, b, 'P1', boom, 'H8'), 'H8 holds no piece of yours');
  assert.equal(detonateProblem(v, b, 'P1', t, 'B3'), null, 'a piece that just moved may go off');
  assert.equal(detonateProblem(v, b, 'P1', { ...t, peg: 'A9' }, 'B3'), null, 'A9 is outside the square’s shape');
  assert.match(detonateProblem(v, b, 'P1', { ...t, peg: 'C4' }, 'B3'), /your peg on C4 would lie in this square’s blast shape/);
});

test('a detonation claims its shape but pegs and pieces; the turn’s notation and claims', () => {
  const v = view({ pieces: { P1: { plus: ['C3'] }, P2: { square: ['C5'] } }, pegs: { P1: [], P2: ['A3'] } });
  const b = boardOf(v);
  assert.deepEqual(sorted(blastClaims(v, b, 'C3', 'plus')), sorted(['C3', 'C1', 'C2', 'C4', 'B3', 'D3', 'E3']));
  const t = { ...emptyTurn(), peg: 'G7', detonate: 'C3' };
  assert.equal(turnText(t), 'peg G7; detonate C3');
  assert.equal(turnText(emptyTurn()), 'pass');
  assert.equal(
    turnText({ moves: [{ from: 'D4', to: 'D7' }, { from: 'F3', to: 'I3' }], diagonal: null, peg: 'G7', detonate: 'C3' }),
    'move D4-D7 F3-I3; peg G7; detonate C3',
  );
  assert.deepEqual(sorted(turnClaims(v, b, t)), sorted(['G7', 'C3', 'C1', 'C2', 'C4', 'B3', 'D3', 'E3']));
  assert.equal(stageOf(emptyTurn()), 'move');
  assert.equal(stageOf(emptyTurn(), { move: true }), 'peg');
  assert.equal(stageOf({ ...emptyTurn(), peg: 'A1' }), 'detonate');
  assert.deepEqual(parseTurn('move d4-d7 f3-i3; peg g7; detonate c3'), {
    steps: [{ from: 'D4', to: 'D7' }, { from: 'F3', to: 'I3' }],
    diagonal: false,
    peg: 'G7',
    detonate: 'C3',
  });
  assert.deepEqual(parseTurn('pass'), { steps: [], diagonal: false, peg: null, detonate: null });
});

test('events in words, and the cells the last event touched', () => {
  assert.equal(eventWords(view({ phase: 'first', last: { event: 'defer', by: 'P1' } })), 'Red deferred the starter choice to Blue');
  assert.equal(
    eventWords(view({ phase: 'place', last: { event: 'first', by: 'P2', first: 'P1', lapsed: false } })),
    'Blue chose Red to take the first turn',
  );
  const round = view({ phase: 'place', round: 2, last: { event: 'round', round: 1, placed: { P1: 'square B2, plus C4, cross A7', P2: null } } });
  assert.equal(eventWords(round), 'round 1: Red placed square B2, plus C4, cross A7; Blue’s time ran out: its pieces are lost');
  assert.deepEqual(lastMarks(round).placed, ['B2', 'C4', 'A7']);
  const turn = view({ turn: 3, last: { event: 'turn', seat: 'P1', turn: 3, action: 'move D4-D6 F3-H3; peg G7; detonate C3' } });
  assert.equal(eventWords(turn), 'Red moved D4 to D6 and F3 to H3, pegged G7 and detonated C3 (turn 2 of 25: move D4-D6 F3-H3; peg G7; detonate C3)');
  assert.deepEqual(lastMarks(turn), { from: ['D4', 'F3'], to: ['D6', 'H3'], peg: 'G7', detonate: 'C3', placed: [] });
  assert.equal(eventWords(view({ last: { event: 'turn', seat: 'P2', turn: 4, action: null } })), 'Blue’s time ran out: turn 2 of 25 skipped');
  assert.equal(eventWords(view({ last: { event: 'turn', seat: 'P2', turn: 2, action: 'pass' } })), 'Blue passed (turn 1 of 25: pass)');
  assert.equal(bombDomain.status(view()), 'Cells: Red 36, Blue 36.');
});

test('the final blast: each piece reaches its shape’s empty cells; a cell both reach keeps its owner', () => {
  const v = view({
    phase: 'over',
    pieces: { P1: { square: ['C3'] }, P2: { cross: ['E3'] } },
    pegs: { P1: ['C2'], P2: [] },
    cells: { P1: 40, P2: 41 },
  });
  const reach = finalReach(v);
  assert.deepEqual(sorted(reach.P1), ['B3', 'C3', 'C4', 'D3']);
  assert.deepEqual(sorted(reach.P2), ['D3', 'E2', 'E3', 'E4', 'F3']);
  assert.deepEqual([...reach.both], ['D3']);
  const svg = boardSvg(v, { final: true });
  assert.equal((svg.match(/class="bd-burst /g) ?? []).length, 2);
  assert.match(svg, /D3, [^"]*reached by both final blasts: kept its owner/);
  const end = endingHtml(v, { winner: 'P2' });
  assert.match(end, /Blue holds more cells: 41 to 40/);
  const tie = endingHtml({ ...v, cells: { P1: 40, P2: 40 }, deferred: true, chooser: 'P2' }, { winner: 'P1' });
  assert.match(tie, /Tied at 40 cells each: the tie goes to the seat that did not choose the starter \(Red deferred and Blue chose the starter\), so Red wins/);
});

test('the board draws every cell with its domain and pieces by kind, one focusable cell', () => {
  const v = view({ pieces: { P1: { square: ['A1'], plus: ['B1'], cross: ['C1'] }, P2: { square: ['F1'] } }, blast_pegs: { P1: [], P2: ['G1'] } });
  const svg = boardSvg(v, {});
  assert.equal((svg.match(/role="gridcell"/g) ?? []).length, 81);
  assert.equal((svg.match(/tabindex="0"/g) ?? []).length, 1);
  assert.match(svg, /aria-label="A1, Red’s domain, Red square"/);
  assert.match(svg, /aria-label="E1, nobody’s domain, empty"/);
  assert.match(svg, /aria-label="G1, Blue’s domain, Blue peg left by a blast"/);
  assert.match(svg, /class="bd-piece bd-cross p1"/);
  assert.match(svg, /fill="url\(#bd-stripes\)"/);
  assert.match(svg, /fill="url\(#bd-dots\)"/);
  // Blue's pieces carry a white dot; Red's do not.
  assert.match(svg, /class="bd-piece bd-square p2"><rect[^>]*\/><circle class="bd-seat-dot"/);
  assert.doesNotMatch(svg, /class="bd-piece bd-square p1"><rect[^>]*\/><circle/);
});

test('the module’s words for each decision', () => {
  assert.match(bombDomain.prompt('first', view({ phase: 'first' })), /DMO: choose who takes the first turn, or defer/);
  assert.match(bombDomain.prompt('deferred-first', view({ phase: 'first' })), /the DMO deferred/);
  assert.match(bombDomain.prompt('place', view({ phase: 'place', round: 2 })), /round 2 of 7: .*your opponent’s starting domain/);
  assert.match(bombDomain.prompt('turn', view({ turn: 5 })), /^Your turn 3 of 25/);
  assert.equal(bombDomain.doing('place'), 'place three pieces (sealed)');
  assert.equal(bombDomain.doing('nothing-known'), null);
});
