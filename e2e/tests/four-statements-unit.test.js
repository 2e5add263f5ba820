// Unit tests of the Four Statements board module's pure functions (no
// browser): cells, the three subset restrictions, the menus' sentences,
// word counts, the notation each panel writes, what the view tells a seat,
// and the end.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import fourStatements, {
  ALL_CELLS,
  affordable,
  bluffText,
  buyText,
  chances,
  askedDetective,
  claimsText,
  colourLetter,
  detectiveText,
  connected,
  endingHtml,
  gridHtml,
  guessText,
  historyHtml,
  itemUsed,
  knownLetters,
  opponentStatements,
  previousSubset,
  readingOf,
  restrictions,
  sentence,
  sortCells,
  statementsOf,
  subsetOk,
  wordCount,
} from '../../web/games/four-statements.js';

test('cells run A1 … D1, A2 … D4, and sort in that order', () => {
  assert.equal(ALL_CELLS.length, 16);
  assert.deepEqual(ALL_CELLS.slice(0, 5), ['A1', 'B1', 'C1', 'D1', 'A2']);
  assert.deepEqual(sortCells(['b2', 'A1', 'A2', 'A1']), ['A1', 'A2', 'B2']);
  assert.equal(colourLetter('red'), 'R');
  assert.equal(colourLetter({ colour: 'yellow', round: 0 }), 'Y');
  assert.equal(colourLetter('x'), null);
});

test('the three restrictions: connected, 4–8 tiles, fewer than ⌊n/2⌋ shared', () => {
  assert.ok(connected(['A1', 'B1', 'B2']));
  assert.ok(!connected(['A1', 'B2']), 'diagonal is not connected');
  const ok = (cells, prev, nolimit) => subsetOk(cells, prev, nolimit);
  assert.ok(ok(['A1', 'B1', 'A2', 'B2'], null));
  assert.ok(!ok(['A1', 'B1', 'C1'], null), 'three tiles');
  assert.ok(!ok(ALL_CELLS.slice(0, 9), null), 'nine tiles');
  // The rulebook's example: after A1 B1 C1 D1, A1 B1 A2 B2 shares 2 = ⌊4/2⌋.
  const prev = ['A1', 'B1', 'C1', 'D1'];
  assert.ok(!ok(['A1', 'B1', 'A2', 'B2'], prev));
  assert.ok(ok(['A1', 'A2', 'B2', 'A3'], prev), 'one shared is fewer than two');
  assert.ok(ok(['A1', 'B1', 'A2', 'B2'], prev, true), 'No Limit lifts the rules');
  assert.ok(ok(['A1', 'D4'], null, true), 'even a scattered pair under No Limit');
  const r = restrictions(['A1', 'B1', 'A2', 'B2'], prev);
  assert.deepEqual(r.map((x) => [x.key, x.ok]), [['connected', true], ['size', true], ['overlap', false]]);
  assert.match(r[2].text, /shares 2 .*fewer than 2/);
});

test('the previous subset is the seat’s in the latest earlier round', () => {
  const view = {
    round: 3,
    rounds: [
      { round: 1, sides: { P1: { subset: ['A1', 'B1', 'C1', 'D1'] }, P2: { subset: ['A4', 'B4', 'C4', 'D4'] } } },
      { round: 2, sides: { P1: { subset: ['A2', 'B2', 'C2', 'D2'] }, P2: { subset: ['A3', 'B3', 'C3', 'D3'] } } },
      { round: 3, sides: { P1: { subset: null }, P2: { subset: null } } },
    ],
  };
  assert.deepEqual(previousSubset(view, 'P1'), ['A2', 'B2', 'C2', 'D2']);
  assert.deepEqual(previousSubset(view, 'P2'), ['A3', 'B3', 'C3', 'D3']);
  assert.equal(previousSubset({ round: 1, rounds: [] }, 'P1'), null);
});

