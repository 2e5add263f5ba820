// End to end: Battle of the Flower Domain in headless Chromium against a real
// `umpire serve`. A match against the greedy bot made in the lobby, played
// to the end by clicking only (the study, the draft, moves with the shape
// turned and flipped under the pointer, passes); a spectator whose frames
// and page hold exactly the public view; the end screen; the replay. Then
// a match played by keyboard and by the text box, on a phone-sized screen.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { getJson, getReplay, newPage, postJson, screenshotPath, startBrowser, startServer } from './helpers.js';
import { WHOLE_MATCH_MS, playBothSizes } from './whole-match.js';

const COLS = 'ABCDEFGHIJ';
const DESK = { width: 1200, height: 900 };
const PHONE = { width: 390, height: 844 };
const NAMES = { R: 'red', Y: 'yellow', G: 'green', B: 'blue' };
const SHAPES = { R: 'diamond', Y: 'hexagon', G: 'square', B: 'circle' };
/// A meadow in four blocks (red, yellow / green, blue): few moves, all known.
const QUARTERS = [...Array(5).fill('RRRRRYYYYY'), ...Array(5).fill('GGGGGBBBBB')].join('');

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const seqOf = (page) => page.evaluate(() => Number(document.body.dataset.seq ?? -1));
const over = (page) => page.evaluate(() => document.body.dataset.over === 'yes');

/// Waits until it is this page's turn again after `seq`, or the match is over.
async function waitTurnAfter(page, seq) {
  await page.waitForFunction(
    (prev) => {
      const b = document.body;
      return Number(b.dataset.seq) > prev && (b.classList.contains('my-turn') || b.dataset.over === 'yes');
    },
    seq,
    { timeout: 30_000 },
  );
}

const pickOne = (list) => list[Math.floor(Math.random() * list.length)];
const cells = (page, selector) => page.$$eval(selector, (els) => els.map((e) => e.dataset.cell));

/// Garden cells from the centre outwards: where a shape most likely fits.
const SPIRAL = Array.from({ length: 100 }, (_, i) => `${COLS[i % 10]}${Math.floor(i / 10) + 1}`).sort((a, b) => {
  const d = (n) => Math.abs(COLS.indexOf(n[0]) - 4.5) + Math.abs(Number(n.slice(1)) - 5.5);
  return d(a) - d(b);
});

/// Points at garden cells until the picked shape's ghost shows it fits;
/// turns the shape when it fits nowhere as it is. Returns the cell, or null.
async function findSpot(page) {
  for (let turn = 0; turn < 8; turn++) {
    for (const cell of SPIRAL) {
      await page.hover(`.fd-garden [data-cell="${cell}"]`);
      if (await page.locator('.fd-garden .fd-ghost.good').count()) return cell;
    }
    await page.click(`button[data-tool="${turn === 3 ? 'flip' : 'rotate'}"]`);
  }
  return null;
}

/// One move by clicks: flowers picked from those the board rings (`size`
/// of them, or as many as it lets us), then a garden cell where it fits.
async function clickMove(page, size) {
  for (let n = 0; n < size; n++) {
    const can = await cells(page, '.fd-meadow .fd-cell.pickable');
    if (!can.length) break;
    await page.click(`.fd-meadow [data-cell="${pickOne(can)}"]`);
    assert.equal(await page.locator('.fd-meadow .fd-cell.picked').count(), n + 1, 'a ringed flower is picked');
  }
  // A phone draws one board large: the garden once no flower may join,
  // else by its button.
  const show = page.locator('button[data-tool="show"][data-show="garden"]');
  if (await show.isVisible()) await show.click();
  const spot = await findSpot(page);
  assert.ok(spot, 'the picked flowers fit somewhere in the garden');
  await page.click(`.fd-garden [data-cell="${spot}"]`);
}

/// Passes with the board's button: one click arms it, the second passes.
async function clickPass(page) {
  await page.click('button[data-tool="pass"]');
  await page.locator('button[data-tool="pass"].danger').filter({ hasText: 'Really pass?' }).waitFor();
  await page.click('button[data-tool="pass"]');
}

