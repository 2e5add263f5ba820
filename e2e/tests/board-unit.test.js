// Unit tests of what every board module shares (no browser): web/board.js's
// cell names and board state, and the registry of board modules checked
// against the games the server serves (GET /api/games, read from the
// catalogue), so a game missing from either is found.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

import { boardStates, grid } from '../../web/board.js';
import { boards } from '../../web/games/index.js';
import { getJson, startServer } from './helpers.js';

test('cell names round-trip on boards of any size', () => {
  const wall = grid(10, 9);
  assert.equal(wall.name(9, 8), 'J9');
  assert.deepEqual(wall.parse(' j 9 '), { col: 9, row: 8 });
  assert.equal(wall.parse('J10'), null);
  assert.equal(wall.parse('K1'), null);
  assert.equal(wall.parse(undefined), null);
  assert.equal(wall.names.length, 90);
  assert.deepEqual(wall.names.slice(9, 11), ['J1', 'A2']);
  assert.ok(wall.adjacent('A1', 'a2') && !wall.adjacent('J1', 'A2') && !wall.adjacent('A1', 'A1'));
  assert.deepEqual(wall.neighbours(0, 0), [[1, 0], [0, 1]]);
  // Keys move the focus within the board.
  assert.equal(wall.step('A1', 'ArrowLeft'), 'A1');
  assert.equal(wall.step('A1', 'ArrowDown'), 'A2');
  assert.equal(wall.step('C9', 'End'), 'J9');
  assert.equal(wall.step('C9', 'Home'), 'A9');
  assert.equal(wall.step('C9', 'x'), null);
  assert.equal(grid(4).names.at(-1), 'D4');
});

test('a board keeps its choice while the decision stays and starts afresh when it changes', () => {
  const listened = [];
  const states = boardStates({
    make: () => ({ focus: 'A1' }),
    fresh: (st) => {
      st.picked = [];
    },
    on: { click: () => {} },
    hover: { cells: '[data-cell]', show: () => {} },
  });
  // A stand-in for the board's element: what is listened to, and a hint line.
  const hintLine = { textContent: '' };
  const container = {
    addEventListener: (type) => listened.push(type),
    querySelector: (selector) => (selector === '.hint' ? hintLine : null),
  };
  assert.equal(states.reset(container), null, 'nothing to reset before the first render');
  let { st, changed } = states.update(container, { turn: 1 }, { acting: true }, 'turn 1');
  assert.ok(changed);
  st.picked.push('B2');
  st.focus = 'B2';
  ({ st, changed } = states.update(container, { turn: 1 }, { acting: true }, 'turn 1'));
  assert.ok(!changed);
  assert.deepEqual(st.picked, ['B2'], 'the same decision keeps the choice');
  ({ st, changed } = states.update(container, { turn: 1 }, { acting: false }, 'turn 1', false));
  assert.ok(changed, 'keep = false starts afresh');
  st.picked.push('C3');
  assert.equal(states.reset(container), st);
  assert.deepEqual(st.picked, []);
  assert.equal(st.focus, 'B2', 'lasting fields stay');
  assert.deepEqual(listened, ['click', 'pointermove', 'pointerleave'], 'listeners are attached once');
  states.hint(container, '.hint', 'Pick a cell.');
  assert.equal(hintLine.textContent, 'Pick a cell.');
  assert.equal(st.hint, 'Pick a cell.', 'the hint is kept for the next redraw');
});

test('every game served has a board module with the whole interface and a stylesheet', async () => {
  const server = await startServer();
  let games;
  try {
    games = await getJson(`${server.url}/api/games`);
  } finally {
    await server.stop();
  }
  const ids = games.map((g) => g.id).sort();
  assert.ok(ids.length > 0, 'the server serves games');
  assert.deepEqual(Object.keys(boards).sort(), ids, 'one board module per game, and none for another');
  for (const [id, board] of Object.entries(boards)) {
    assert.equal(board.id, id);
    assert.equal(board.name, games.find((g) => g.id === id).name, `${id}: the game's own name`);
    for (const key of ['help', 'example']) assert.equal(typeof board[key], 'string', `${id}.${key}`);
    for (const key of ['prompt', 'doing', 'render', 'reset', 'status', 'ending']) {
      assert.equal(typeof board[key], 'function', `${id}.${key}()`);
    }
    const css = fs.readFileSync(new URL(`../../web/games/${id}.css`, import.meta.url), 'utf8');
    assert.ok(css.length > 0, `${id}: web/games/${id}.css`);
    for (const seat of ['P1', 'P2']) {
      const s = board.seats[seat];
      assert.ok(s.label && s.mark && s.className, `${id}: seat ${seat} has a label, a mark and a class`);
    }
  }
});