test('the menus build sentences of at most 15 words', () => {
  assert.equal(sentence({ kind: 'count', quant: 'at least', n: 2, c1: 'R' }), 'At least two tiles are red.');
  assert.equal(sentence({ kind: 'count', quant: 'exactly', n: 1, c1: 'B' }), 'Exactly one tile is blue.');
  assert.equal(sentence({ kind: 'count', quant: 'exactly', n: 0, c1: 'B' }), 'No tile is blue.');
  assert.equal(sentence({ kind: 'compare', cmp: 'more', c1: 'R', c2: 'B' }), 'More tiles are red than blue.');
  assert.equal(sentence({ kind: 'compare', cmp: 'same', c1: 'R', c2: 'B' }), 'As many tiles are red as blue.');
  assert.equal(sentence({ kind: 'colours', quant: 'exactly', n: 3 }), 'There are exactly three colours.');
  assert.equal(sentence({ kind: 'adjacent', c1: 'B', c2: 'G', adj: 'orth' }), 'A blue tile is orthogonally adjacent to a green tile.');
  assert.equal(sentence({ kind: 'adjacent', c1: 'R', c2: 'R', adj: 'any' }), 'Two red tiles are adjacent.');
  assert.equal(sentence({ kind: 'share', adj: 'any' }), 'Two adjacent tiles share a colour.');
  assert.equal(sentence({ kind: 'square', qf: 'some', quant: 'at least', n: 1, c1: 'R' }), 'Some 2x2 square has a red tile.');
  assert.equal(sentence({ kind: 'square', qf: 'every', quant: 'at least', n: 2, c1: 'R' }), 'Every 2x2 square has at least two red tiles.');
  assert.equal(sentence({ kind: 'group', quant: 'at least', n: 3, c1: 'R' }), 'The largest red group has at least three tiles.');
  assert.equal(sentence({ kind: 'group', quant: 'at least', n: 1, c1: 'R', conn: true }), 'The largest orthogonally connected red group has at least one tile.');
  assert.equal(sentence({ kind: 'connected', c1: 'R' }), 'All red tiles are connected.');
  assert.equal(sentence({ kind: 'lines', qf: 'every', line: 'row', quant: 'at least', n: 1, c1: 'R' }), 'Every row has a red tile.');
  assert.equal(sentence({ kind: 'count', quant: 'at most', n: 2, c1: 'Y', not: true }), 'It is not true that at most two tiles are yellow.');
  for (const kind of ['count', 'compare', 'colours', 'adjacent', 'share', 'square', 'group', 'connected', 'lines']) {
    const s = sentence({ kind, quant: 'at least', n: 2, c1: 'R', c2: 'B', adj: 'diag', cmp: 'fewer', qf: 'every', line: 'column', conn: true, not: false });
    assert.ok(wordCount(s) <= 15, `${s}: ${wordCount(s)} words`);
  }
  assert.equal(wordCount('Some 2x2 square has at least one red tile.'), 9);
  assert.equal(wordCount('  '), 0);
});

test('the notation of every panel', () => {
  const stmts = ['There are two red tiles.', 'More tiles are red than blue.', 'x; y', 'Two adjacent tiles share a colour.'];
  assert.equal(
    bluffText(['B2', 'A1', 'B1', 'A2'], stmts, { smoke: 1, nolimit: true }),
    'subset A1 B1 A2 B2; There are two red tiles.; More tiles are red than blue.; x, y; Two adjacent tiles share a colour.; smokescreen 2; nolimit',
  );
  assert.equal(bluffText(['A1'], ['a', 'b', 'c', 'd']), 'subset A1; a; b; c; d');
  assert.deepEqual(statementsOf('subset A1 B1; S one.; S two.; S three.; S four.; smokescreen 2'), ['S one.', 'S two.', 'S three.', 'S four.']);
  assert.deepEqual(statementsOf('claims T'), []);
  assert.equal(claimsText(['T', 'F', '-', 'T']), 'claims T F - T');
  assert.equal(claimsText(['T', 'F', null, 'T']), 'claims T F - T');
  assert.equal(detectiveText(2), 'detective 3');
  // The notation adds the reading in brackets when the words differ.
  assert.equal(readingOf('There are two red tiles. [At least two tiles are red.]'), 'At least two tiles are red.');
  assert.equal(readingOf('At least two tiles are red.'), 'At least two tiles are red.');
  assert.equal(buyText(['C4', 'B3']), 'buy B3 C4');
  assert.equal(guessText([...'RRBGYGBRBBRYGYRG']), 'guess RRBG YGBR BBRY GYRG');
  assert.equal(affordable(15), 1);
  assert.equal(affordable(16), 2);
  assert.equal(affordable(null), 0);
});