/// The two boards as a page shows them: {meadow, garden}, ten rows each,
/// read back from every cell's label (its colour and shape, or empty).
function domBoards(page) {
  return page.evaluate(
    ([names, shapes]) => {
      const out = {};
      for (const which of ['meadow', 'garden']) {
        const rows = Array.from({ length: 10 }, () => Array(10).fill('?'));
        for (const el of document.querySelectorAll(`.fd-${which} [data-cell]`)) {
          const m = /^([A-J])(\d+)$/.exec(el.dataset.cell);
          const label = el.getAttribute('aria-label');
          let letter = label.includes(', empty') ? '.' : '?';
          for (const [l, name] of Object.entries(names)) {
            if (label.includes(`, ${name} ${shapes[l]}`) && el.querySelector(`.fd-flower.fd-${name}`)) letter = l;
          }
          rows[Number(m[2]) - 1]['ABCDEFGHIJ'.indexOf(m[1])] = letter;
        }
        out[which] = rows.map((r) => r.join(''));
      }
      return out;
    },
    [NAMES, SHAPES],
  );
}

/// The scoring regions of a final view, counted independently of the page:
/// down to the first step where the running totals differ (all when none does).
function expectedOutlines(view) {
  const colours = ['red', 'yellow', 'green', 'blue'];
  const depth = Math.max(1, ...colours.map((c) => view.regions[c].length));
  const total = { P1: 0, P2: 0 };
  for (let i = 0; i < depth; i++) {
    for (const c of colours) total[view.owners[c]] += view.regions[c][i]?.length ?? 0;
    if (total.P1 !== total.P2) return colours.reduce((n, c) => n + Math.min(i + 1, view.regions[c].length), 0);
  }
  return colours.reduce((n, c) => n + view.regions[c].length, 0);
}

