// End to end: the lobby, a whole Masked Army match against a bot played by
// clicking, a spectator who must never see a hidden colour, a reload in the
// middle, the end screen, the record and the replay, in headless Chromium
// against a real `umpire serve`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { freePort, getJson, getReplay, newPage, postJson, screenshotPath, startBrowser, startServer } from './helpers.js';
import { WHOLE_MATCH_MS, playBothSizes } from './whole-match.js';

const COLS = 'ABCDEFGHI';
const DESK = { width: 1200, height: 900 };
const PHONE = { width: 390, height: 844 };

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

/// Waits until it is this page's turn again after `seq`, or the match is over.
async function waitTurnAfter(page, seq) {
  await page.waitForFunction(
    (prev) => {
      const b = document.body;
      return Number(b.dataset.seq) > prev && (b.classList.contains('my-turn') || b.dataset.over === 'yes');
    },
    seq,
    { timeout: 20_000 },
  );
}

const over = (page) => page.evaluate(() => document.body.dataset.over === 'yes');
const pickOne = (list) => list[Math.floor(Math.random() * list.length)];

/// One placement by two clicks: a cell for our colour, then a neighbour.
async function clickMove(page) {
  const firsts = await page.$$eval('#board .cell.playable', (els) => els.map((e) => e.dataset.cell));
  assert.ok(firsts.length, 'our turn offers cells to click');
  const first = pickOne(firsts);
  await page.click(`#board [data-cell="${first}"]`);
  const seconds = await page.$$eval('#board .cell.target', (els) => els.map((e) => e.dataset.cell));
  assert.ok(seconds.length, `clicking ${first} offers neighbours`);
  await page.click(`#board [data-cell="${pickOne(seconds)}"]`);
}

/// The board as the DOM shows it: cell → {cls, label}.
function domCells(page) {
  return page.$$eval('#board [data-cell]', (els) =>
    els.map((e) => ({
      cell: e.dataset.cell,
      hidden: !!e.querySelector('.hidden-piece'),
      colour: e.querySelector('.colour')?.getAttribute('class') ?? null,
      empty: !!e.querySelector('.empty'),
      label: e.getAttribute('aria-label'),
    })),
  );
}

function adjacentEmptyPair(cells) {
  const empty = new Set(cells.filter((c) => c.empty && !c.hidden && !c.colour).map((c) => c.cell));
  for (const name of empty) {
    const col = COLS.indexOf(name[0]);
    const row = Number(name.slice(1));
    for (const [dc, dr] of [[1, 0], [0, 1], [-1, 0], [0, -1]]) {
      const other = `${COLS[col + dc] ?? 'Z'}${row + dr}`;
      if (empty.has(other)) return [name, other];
    }
  }
  return null;
}

const at = (board, name) => board[Number(name.slice(1)) - 1][COLS.indexOf(name[0])];

/// Checks a public view against the umpire's full board at the same moment:
/// every occupied cell shows `#` except the last piece's two cells.
function assertPublicView(view, umpireBoard, where) {
  const allowed = new Set(['phase', 'advantage', 'to_move', 'board', 'last', 'pieces', 'armies', 'colours']);
  for (const key of Object.keys(view)) assert.ok(allowed.has(key), `${where}: unexpected view field ${key}`);
  assert.equal(view.armies ?? null, null, `${where}: armies before the end`);
  const last = view.last ? [view.last.mine, view.last.theirs] : [];
  for (let row = 0; row < 9; row++) {
    for (let col = 0; col < 9; col++) {
      const name = `${COLS[col]}${row + 1}`;
      const truth = umpireBoard[row][col];
      const shown = view.board[row][col];
      if (truth === '.') assert.equal(shown, '.', `${where}: ${name} empty`);
      else if (last.includes(name)) assert.equal(shown, truth, `${where}: last piece ${name} in colour`);
      else assert.equal(shown, '#', `${where}: ${name} must be hidden, shows ${shown}`);
    }
  }
}