test('a seat sees its own known tiles; the layout when the view holds it', () => {
  const view = { known: { P1: { A1: { colour: 'red', round: 0 }, b1: { colour: 'B', round: 2 } }, P2: null } };
  assert.deepEqual(knownLetters(view, 'P1'), { A1: 'R', B1: 'B' });
  assert.deepEqual(knownLetters(view, 'P2'), {});
  assert.deepEqual(knownLetters({ known: { P1: 'RRBG......R.....', P2: null } }, 'P1'), { A1: 'R', B1: 'R', C1: 'B', D1: 'G', C3: 'R' });
  assert.equal(Object.values(knownLetters({ layout: 'RRBGYGBRBBRYGYRG' }, null)).join(''), 'RRBGYGBRBBRYGYRG');
  const html = gridHtml({ letters: { A1: 'R' } });
  assert.match(html, /data-cell="A1"[^>]*aria-label="A1: red"/);
  assert.match(html, /data-cell="B1"[^>]*aria-label="B1: unknown"/);
  assert.equal((html.match(/<button/g) ?? []).length, 16);
  assert.deepEqual(chances([[2, 2, 0, 0]], 0), [0.5, 0.5, 0, 0]);
  assert.equal(chances(null, 0), null);
});

test('items, the opponent’s statements and the rounds as a seat sees them', () => {
  const view = {
    round: 1,
    items: { P1: { smokescreen: 1 }, P2: {} },
    rounds: [
      {
        round: 1,
        sides: {
          P1: { subset: ['A1', 'B1', 'C1', 'D1'], smokescreen: 2, detective: 3, statements: [{ text: 'A.', said: 'a said', truth: true }, { text: 'B.', truth: false }, { text: 'C.', truth: true }, { text: 'D.', truth: null }] },
          P2: { subset: ['A4', 'B4', 'C4', 'D4'], statements: [{ text: 'W.' }, { text: null }, { text: 'Y.', truth: false }, { text: 'Z.' }], bought: 1 },
        },
      },
    ],
  };
  assert.equal(itemUsed(view, 'P1', 'smokescreen'), 1);
  assert.equal(itemUsed(view, 'P1', 'detective'), null);
  assert.deepEqual(opponentStatements(view, 'P1').map((s) => s.hidden), [false, true, false, false]);
  // Detective's answer, as soon as asked: the opponent's statement 3 is false.
  assert.equal(askedDetective(view, 'P1'), 2);
  assert.equal(askedDetective(view, 'P2'), null);
  assert.deepEqual(opponentStatements(view, 'P1').map((s) => s.truth), [null, null, false, null]);
  const h = historyHtml(view);
  assert.match(h, /A1 B1 C1 D1/);
  assert.match(h, /hidden by Smokescreen/);
  assert.match(h, /bought 1 tile/);
  assert.match(h, /class="fs-truth t">true/);
  assert.match(h, /A\. <span class="fs-said">\(said: “a said”\)/);
});

test('the end shows the whole grid and who guessed', () => {
  const html = endingHtml(
    { phase: 'over', layout: 'RRBGYGBRBBRYGYRG', rounds: [{ round: 2, sides: { P1: { guess: 'RRBGYGBRBBRYGYRG right' }, P2: { guess: 'RRBGYGBRBBRYGYRR wrong' } } }] },
    { winner: 'P1', decided_by: 'right guess' },
  );
  assert.match(html, /Orange wins/);
  assert.match(html, /guessed in round 2: <code>RRBG YGBR BBRY GYRG<\/code> — <strong>right<\/strong>/);
  assert.match(html, /Purple<\/span> guessed in round 2: <code>RRBG YGBR BBRY GYRR<\/code> — wrong/);
  assert.equal((html.match(/class="fs-cell fs-c-/g) ?? []).length, 16);
  assert.equal(fourStatements.ending({ phase: 'bluff' }, null), '');
  assert.match(fourStatements.prompt('claim', { round: 2 }), /round 2/);
  assert.equal(fourStatements.doing('nope'), null);
});