test('Flower Domain against the greedy bot: lobby, study, draft, moves and passes by clicking, spectator, end, replay', { timeout: 300_000 }, async () => {
  const player = await newPage(browser, { viewport: DESK });
  await player.goto(`${server.url}/`);
  await player.locator('#game option[value="flower-domain"]').waitFor({ state: 'attached' });
  await player.selectOption('#game', 'flower-domain');
  await player.selectOption('#seat-P2', 'bot:greedy');
  await player.locator('select[name="config.first_move"]').waitFor();
  assert.equal(await player.inputValue('select[name="config.first_move"]'), 'amended');
  await player.click('#create-button');
  await player.locator('#play-link').waitFor();
  const links = Object.fromEntries(
    await player.$$eval('#links li[data-link]', (lis) => lis.map((li) => [li.dataset.link, li.querySelector('a.link-url')?.href ?? null])),
  );
  const id = new URL(links.spectator).pathname.split('/')[2];

  // The spectator watches from the start.
  const spectator = await newPage(browser, { viewport: DESK });
  await spectator.goto(links.spectator);
  await spectator.locator('#role').filter({ hasText: 'Spectator' }).waitFor();

  await player.click('#play-link');
  await player.locator('#role[data-you="P1"]').waitFor();
  await player.waitForFunction(() => document.querySelector('link[data-board="flower-domain"]')?.sheet?.cssRules.length > 0);

  // The study: both boards drawn, every flower in colour and shape.
  await player.locator('button[data-action="ready"]').waitFor();
  assert.equal(await player.textContent('#turn'), 'Your turn: study the meadow, then press Ready.');
  assert.equal(await player.locator('.fd-meadow [role="gridcell"]').count(), 100);
  assert.equal(await player.locator('.fd-garden [role="gridcell"]').count(), 100);
  assert.deepEqual(await player.$$eval('.fd-meadow .fd-coord', (els) => els.map((e) => e.textContent).slice(0, 4)), ['A', '1', 'B', '2']);
  for (const [letter, name] of Object.entries(NAMES)) {
    assert.equal(await player.locator(`.fd-meadow .fd-flower.fd-${name}`).count(), 25, `25 ${name} flowers`);
    const tag = await player.$eval(`.fd-meadow .fd-flower.fd-${name}`, (el) => el.tagName);
    assert.equal(tag, { R: 'polygon', Y: 'polygon', G: 'rect', B: 'circle' }[letter], `${name} has its own shape`);
  }
  await player.click('button[data-action="ready"]');

  // The advantage seat names the first drafter; P1 drafts first, takes red.
  await player.locator('button[data-action="first P1"]').waitFor();
  assert.equal(await player.textContent('#turn'), 'Your turn: choose who drafts first.');
  await player.click('button[data-action="first P1"]');
  await player.locator('button[data-action="red"]').waitFor();
  assert.equal(await player.textContent('#turn'), 'Your turn: pick a colour.');
  await player.click('button[data-action="red"]');

  // Red moves first: the amended first move, four flowers over the centre.
  await player.locator('body.my-turn .fd-tools').waitFor();
  assert.match(await player.textContent('#turn'), /first move: 4 connected flowers/);
  assert.equal(await player.locator('.fd-garden .fd-centre').count(), 1, 'the centre cells are marked');
  // P1 took red and got the colour left (green); greedy took blue and yellow.
  assert.match(await player.textContent('.fd-seat[data-seat="P1"]'), /Red & green\s*red\s*0\s*\+\s*green\s*0\s*=\s*0$/);
  assert.match(await player.textContent('.fd-seat[data-seat="P2"]'), /Yellow & blue\s*yellow\s*0\s*\+\s*blue\s*0\s*=\s*0$/);
  assert.match(await player.textContent('.fd-passes'), /0 of 4/);
  // A flower the board does not ring cannot be picked, and says why.
  const dim = await cells(player, '.fd-meadow .fd-cell.dim');
  if (dim.length) {
    await player.click(`.fd-meadow [data-cell="${dim[0]}"]`);
    assert.equal(await player.locator('.fd-meadow .fd-cell.picked').count(), 0);
    assert.notEqual((await player.textContent('.fd-hint')).trim(), '');
  }
  for (let n = 0; n < 4; n++) {
    await player.click(`.fd-meadow [data-cell="${pickOne(await cells(player, '.fd-meadow .fd-cell.pickable'))}"]`);
  }
  assert.equal(await player.locator('.fd-meadow .fd-cell.picked').count(), 4);
  assert.equal(await player.locator('.fd-meadow .fd-cell.pickable').count(), 0, 'four is the most');
  // Off the centre the ghost says no; turning and flipping move its flowers.
  await player.hover('.fd-garden [data-cell="A10"]');
  assert.equal(await player.locator('.fd-garden .fd-ghost.bad').count(), 1);
  assert.match(await player.textContent('.fd-hint'), /^Not there: /);
  await player.hover('.fd-garden [data-cell="E5"]');
  assert.equal(await player.locator('.fd-garden .fd-ghost.good').count(), 1);
  const ghost = () => player.$$eval('.fd-garden .fd-ghost-flower', (els) => els.map((e) => `${e.getAttribute('class')}@${e.getAttribute('points') ?? e.getAttribute('x') ?? e.getAttribute('cx')}`).sort().join(' '));
  const straight = await ghost();
  await player.click('button[data-tool="rotate"]');
  await player.hover('.fd-garden [data-cell="E5"]');
  const turned = await ghost();
  assert.notEqual(turned, straight, 'a quarter turn moves the flowers');
  await player.click('button[data-tool="flip"]');
  await player.hover('.fd-garden [data-cell="F6"]');
  assert.notEqual(await ghost(), turned);
  assert.equal(await player.locator('.fd-garden .fd-ghost.good').count(), 1);
  await player.screenshot({ path: screenshotPath('flower-domain.png') });
  let seq = await seqOf(player);
  await player.click('.fd-garden [data-cell="F6"]');
  await waitTurnAfter(player, seq);

  // Two more moves by clicking, then passes until the game ends (four in a row).
  let moves = 0;
  let passes = 0;
  while (!(await over(player))) {
    seq = await seqOf(player);
    if (moves < 2 && (await player.locator('.fd-meadow .fd-cell.pickable').count())) {
      await clickMove(player, 2 + moves);
      moves += 1;
    } else {
      await clickPass(player);
      passes += 1;
    }
    await waitTurnAfter(player, seq);
    if ((moves + passes) % 4 === 1 && !(await over(player))) {
      // The spectator's page shows exactly the boards of the view it was sent.
      const now = await seqOf(player);
      await spectator.waitForFunction((s) => Number(document.body.dataset.seq) === s, now);
      const frame = spectator.frames.filter((f) => f.type === 'state' && f.seq === now).at(-1);
      assert.deepEqual(await domBoards(spectator), { meadow: frame.view.meadow, garden: frame.view.garden }, `spectator DOM at ${now}`);
    }
  }
  assert.ok(passes >= 2, `the game ended by passes (${passes})`);

  // The end: the result, the deciding step, the scoring regions outlined.
  await player.locator('#end:not([hidden])').waitFor();
  const record = await getJson(`${server.url}/api/matches/${id}/record`);
  const replay = await getReplay(`${server.url}/api/matches/${id}/replay`);
  const final = replay.steps.at(-1).view;
  assert.equal(record.game, 'flower-domain');
  assert.equal(final.phase, 'over');
  assert.equal(final.passes, 4);
  assert.match(await player.textContent('#end-decided'), new RegExp(record.outcome.decided_by));
  assert.equal((await player.textContent('#end-reason')).trim(), record.outcome.reason.trim());
  assert.equal(await player.locator('.fd-garden .fd-region-outline').count(), expectedOutlines(final), 'the scoring regions are outlined');
  if (record.outcome.decided_by === 'blue') assert.equal(await player.locator('.fd-blue-rule').count(), 1);
  else assert.match(await player.textContent('.fd-score-table tr.deciding'), new RegExp(`${record.outcome.decided_by}.*decides`));
  assert.match(await player.textContent('#last'), /passed; 4 passes in a row/);
  assert.deepEqual(await domBoards(player), { meadow: final.meadow, garden: final.garden });
  await player.screenshot({ path: screenshotPath('flower-domain-end.png'), fullPage: true });
  assert.deepEqual(player.errors, []);

  // The spectator was sent exactly the public view: nothing is hidden in
  // this game, so every frame's view is the umpire's view at that step, and
  // nothing else (no legal list, no other seat's data) came with it.
  await spectator.locator('#end:not([hidden])').waitFor();
  const allowedTypes = new Set(['hello', 'state', 'pong', 'log', 'chat']);
  const phases = new Set();
  let checked = 0;
  for (const frame of spectator.frames) {
    assert.ok(allowedTypes.has(frame.type), `spectator frame type ${frame.type}`);
    if (frame.type === 'hello') assert.equal(frame.you, 'spectator');
    if (frame.type !== 'state') continue;
    const allowed = new Set(['type', 'seq', 'view', 'decision', 'clocks', 'outcome', 'seats']);
    for (const key of Object.keys(frame)) assert.ok(allowed.has(key), `spectator state field ${key}`);
    assert.deepEqual(frame.view, replay.steps[frame.seq].view, `spectator view at seq ${frame.seq}`);
    for (const seat of ['P1', 'P2']) {
      const mine = frame.decision?.[seat];
      if (mine) assert.deepEqual(Object.keys(mine).filter((k) => !['kind', 'step', 'simultaneous'].includes(k)), [], 'only the public decision');
    }
    phases.add(frame.view.phase);
    checked += 1;
  }
  assert.ok(checked >= 10, `spectator frames checked (${checked})`);
  assert.deepEqual([...phases].sort(), ['draft', 'first', 'over', 'play', 'study']);
  assert.deepEqual(await domBoards(spectator), { meadow: final.meadow, garden: final.garden });
  assert.equal(await spectator.locator('.fd-tools, button[data-action]').count(), 0, 'a spectator gets no controls');
  assert.deepEqual(spectator.errors, []);

  // The replay: from the full meadow to the outlined end.
  const rp = await newPage(browser, { viewport: DESK });
  await rp.goto(`${server.url}/replay/${id}`);
  await rp.locator('#end:not([hidden])').waitFor();
  assert.equal(await rp.locator('.fd-garden .fd-region-outline').count(), expectedOutlines(final));
  await rp.click('#first');
  assert.match(await rp.textContent('#step-text'), /^Start/);
  assert.equal(await rp.locator('.fd-meadow .fd-flower').count(), 100);
  assert.equal(await rp.locator('.fd-garden .fd-flower').count(), 0);
  const firstMove = replay.steps.findIndex((s) => / to /.test(s.entry?.action ?? ''));
  // The counter counts turns (a move or a pass), as the game does.
  const turnsTo = (n) => replay.steps.slice(1, n + 1).filter((s, i) => replay.steps[i].view.phase === 'play').length;
  for (let i = 0; i < firstMove; i++) await rp.keyboard.press('ArrowRight');
  assert.match(await rp.textContent('#step-text'), new RegExp(`^Turn ${turnsTo(firstMove)} of ${turnsTo(replay.steps.length - 1)}: Red & \\w+: Move \\w+ [A-J]\\d+ to`));
  assert.equal(await rp.locator('.fd-garden .fd-flower').count(), 4);
  assert.equal(await rp.locator('.fd-garden .fd-cell.last').count(), 4, 'the last move is marked');
  assert.match(await rp.textContent('#last'), /^Last: Red & \w+ moved 4 flowers: /);
  assert.deepEqual(rp.errors, []);
});