test('Masked Army against a bot: lobby, clicks, keyboard, notation, spectator, reload, end, record, replay', { timeout: 300_000 }, async () => {
  const player = await newPage(browser, { viewport: DESK });
  await player.goto(`${server.url}/`);
  await player.locator('#game option[value="masked-army"]').waitFor({ state: 'attached' });
  await player.selectOption('#game', 'masked-army');
  const botValues = await player.$$eval('#seat-P2 option', (os) => os.map((o) => o.value).filter((v) => v.startsWith('bot:')));
  assert.ok(botValues.length, 'the lobby offers bots');
  await player.selectOption('#seat-P2', botValues.includes('bot:greedy') ? 'bot:greedy' : botValues[0]);
  await player.selectOption('select[name="config.advantage"]', 'P1');
  // Hosted (the creator does not play): the umpire's link is offered.
  await player.selectOption('#creator', 'host');
  await player.click('#create-button');
  await player.locator('#watch-link').waitFor();
  const links = Object.fromEntries(
    await player.$$eval('#links li[data-link]', (lis) =>
      lis.map((li) => [li.dataset.link, li.querySelector('a.link-url')?.href ?? null]),
    ),
  );
  assert.ok(links.P1 && links.spectator && links.umpire, `links: ${JSON.stringify(links)}`);
  assert.equal(links.P2, null, 'a bot seat gets no link');
  const id = new URL(links.spectator).pathname.split('/')[2];

  // A wrong key is refused, not turned into a spectator.
  const intruder = await newPage(browser, { viewport: DESK });
  await intruder.goto(`${server.url}/m/${id}?t=not-a-token`);
  await intruder.locator('#conn[data-state="closed"]').waitFor();
  assert.equal(await intruder.textContent('h1'), 'This link’s key was refused');
  assert.equal(await intruder.locator('.player').count(), 0, 'no empty seat cards');
  assert.equal(await intruder.getAttribute('.gone a.primary', 'href'), '/');
  // An unknown match: one clear page with the way back to the lobby.
  await intruder.goto(`${server.url}/m/no-such-id`);
  await intruder.locator('h1', { hasText: 'No such match' }).waitFor();
  assert.equal(await intruder.locator('.player').count(), 0, 'no empty seat cards');
  assert.equal(await intruder.getAttribute('.gone a.primary', 'href'), '/');

  await player.goto(links.P1);
  await player.locator('#role[data-you="P1"]').waitFor();
  // P1 has the advantage: two buttons choose who places first, and the
  // prompt is the board module's.
  await player.locator('.ma-first button[data-action="first P1"]').waitFor();
  assert.equal(await player.textContent('#turn'), 'Your turn: choose who places first.');
  // The board's stylesheet (web/games/masked-army.css) is loaded once and applies.
  await player.waitForFunction(() => document.querySelector('link[data-board="masked-army"]')?.sheet?.cssRules.length > 0);
  assert.equal(await player.locator('link[rel="stylesheet"]').count(), 2);
  assert.equal(await player.$eval('.ma-first', (el) => getComputedStyle(el).display), 'flex');
  await player.locator('.ma-first button[data-action="first P1"]').click();
  await player.locator('body.my-turn #board .cell.playable').first().waitFor();

  let spectator = null;
  const domSnapshots = [];
  const httpViews = [];
  let moves = 0;
  let reloaded = false;

  while (!(await over(player))) {
    const seq = await seqOf(player);
    moves += 1;
    if (moves === 2) {
      // An illegal attempt in the text box gets the engine's reason.
      const cells = await domCells(player);
      const taken = cells.find((c) => c.hidden || c.colour);
      const free = cells.find((c) => c.empty && !c.hidden && !c.colour);
      await player.fill('#move-text', `${taken.cell} ${free.cell}`);
      await player.press('#move-text', 'Enter');
      await player.locator('#error:not([hidden])').waitFor();
      const reason = await player.textContent('#error');
      assert.match(reason, /\S.*\([\w-]+\)$/, `an error names its rule: ${reason}`);
      // Then a legal move in lower case with a dash, as the rulebook allows.
      const pair = adjacentEmptyPair(await domCells(player));
      await player.fill('#move-text', `${pair[0].toLowerCase()}-${pair[1].toLowerCase()}`);
      await player.press('#move-text', 'Enter');
      await player.waitForFunction(() => document.querySelector('#move-text').value === '');
      assert.equal(await player.isHidden('#error'), true, 'the error goes once a move is accepted');
    } else if (moves === 3) {
      // By keyboard only: focus a cell, Enter, an arrow to a neighbour, Enter.
      const cells = await domCells(player);
      const pair = adjacentEmptyPair(cells);
      await player.focus(`#board [data-cell="${pair[0]}"]`);
      await player.keyboard.press('Enter');
      await player.locator(`#board [data-cell="${pair[0]}"].selected`).waitFor();
      const dc = COLS.indexOf(pair[1][0]) - COLS.indexOf(pair[0][0]);
      const dr = Number(pair[1].slice(1)) - Number(pair[0].slice(1));
      const key = dc === 1 ? 'ArrowRight' : dc === -1 ? 'ArrowLeft' : dr === 1 ? 'ArrowDown' : 'ArrowUp';
      await player.keyboard.press(key);
      const focused = await player.evaluate(() => document.activeElement?.dataset?.cell);
      assert.equal(focused, pair[1], 'arrow keys move the focus');
      await player.keyboard.press('Enter');
    } else if (moves === 5) {
      // Our clock runs on the page between server messages.
      const shown = await player.textContent('#clock-P1-turn');
      await player.waitForFunction((t) => document.querySelector('#clock-P1-turn').textContent !== t, shown);
      assert.equal(await player.locator('#clock-P1.running').count(), 1);
      assert.equal(await player.locator('#clock-P2.running').count(), 0);
      await clickMove(player);
    } else if (moves === 6) {
      // The live match, with a cell picked for our colour.
      const firsts = await player.$$eval('#board .cell.playable', (els) => els.map((e) => e.dataset.cell));
      await player.click(`#board [data-cell="${firsts[Math.floor(firsts.length / 2)]}"]`);
      await player.screenshot({ path: screenshotPath('match.png') });
      const seconds = await player.$$eval('#board .cell.target', (els) => els.map((e) => e.dataset.cell));
      await player.click(`#board [data-cell="${seconds[0]}"]`);
    } else if (moves === 9 && !reloaded) {
      // Reload in the middle: the page reconnects and the game goes on.
      reloaded = true;
      moves -= 1;
      await player.reload();
      await player.locator('#conn[data-state="open"]').waitFor();
      await player.waitForFunction((s) => Number(document.body.dataset.seq) === s && document.body.classList.contains('my-turn'), seq);
      continue;
    } else if (moves === 12) {
      await player.setViewportSize(PHONE);
      await player.screenshot({ path: screenshotPath('match-phone.png'), fullPage: true });
      await player.setViewportSize(DESK);
      await clickMove(player);
    } else {
      await clickMove(player);
    }
    await waitTurnAfter(player, seq + 0);

    if (moves === 4) {
      spectator = await newPage(browser, { viewport: DESK });
      await spectator.goto(links.spectator);
      await spectator.locator('#role').filter({ hasText: 'Spectator' }).waitFor();
      // The umpire's link shows every colour.
      const umpire = await newPage(browser, { viewport: DESK });
      await umpire.goto(links.umpire);
      await umpire.locator('#role').filter({ hasText: 'Umpire' }).waitFor();
      await umpire.waitForFunction((s) => Number(document.body.dataset.seq) === s, await seqOf(player));
      const pieces = await umpire.evaluate(() => document.querySelectorAll('#board .colour').length);
      assert.ok(pieces >= 8, `the umpire sees all colours (${pieces})`);
      assert.equal(await umpire.locator('#board .hidden-piece').count(), 0);
      assert.equal(await umpire.isHidden('#move'), true, 'the umpire cannot act');
      await umpire.context().close();
    }
    if (spectator && !(await over(player)) && moves % 3 === 1) {
      const now = await seqOf(player);
      await spectator.waitForFunction((s) => Number(document.body.dataset.seq) === s, now);
      domSnapshots.push({ seq: now, cells: await domCells(spectator), html: await spectator.content() });
      httpViews.push(await getJson(`${server.url}/api/matches/${id}`));
    }
  }

  // The end screen: result, deciding step, armies outlined, the record.
  await player.locator('#end:not([hidden])').waitFor();
  const record = await getJson(`${server.url}/api/matches/${id}/record`);
  assert.ok(record.outcome, 'the record holds the outcome');
  assert.equal(record.game, 'masked-army');
  assert.ok(record.actions.length >= 3);
  assert.match(await player.textContent('#end-decided'), new RegExp(record.outcome.decided_by.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  assert.equal((await player.textContent('#end-reason')).trim(), record.outcome.reason.trim());
  assert.ok((await player.locator('#board .army-outline').count()) > 0, 'armies are outlined');
  assert.ok((await player.locator('.army-table tbody tr').count()) > 0, 'army sizes are compared');
  const href = await player.getAttribute('#record-link', 'href');
  const downloaded = await getJson(new URL(href, server.url).href);
  assert.deepEqual(downloaded, record);
  await player.screenshot({ path: screenshotPath('end.png'), fullPage: true });
  await player.setViewportSize(PHONE);
  await player.screenshot({ path: screenshotPath('end-phone.png'), fullPage: true });
  await player.setViewportSize(DESK);
  assert.deepEqual(player.errors, []);

  // The spectator saw no hidden colour, in any frame or in the DOM.
  await spectator.locator('#end:not([hidden])').waitFor();
  const replay = await getReplay(`${server.url}/api/matches/${id}/replay`);
  const umpireBoard = (seq) => {
    assert.ok(seq < replay.steps.length, `seq ${seq} within the record`);
    return replay.steps[seq].view.board;
  };
  const states = spectator.frames.filter((f) => f.type === 'state');
  assert.ok(states.length >= 5, `the spectator got states (${states.length})`);
  const allowedTypes = new Set(['hello', 'state', 'presence', 'pong', 'chat']);
  let checked = 0;
  for (const frame of spectator.frames) {
    assert.ok(allowedTypes.has(frame.type), `spectator frame type ${frame.type}`);
    if (frame.type === 'hello') assert.equal(frame.you, 'spectator');
    if (frame.type !== 'state') continue;
    const allowed = new Set(['type', 'seq', 'view', 'decision', 'clocks', 'outcome', 'seats']);
    for (const key of Object.keys(frame)) assert.ok(allowed.has(key), `spectator state field ${key}`);
    if (frame.outcome) continue; // the end reveals everything
    assertPublicView(frame.view, umpireBoard(frame.seq), `spectator frame seq ${frame.seq}`);
    checked += 1;
  }
  assert.ok(checked >= 5, `spectator frames checked against the umpire's board (${checked})`);
  assert.ok(httpViews.length >= 2, 'HTTP snapshots taken');
  assert.ok(domSnapshots.length >= 2, 'DOM snapshots taken');
  for (const snap of domSnapshots) {
    const truth = umpireBoard(snap.seq);
    const frame = states.find((f) => f.seq === snap.seq);
    const last = frame.view.last ? [frame.view.last.mine, frame.view.last.theirs] : [];
    for (const c of snap.cells) {
      const t = at(truth, c.cell);
      if (t === '.' || last.includes(c.cell)) continue;
      assert.ok(c.hidden && !c.colour, `spectator DOM at seq ${snap.seq}: ${c.cell} is hidden`);
      assert.doesNotMatch(c.label, /red|blue|P1|P2/i, `label of ${c.cell}`);
    }
    const colours = (snap.html.match(/class="colour /g) ?? []).length;
    assert.ok(colours <= 2, `only the last piece is in colour in the DOM (${colours})`);
  }
  // What the spectator's page fetched over HTTP, too.
  const fetched = spectator.answers.filter((a) => a.body && a.body.view);
  assert.ok(fetched.length >= 1, 'the spectator page fetched the match');
  httpViews.push(...fetched.map((a) => a.body));
  for (const snap of httpViews) {
    if (snap.outcome) continue;
    assertPublicView(snap.view, umpireBoard(snap.seq), `HTTP snapshot seq ${snap.seq}`);
    assert.equal(snap.legal, undefined, 'no legal list for a spectator');
  }
  assert.deepEqual(spectator.errors, []);

  // The replay page steps through the match with the umpire's full view.
  const rp = await newPage(browser, { viewport: DESK });
  await rp.goto(`${server.url}/replay/${id}`);
  await rp.locator('#end:not([hidden])').waitFor();
  assert.equal(await rp.inputValue('#slider'), String(replay.steps.length - 1));
  await rp.click('#first');
  assert.match(await rp.textContent('#step-text'), /^Start/);
  assert.equal(await rp.locator('#board .colour').count(), 0, 'the start is empty');
  await rp.keyboard.press('ArrowRight');
  await rp.keyboard.press('ArrowRight');
  await rp.keyboard.press('ArrowRight');
  // The counter counts as the game does: the choice of who starts is setup,
  // and each piece placed is a move.
  const setup = replay.steps.slice(1).filter((s) => /^first /.test(s.entry.action)).length;
  const pieces = replay.steps.length - 1 - setup;
  assert.match(await rp.textContent('#step-text'), new RegExp(`^Move ${3 - setup} of ${pieces}:`));
  // The umpire's view shows every colour placed so far: two pieces.
  assert.equal(await rp.locator('#board .colour').count(), 4);
  await rp.click('#prev');
  assert.match(await rp.textContent('#step-text'), new RegExp(`^Move ${2 - setup} of`));
  if (setup) {
    await rp.click('#first');
    await rp.keyboard.press('ArrowRight');
    assert.match(await rp.textContent('#step-text'), /^Setup: (Red|Blue): (Red|Blue) places first first P\d, at \d+:\d\d$/);
    await rp.keyboard.press('ArrowRight');
  }
  const half = Math.floor(replay.steps.length / 2);
  await rp.evaluate((n) => {
    const slider = document.querySelector('#slider');
    slider.value = String(n);
    slider.dispatchEvent(new Event('input'));
  }, half);
  assert.match(await rp.textContent('#step-text'), new RegExp(`^Move ${half - setup} of ${pieces}`));
  await rp.screenshot({ path: screenshotPath('replay.png') });
  // Any record file opens on /replay (the server replays it).
  await rp.goto(`${server.url}/replay`);
  await rp.setInputFiles('#file', { name: 'record.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
  await rp.locator('#end:not([hidden])').waitFor();
  assert.equal(await rp.textContent('#step-count'), String(record.actions.length));
  assert.deepEqual(rp.errors, []);

  // The lobby lists the finished match, a live one, and a new match's links.
  const live = await postJson(`${server.url}/api/matches`, {
    game: 'masked-army',
    config: { advantage: 'P2' },
    timed: true,
    seats: { P1: { kind: 'bot', bot: 'easy' }, P2: { kind: 'person' } },
  });
  const p2 = await newPage(browser, { viewport: DESK });
  await p2.goto(`${server.url}${live.links.P2}`);
  await p2.locator('.ma-first button').first().waitFor();
  // P2 has the advantage here; others wait in the board module's words.
  assert.equal(await p2.textContent('#turn'), 'Your turn: choose who places first.');
  const watcher = await newPage(browser, { viewport: DESK });
  await watcher.goto(`${server.url}${live.links.spectator}`);
  await watcher.locator('#turn').filter({ hasText: 'Blue to choose who starts.' }).waitFor();
  await watcher.context().close();
  const lobby = await newPage(browser, { viewport: DESK });
  await lobby.goto(`${server.url}/`);
  await lobby.locator(`#finished li[data-match="${id}"]`).waitFor();
  await lobby.locator('#game option[value="masked-army"]').waitFor({ state: 'attached' });
  // The config fields are the game's own options, labelled by the game.
  await lobby.locator('#config select[name="config.advantage"]').waitFor();
  assert.match(await lobby.textContent('#config'), /Advantage\s*P1\s*P2\s*The seat that chooses who places the first piece/);
  assert.equal(await lobby.inputValue('select[name="config.advantage"]'), 'P1');
  await lobby.click('#create-button');
  await lobby.locator('#play-link').waitFor();
  await lobby.locator(`#live li[data-match="${live.id}"]`).waitFor();
  await lobby.locator('#open li[data-match]').first().waitFor();
  await lobby.screenshot({ path: screenshotPath('lobby.png'), fullPage: true });
  await lobby.setViewportSize(PHONE);
  await lobby.screenshot({ path: screenshotPath('lobby-phone.png'), fullPage: true });
  assert.deepEqual(lobby.errors, []);
});

test('the match page reconnects by itself when the server restarts', { timeout: 60_000 }, async () => {
  const addr = `127.0.0.1:${await freePort()}`;
  let srv = await startServer({ addr });
  try {
    const made = await postJson(`${srv.url}/api/matches`, {
      game: 'masked-army',
      config: { advantage: 'P1' },
      timed: true,
      seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
    });
    const page = await newPage(browser, { viewport: DESK });
    await page.goto(`${srv.url}${made.links.P1}`);
    await page.locator('.ma-first button[data-action="first P1"]').click();
    await page.locator('body.my-turn #board .cell.playable').first().waitFor();
    let seq = await seqOf(page);
    await clickMove(page);
    await waitTurnAfter(page, seq);
    seq = await seqOf(page);

    await srv.stop({ keep: true });
    // State and words read together: the first retry comes 250 ms later.
    const lost = await page.waitForFunction(() => {
      const conn = document.querySelector('#conn');
      return conn?.dataset.state === 'retrying' && document.querySelector('#conn-text').textContent;
    });
    assert.match(await lost.jsonValue(), /retrying/i);
    srv = await startServer({ addr, dir: srv.dir });
    await page.locator('#conn[data-state="open"]').waitFor({ timeout: 20_000 });
    await page.waitForFunction((s) => Number(document.body.dataset.seq) === s && document.body.classList.contains('my-turn'), seq);
    await clickMove(page);
    await waitTurnAfter(page, seq);

    // Resigning takes two clicks and ends the match at once.
    await page.click('#resign');
    await page.locator('#resign.danger').waitFor();
    await page.click('#resign');
    await page.locator('#end:not([hidden])').waitFor();
    assert.equal(await page.textContent('#end-title'), 'You lost');
    assert.match(await page.textContent('#end-decided'), /resign/i);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await srv.stop();
  }
});

test('players may choose their colours: the board, the words and the end screen use them', { timeout: 60_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'masked-army',
    config: { advantage: 'P1', colour_p1: 'orange', colour_p2: 'sky-blue' },
    timed: false,
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
  });
  const page = await newPage(browser, { viewport: DESK });
  await page.goto(`${server.url}${made.links.P1}`);
  await page.locator('.ma-first button[data-action="first P1"]').click();
  await page.locator('body.my-turn #board .cell.playable').first().waitFor();
  const seq = await seqOf(page);
  await clickMove(page);
  await waitTurnAfter(page, seq);
  // The page's seat colours are the chosen ones, and so are the names.
  const colour = (name) => page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
  assert.equal(await colour('--p1'), '#E69F00');
  assert.equal(await colour('--p2'), '#56B4E9');
  assert.match(await page.textContent("#last"), /^Last: Sky blue put sky blue on [A-I][1-9] and orange on [A-I][1-9] \([A-I][1-9] [A-I][1-9]\)\./);
  assert.match(await page.textContent('#chip-P1'), /Orange/);
  assert.equal(await page.locator('#board [aria-label$="orange, last piece"], #board [aria-label$="sky blue, last piece"]').count(), 2);
  await page.click('#resign');
  await page.locator('#resign.danger').waitFor();
  await page.click('#resign');
  await page.locator('#end:not([hidden])').waitFor();
  assert.equal(await page.textContent('#end-summary'), 'Sky blue wins: Orange resigned.');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/// The clicks of one action: the advantage's choice, or a placement.
async function stageAction(page) {
  const first = page.locator('.ma-first button[data-action]');
  if (await first.count()) return first.first().click();
  return clickMove(page);
}

/// A staged placement shows both its cells in their colours, in place.
async function placementDrawn(page, action) {
  if (action.startsWith('first ')) return;
  for (const cell of action.split(' ')) {
    assert.equal(await page.locator(`#board [data-cell="${cell}"][data-staged] .preview.staged`).count(), 1, `${cell} of ${action} drawn`);
  }
}

test('a whole match by clicking on a desk and a phone: the action bar stays in view, the staged placement is drawn', { timeout: WHOLE_MATCH_MS }, () =>
  playBothSizes(browser, server, {
    game: 'masked-army',
    bot: 'greedy',
    config: { advantage: 'P1' },
    stage: stageAction,
    drawn: placementDrawn,
    shotAt: 4,
    check: async (page, n, where) => {
      assert.ok(n >= 10, `${where}: ${n} actions played`);
      // Who won and why, in a sentence with the seats' colours.
      const summary = await page.textContent('#end-summary');
      assert.match(summary, /^(Red|Blue) wins: ((Red|Blue)’s [\w-]+ army, \d+, beats (Red|Blue)’s, \d+|all army sizes are equal, and (Red|Blue) placed the last piece)/, summary);
    },
  }));