test('Flower Domain by keyboard and text box: picks, turns, jumps to the garden, refusals, pass, phone', { timeout: 60_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'flower-domain',
    config: { meadow: QUARTERS },
    timed: true,
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
  });
  const page = await newPage(browser, { viewport: DESK });
  await page.goto(`${server.url}${made.links.P1}`);
  const key = async (selector, k = 'Enter') => {
    await page.locator(selector).waitFor();
    await page.focus(selector);
    await page.keyboard.press(k);
  };
  await key('button[data-action="ready"]');
  await key('button[data-action="first P1"]');
  await key('button[data-action="red"]');
  await page.locator('body.my-turn .fd-tools').waitFor();
  // Only the centre square can open this meadow: four colours meet there.
  assert.deepEqual((await cells(page, '.fd-meadow .fd-cell.pickable')).sort(), ['E5', 'E6', 'F5', 'F6']);

  // Pick E5, F5, F6, E6 with the arrow keys and Enter; Escape drops them.
  await page.focus('.fd-meadow [data-cell="E5"]');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('.fd-meadow .fd-cell.picked').count(), 0);
  await page.focus('.fd-meadow [data-cell="E5"]');
  for (const k of ['Enter', 'ArrowRight', 'Enter', 'ArrowDown', 'Enter', 'ArrowLeft', 'Enter']) await page.keyboard.press(k);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.cell), 'E6', 'the focus stays on the board');
  assert.deepEqual(await cells(page, '.fd-meadow .fd-cell.picked'), ['E5', 'F5', 'E6', 'F6']);
  assert.match(await page.getAttribute('.fd-meadow [data-cell="F6"]', 'aria-label'), /^F6, blue circle, picked 3$/);
  // R turns a quarter clockwise, G jumps to the garden (E5), arrows move the ghost.
  await page.keyboard.press('r');
  await page.keyboard.press('g');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.board), 'garden');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.cell), 'F5');
  assert.equal(await page.locator('.fd-garden .fd-ghost.good').count(), 1);
  let seq = await seqOf(page);
  await page.keyboard.press('Enter');
  await waitTurnAfter(page, seq);
  // Red E5 → F5; yellow F5 (one right, turned: one down) → F6; blue F6 → E6;
  // green E6 → E5.
  const { garden } = (await getJson(`${server.url}/api/matches/${made.id}`)).view;
  assert.deepEqual([garden[4].slice(4, 6), garden[5].slice(4, 6)], ['GR', 'BY']);

  // The text box: a refusal names its rule; then a move in lower case.
  await page.fill('#move-text', 'A1-B1 to A1-B1');
  await page.press('#move-text', 'Enter');
  await page.locator('#error:not([hidden])').waitFor();
  assert.match(await page.textContent('#error'), /both red.*\(same-colour\)$/);
  const now = (await getJson(`${server.url}/api/matches/${made.id}`)).view;
  const row = now.garden.findIndex((r) => r.startsWith('..'));
  const pair = now.meadow.findIndex((r) => r.slice(4, 6) === 'RY');
  seq = await seqOf(page);
  await page.fill('#move-text', `e${pair + 1}-f${pair + 1} to a${row + 1}-b${row + 1}`);
  await page.press('#move-text', 'Enter');
  await waitTurnAfter(page, seq);
  assert.equal(await page.isHidden('#error'), true);

  // Pass by keyboard: the pass button asks once more.
  seq = await seqOf(page);
  await key('button[data-tool="pass"]');
  await page.locator('button[data-tool="pass"].danger').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.tool), 'pass', 'the focus stays on the button');
  await page.keyboard.press('Enter');
  await waitTurnAfter(page, seq);
  assert.match(await page.textContent('#last'), /^Last: [A-Z]\w+ & \w+ (moved|passed)/);

  // A phone with a touch screen (the same seat on a second device): the
  // boards stack, both on the screen, the tools below them; a tap on the
  // garden shows where the flowers would go, a second tap places them.
  const phone = await newPage(browser, { viewport: PHONE, hasTouch: true, isMobile: true });
  await phone.goto(`${server.url}${made.links.P1}`);
  await phone.locator('body.my-turn .fd-tools').waitFor();
  const top = (selector) => phone.$eval(selector, (el) => el.getBoundingClientRect().top);
  const boxes = [await top('.fd-box-meadow'), await top('.fd-box-garden'), await top('.fd-tools')];
  assert.ok(boxes[0] < boxes[1] && boxes[1] < boxes[2], `meadow, garden, tools: ${boxes}`);
  const bar = await phone.$eval('#action-bar', (el) => el.getBoundingClientRect().top);
  const gardenBox = await phone.$eval(".fd-garden", (el) => el.getBoundingClientRect());
  assert.ok(gardenBox.bottom <= bar + 1, `both boards above the action bar (garden ends at ${gardenBox.bottom}, the bar starts at ${bar})`);
  assert.ok(gardenBox.width > 300, `the garden takes the phone width (${gardenBox.width})`);
  for (let n = 0; n < 2; n++) {
    await phone.tap(`.fd-meadow [data-cell="${(await cells(phone, '.fd-meadow .fd-cell.pickable'))[0]}"]`);
  }
  assert.equal(await phone.locator('.fd-meadow .fd-cell.picked').count(), 2);
  // The first tap shows the ghost; try empty cells until it fits (the
  // random bot's moves and the picked pair's direction vary).
  const fresh = (await getJson(`${server.url}/api/matches/${made.id}`)).view;
  const empty = SPIRAL.filter((c) => fresh.garden[Number(c.slice(1)) - 1][COLS.indexOf(c[0])] === '.');
  let spot = null;
  for (const c of empty) {
    await phone.tap(`.fd-garden [data-cell="${c}"]`);
    if (await phone.locator('.fd-garden .fd-ghost.good').count()) {
      spot = c;
      break;
    }
  }
  assert.ok(spot, 'some empty garden cell takes the picked pair');
  assert.match(await phone.textContent('.fd-hint'), /Tap again to place here/);
  await phone.screenshot({ path: screenshotPath('flower-domain-phone.png'), fullPage: true });
  seq = await seqOf(phone);
  await phone.tap(`.fd-garden [data-cell="${spot}"]`);
  await waitTurnAfter(phone, seq);
  assert.match(await phone.textContent('#last'), /^Last: [A-Z]\w+ & \w+ (moved|passed)/);
  assert.deepEqual(phone.errors, []);
  assert.deepEqual(page.errors, []);
});

/// The clicks of one action: ready, the first drafter, a colour, then the
/// first move (four flowers over the centre), two more moves, and passes.
async function stageAction(page, moves, where) {
  for (const selector of ['button[data-action="ready"]', 'button[data-action="first P1"]', '.fd-draft-buttons button:not([disabled])']) {
    const button = page.locator(selector);
    if (await button.count()) return button.first().click();
  }
  const size = (await page.textContent('#turn')).includes('first move') ? 4 : 2;
  if (moves[where] < 3 && (await page.locator('.fd-meadow .fd-cell.pickable').count())) {
    moves[where] += 1;
    return clickMove(page, size);
  }
  return clickPass(page);
}

/// A staged move shows its flowers on their garden cells.
async function moveDrawn(page, action) {
  const m = /^(\S+) to (\S+)$/.exec(action);
  if (!m) return;
  for (const to of m[2].split('-')) {
    assert.equal(await page.locator(`.fd-garden [data-staged="${to}"] .fd-flower`).count(), 1, `${to} of ${action} drawn`);
  }
}

test('a whole match by clicking on a desk and a phone: the action bar stays in view, the staged move is drawn', { timeout: WHOLE_MATCH_MS }, () => {
  const moves = { desk: 0, phone: 0 };
  return playBothSizes(browser, server, {
    game: 'flower-domain',
    bot: 'greedy',
    stage: (page, n, where) => stageAction(page, moves, where),
    drawn: moveDrawn,
    shotAt: 3,
    check: async (page, n, where) => assert.ok(moves[where] >= 1 && n >= 5, `${where}: ${n} actions, ${moves[where]} moves`),
  });
});
