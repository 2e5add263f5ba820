// End to end: Four Statements in headless Chromium against a real `umpire
// serve`, on a fixed layout, against the random bot, played to the end by
// clicking and typing only: a subset picked on the grid with its
// restrictions shown live, four statements (from the menus and typed, an
// invalid one and an ambiguous one flagged by the server's check before
// anything is sent, a valid one shown with its reading, "You are saying:
// …"), Detective asked in the claim phase and answered at once, the claims
// by toggles, a tile bought in round 1, a second round's subset (the
// overlap rule shown live), and the whole grid guessed through the guess
// panel with its confirmation, so the player wins. Meanwhile a spectator's
// page and WebSocket frames never hold the layout, a seat's known tiles,
// its Reveal Points or its Detective before the end.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { getJson, newPage, postJson, screenshotPath, startBrowser, startServer } from './helpers.js';
import { WHOLE_MATCH_MS, playBothSizes, submit } from './whole-match.js';

const DESK = { width: 1200, height: 1100 };
// A1 … D1, A2 … D2, …: row 1 R R B G, row 2 Y G B R, row 3 B B R Y, row 4 G Y R G.
const LAYOUT = 'RRBGYGBRBBRYGYRG';
const KNOWN_P1 = ['A1', 'B1', 'C1', 'D1'];
const KNOWN_P2 = ['A4', 'B4', 'C4', 'D4'];
const CELLS = Array.from({ length: 16 }, (_, i) => `${'ABCD'[i % 4]}${Math.floor(i / 4) + 1}`);
const colourOf = (cell) => LAYOUT[CELLS.indexOf(cell)];

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

/// Waits until the server answered the page's own action (sent after its
/// `from`th frame) and the page shows the state after it.
async function answered(page, from) {
  const deadline = Date.now() + 20_000;
  let ack;
  while (!(ack = page.frames.slice(from).find((f) => f.type === 'accepted' || f.type === 'error'))) {
    assert.ok(Date.now() < deadline, 'the server answers the action');
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(ack.type, 'accepted', `refused: ${JSON.stringify(ack)}`);
  await page.waitForFunction((seq) => Number(document.body.dataset.seq) >= seq, ack.seq, { timeout: 20_000 });
  return ack;
}

const tools = (page, label) => page.locator(`.fs-tools[aria-label="${label}"]`).waitFor({ timeout: 20_000 });
const cell = (name) => `.fs-grid [data-cell="${name}"]`;

/// Every state frame a spectator got before the end holds no secret.
function assertSpectatorFrames(frames) {
  let checked = 0;
  for (const frame of frames) {
    if (frame.type !== 'state' || frame.outcome) continue;
    const v = frame.view;
    const text = JSON.stringify(frame);
    assert.ok(!text.includes(LAYOUT), `seq ${frame.seq}: the layout`);
    assert.ok(!/RRBG\s*YGBR/.test(text), `seq ${frame.seq}: the layout's rows`);
    assert.ok(v.layout === null || v.layout === undefined, `seq ${frame.seq}: layout ${v.layout}`);
    for (const seat of ['P1', 'P2']) {
      assert.ok(v.known?.[seat] == null, `seq ${frame.seq}: ${seat}'s known tiles`);
      // (Before anybody scored, round 1's bluff, both are 0 and shown.)
      const nobodyScored = v.round === 1 && v.phase === 'bluff';
      assert.ok(v.rp?.[seat] == null || (nobodyScored && v.rp[seat] === 0), `seq ${frame.seq}: ${seat}'s RP ${v.rp?.[seat]}`);
    }
    assert.ok(v.sealed?.P1 == null && v.sealed?.P2 == null, `seq ${frame.seq}: a sealed choice`);
    assert.equal(frame.legal, undefined, 'no legal list for a spectator');
    checked += 1;
  }
  return checked;
}

/// The spectator's page before the end: no coloured tile, no RP (but the
/// 0 both seats hold before anybody scored).
async function assertSpectatorPage(page, { nobodyScored = false } = {}) {
  assert.equal(await page.locator('.fs-grid .fs-cell[class*="fs-c-"]').count(), 0, 'the spectator sees no tile colour');
  const rps = await page.$$eval('.fs-rp', (els) => els.map((e) => e.dataset.rp));
  assert.deepEqual(rps, nobodyScored ? ['0', '0'] : [], 'the spectator sees no RP');
  const text = await page.textContent('#board');
  assert.ok(!text.includes(LAYOUT));
}

test('Four Statements against the random bot: bluff, claims, a bought tile, a guess, by clicking and typing', { timeout: 300_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'four-statements',
    timed: false,
    config: { layout: LAYOUT, known_p1: KNOWN_P1.join(' '), known_p2: KNOWN_P2.join(' ') },
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
  });
  const umpireState = () => getJson(`${server.url}/api/matches/${made.id}?t=${new URL(made.links.umpire, server.url).searchParams.get('t')}`);
  const spectatorState = () => getJson(`${server.url}/api/matches/${made.id}`);
  const player = await newPage(browser, { viewport: DESK });
  const spectator = await newPage(browser, { viewport: DESK });
  await spectator.goto(`${server.url}${made.links.spectator}`);
  await player.goto(`${server.url}${made.links.P1}`);

  // --- Round 1, bluff --------------------------------------------------------
  await tools(player, 'Bluff');
  // The known tiles show their colour and letter; the others are blank.
  for (const c of KNOWN_P1) assert.equal((await player.textContent(cell(c))).trim()[0], colourOf(c), `${c} shows its letter`);
  assert.equal((await player.textContent(cell('A2'))).trim(), '', 'an unknown tile is blank');
  assert.equal(await player.getAttribute('.fs-seat[data-seat="P1"] .fs-rp', 'data-rp'), '0');
  await assertSpectatorPage(spectator, { nobodyScored: true });

  // The subset A1 B1 A2 B2 (R R / Y G), its restrictions live.
  await player.click(cell('A1'));
  await player.click(cell('B2'));
  assert.match(await player.textContent('[data-rule="connected"]'), /✗ not connected/);
  assert.match(await player.textContent('[data-rule="size"]'), /✗ 2 tiles/);
  await player.click(cell('B1'));
  await player.click(cell('A2'));
  assert.match(await player.textContent('[data-rule="connected"]'), /✓ connected/);
  assert.match(await player.textContent('[data-rule="size"]'), /✓ 4 tiles/);
  assert.equal(await player.getAttribute(cell('A2'), 'aria-pressed'), 'true');

  // Statement 1 from the menus: at least two red tiles.
  await player.selectOption('select[data-field="kind"][data-i="0"]', 'count');
  await player.selectOption('select[data-field="quant"][data-i="0"]', 'at least');
  await player.selectOption('select[data-field="n"][data-i="0"]', '2');
  await player.selectOption('select[data-field="c1"][data-i="0"]', 'R');
  // Statement 2 from the menus: exactly one yellow tile.
  await player.selectOption('select[data-field="kind"][data-i="1"]', 'count');
  await player.selectOption('select[data-field="quant"][data-i="1"]', 'exactly');
  await player.selectOption('select[data-field="n"][data-i="1"]', '1');
  await player.selectOption('select[data-field="c1"][data-i="1"]', 'Y');
  // Statement 4 from the menus: exactly three colours.
  await player.selectOption('select[data-field="kind"][data-i="3"]', 'colours');
  await player.selectOption('select[data-field="quant"][data-i="3"]', 'exactly');
  await player.selectOption('select[data-field="n"][data-i="3"]', '3');
  const built = await player.inputValue('.fs-text[data-i="0"]');
  assert.equal(built, 'At least two tiles are red.');
  // Statement 3 typed: first one the rulebook calls invalid (tiles outside
  // the subset): the server's check flags it before anything is sent.
  await player.fill('.fs-text[data-i="2"]', 'There are four red tiles on the grid.');
  await player.locator('.fs-valid[data-i="2"] .fs-check.bad').waitFor({ timeout: 10_000 });
  const flagged = await player.textContent('.fs-valid[data-i="2"]');
  assert.match(flagged, /✗ .*outside the subset/, `flagged: ${flagged}`);
  assert.match(await player.textContent('.fs-words[data-i="2"]'), /8 words of 15/);
  // One that reads two ways: refused with both readings.
  await player.fill('.fs-text[data-i="2"]', 'It is not true that no tile is red and no tile is blue.');
  await player.waitForFunction(() => /read in 2 ways/.test(document.querySelector('.fs-valid[data-i="2"]')?.textContent ?? ''), null, { timeout: 10_000 });
  const twoWays = await player.textContent('.fs-valid[data-i="2"]');
  assert.match(twoWays, /“At least one tile is red and no tile is blue\.” or “It is not true that both no tile is red and no tile is blue\.”/);
  // Then a valid one, typed in the player's own words, and shown as read.
  await player.fill('.fs-text[data-i="2"]', 'There is a red tile next to a green one.');
  for (let i = 0; i < 4; i++) {
    await player.locator(`.fs-valid[data-i="${i}"] .fs-check.ok`).waitFor({ timeout: 10_000 });
  }
  assert.match(await player.textContent('.fs-valid[data-i="2"]'), /You are saying: “A red tile is adjacent to a green tile\.”/);
  await player.locator('.fs-whole .fs-check.ok').waitFor({ timeout: 10_000 });
  await player.screenshot({ path: screenshotPath('four-statements.png'), fullPage: true });
  let from = player.frames.length;
  await player.click('button[data-tool="bluff"]');
  await answered(player, from);
  assert.equal(await player.isHidden('#error'), true, await player.textContent('#error'));

  // --- Round 1, claims -------------------------------------------------------
  await tools(player, 'Claims');
  // The test knows the truth (from the umpire's view): right claims earn RP.
  // The bot's claims first (its thread may lag on a loaded machine): the
  // spectator's silence below is then Detective's alone.
  let state = await umpireState();
  for (const deadline = Date.now() + 20_000; state.view.sealed?.P2 == null; state = await umpireState()) {
    assert.ok(Date.now() < deadline, 'the bot makes its claims');
    await new Promise((r) => setTimeout(r, 50));
  }
  const seen = (await spectatorState()).seq;
  await spectator.waitForFunction((seq) => Number(document.body.dataset.seq) >= seq, seen, { timeout: 20_000 });
  const side = state.view.rounds.find((r) => r.round === 1).sides.P2;
  const theirs = side.statements;
  // Detective on the first statement the bot did not smokescreen: the
  // answer comes at once, while the claims are still to be made, and the
  // spectator is sent nothing.
  // (The umpire reads a statement hidden by Smokescreen; the player does not.)
  const asked = theirs.findIndex((t, i) => t.text !== null && t.text !== undefined && side.smokescreen !== i + 1);
  const spectatorFrames = spectator.frames.length;
  from = player.frames.length;
  await player.click(`button[data-tool="detective"][data-i="${asked}"]`);
  await answered(player, from);
  await tools(player, 'Claims');
  const answer = await player.textContent(`.fs-detective[data-i="${asked}"]`);
  assert.match(answer, new RegExp(`Detective: ${theirs[asked].truth ? 'true' : 'false'}`));
  assert.equal(await player.locator('button[data-tool="detective"]').count(), 0, 'Detective is used');
  assert.equal(await player.getAttribute(`.fs-claim[data-claim="${asked}"][data-v="-"]`, 'disabled'), '', 'its statement earns no claim');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(spectator.frames.length, spectatorFrames, 'the spectator hears nothing of Detective');
  const rows = await player.$$eval('.fs-claim-row', (els) => els.map((e) => !!e.querySelector('.fs-claim:not([disabled])')));
  assert.equal(rows.length, 4, 'four opponent statements');
  for (let i = 0; i < 4; i++) {
    if (!rows[i]) continue; // smokescreened: fixed at –
    await player.click(`.fs-claim[data-claim="${i}"][data-v="${theirs[i].truth ? 'T' : 'F'}"]`);
  }
  from = player.frames.length;
  await player.click('button[data-tool="claims"]');
  await answered(player, from);

  // --- Round 1, reveal: buy a tile -------------------------------------------
  await tools(player, 'Reveal');
  const rp = Number(await player.getAttribute('.fs-seat[data-seat="P1"] .fs-rp', 'data-rp'));
  assert.ok(rp >= 8, `four true statements and right claims give at least 8 RP (${rp})`);
  await player.click(cell('C3'));
  assert.match(await player.textContent('button[data-tool="buy"]'), /Buy C3 for 8 RP/);
  from = player.frames.length;
  await player.click('button[data-tool="buy"]');
  await answered(player, from);
  // The bought tile shows its colour once the phase is over.
  await player.waitForFunction(() => document.querySelector('.fs-grid [data-cell="C3"]')?.textContent.trim() === 'R', null, { timeout: 20_000 });

  // --- Round 2, bluff: the overlap rule, then the defaults ---------------------
  await tools(player, 'Bluff');
  for (const c of ['A1', 'B1', 'A2', 'B2']) await player.click(cell(c));
  assert.match(await player.textContent('[data-rule="overlap"]'), /✗ shares 4 with your last subset/);
  for (const c of ['A1', 'B1', 'A2', 'B2']) await player.click(cell(c));
  for (const c of ['C1', 'D1', 'C2', 'D2']) await player.click(cell(c));
  assert.match(await player.textContent('[data-rule="overlap"]'), /✓ shares 0/);
  // Statement 1 joins a second claim from the menus.
  await player.selectOption('select[data-field="join"][data-i="0"]', 'or');
  await player.selectOption('select[data-field="b.c1"][data-i="0"]', 'B');
  assert.equal(await player.inputValue('.fs-text[data-i="0"]'), 'At least two tiles are red or at least two tiles are blue.');
  await player.locator('.fs-valid[data-i="0"] .fs-check.ok').waitFor({ timeout: 10_000 });
  await player.locator('.fs-whole .fs-check.ok').waitFor({ timeout: 10_000 });
  from = player.frames.length;
  await player.click('button[data-tool="bluff"]');
  await answered(player, from);
  await tools(player, 'Claims');
  from = player.frames.length;
  await player.click('button[data-tool="claims"]');
  await answered(player, from);

  // --- Round 2, reveal: guess the whole grid ------------------------------------
  await tools(player, 'Reveal');
  await assertSpectatorPage(spectator);
  // Take the 150 s more first: the page then asks for the grid only.
  from = player.frames.length;
  await player.click('button[data-tool="guess-time"]');
  await answered(player, from);
  await tools(player, 'Guess');
  assert.equal(await player.locator('button[data-tool="buy"], button[data-tool="guess-time"]').count(), 0, 'only the guess (or a pass) is left');
  // Known tiles are filled in already; paint the rest colour by colour.
  const pre = await player.$$eval('.fs-gcell', (els) => els.map((e) => e.textContent.trim()));
  for (const c of [...KNOWN_P1, 'C3']) assert.equal(pre[CELLS.indexOf(c)], colourOf(c), `${c} pre-filled`);
  for (const colour of 'RBGY') {
    await player.click(`button[data-brush="${colour}"]`);
    for (let i = 0; i < 16; i++) {
      if (LAYOUT[i] === colour && pre[i] !== colour) await player.click(`.fs-gcell[data-g="${i}"]`);
    }
  }
  await player.click('button[data-tool="guess-confirm"]');
  assert.equal(await player.textContent('.fs-guess-text'), 'guess RRBG YGBR BBRY GYRG');
  from = player.frames.length;
  await player.click('button[data-tool="guess-send"]');
  await answered(player, from);

  // --- The end ----------------------------------------------------------------
  await player.waitForFunction(() => document.body.dataset.over === 'yes', null, { timeout: 20_000 });
  await spectator.waitForFunction(() => document.body.dataset.over === 'yes', null, { timeout: 20_000 });
  assert.equal(await player.textContent('#end-title'), 'You won');
  const end = await player.textContent('#end-detail');
  assert.match(end, /guessed in round 2/);
  assert.equal(await player.locator('#end-detail .fs-cell[class*="fs-c-"]').count(), 16, 'the whole grid at the end');
  await player.screenshot({ path: screenshotPath('four-statements-end.png'), fullPage: true });

  // Secrets: the spectator's frames held none before the end; the player's
  // never held the bot's.
  assert.ok(assertSpectatorFrames(spectator.frames) >= 4);
  for (const f of spectator.frames) {
    if (f.type !== 'state' || f.outcome) continue;
    assert.equal(f.view.items?.P1?.detective, undefined, `seq ${f.seq}: P1's Detective`);
    for (const r of f.view.rounds ?? []) assert.equal(r.sides?.P1?.detective ?? null, null, `seq ${f.seq}: P1's Detective question`);
  }
  for (const f of player.frames) {
    if (f.type !== 'state' || f.outcome) continue;
    const nobodyScored = f.view.round === 1 && f.view.phase === 'bluff';
    assert.ok(f.view.known?.P2 == null, `seq ${f.seq}: the bot's known tiles`);
    assert.ok(f.view.rp?.P2 == null || (nobodyScored && f.view.rp.P2 === 0), `seq ${f.seq}: the bot's RP`);
    assert.ok(!JSON.stringify(f).includes(LAYOUT), `seq ${f.seq}: the layout`);
  }
  assert.deepEqual(player.errors, []);
  assert.deepEqual(spectator.errors, []);
});

test('Four Statements on a phone and by keyboard, with the deduction aid: the board fits, Space picks a tile', { timeout: 60_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'four-statements',
    timed: false,
    config: { layout: LAYOUT, known_p1: KNOWN_P1.join(' '), known_p2: KNOWN_P2.join(' '), aids: true },
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
  });
  const page = await newPage(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.goto(`${server.url}${made.links.P1}`);
  await tools(page, 'Bluff');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling on a phone (${width}px)`);
  // The board's stylesheet loads after the board is first drawn: under a
  // loaded CI machine the first layout can lag, so give it a moment.
  // The grid comes first, large enough for thumbs, with the tools under it
  // above the action bar.
  const gridBox = () => page.$eval('.fs-grid', (e) => e.getBoundingClientRect().toJSON());
  await page.waitForFunction(() => document.querySelector('.fs-grid')?.getBoundingClientRect().width > 240, null, { timeout: 5_000 }).catch(() => {});
  const grid = await gridBox();
  const bar = await page.$eval('#action-bar', (e) => e.getBoundingClientRect().top);
  const toolsTop = await page.$eval(".fs-tools", (e) => e.getBoundingClientRect().top);
  assert.ok(grid.width > 240 && grid.top < 120, `the grid comes first, ${grid.width}px wide at ${grid.top}px`);
  assert.ok(toolsTop > grid.bottom && toolsTop + 100 < bar, `the tools follow the grid (at ${toolsTop}px), above the bar (${bar}px)`);
  // The aid: 4^12 grids are possible at first; each unknown tile shows its odds.
  assert.match(await page.textContent('.fs-aid'), /16777216 grids still possible/);
  assert.equal(await page.locator('.fs-grid .fs-odds').count(), 12);
  assert.match(await page.getAttribute(cell('A2'), 'aria-label'), /A2: unknown; red 25%, blue 25%, green 25%, yellow 25%/);
  // Keyboard: tiles are buttons; Space picks, Space again drops.
  await page.focus(cell('C2'));
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute(cell('C2'), 'aria-pressed'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.cell), 'C2', 'the focus stays on the tile');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute(cell('D2'), 'aria-pressed'), 'true');
  assert.match(await page.textContent('.fs-pane[data-pane="s"] > p'), /C2 D2/);
  // One part of the bluff at a time: the subset's rules first, then a
  // statement chosen by its button.
  assert.equal(await page.locator('.fs-text[data-i="0"]').isVisible(), false, 'the statements wait behind their buttons');
  await page.click('button[data-tool="pane"][data-pane="0"]');
  assert.equal(await page.locator('.fs-rules').isVisible(), false, 'the subset part is put away');
  // A typed statement keeps its caret while the page redraws.
  await page.fill('.fs-text[data-i="0"]', 'There are two red tiles.');
  await page.locator('.fs-valid[data-i="0"] .fs-check').waitFor();
  await page.screenshot({ path: screenshotPath('four-statements-phone.png'), fullPage: true });
  assert.deepEqual(page.errors, []);
});

/// The clicks of one action: a subset and four statements from the menus,
/// no claims, then 150 s more to guess and the whole grid painted (the
/// test knows the layout), which wins.
async function stageAction(page) {
  await page.locator('.fs-tools').waitFor();
  const kind = await page.getAttribute('.fs-tools', 'aria-label');
  if (kind === 'Bluff') {
    for (const c of ['A1', 'B1', 'A2', 'B2']) await page.click(cell(c));
    for (const [i, c] of ['R', 'Y', 'G', 'B'].entries()) {
      // A phone shows one statement at a time.
      const pane = page.locator(`button[data-tool="pane"][data-pane="${i}"]`);
      if (await pane.isVisible()) await pane.click();
      await page.selectOption(`select[data-field="kind"][data-i="${i}"]`, 'count');
      await page.selectOption(`select[data-field="quant"][data-i="${i}"]`, 'at least');
      await page.selectOption(`select[data-field="n"][data-i="${i}"]`, '1');
      await page.selectOption(`select[data-field="c1"][data-i="${i}"]`, c);
    }
    await page.locator('.fs-whole .fs-check.ok').waitFor({ timeout: 10_000 });
    return submit(page, 'button[data-tool="bluff"]');
  }
  if (kind === 'Claims') return submit(page, 'button[data-tool="claims"]');
  if (kind === 'Reveal') return page.click('button[data-tool="guess-time"]');
  if (kind === 'Guess') {
    const pre = await page.$$eval('.fs-gcell', (els) => els.map((e) => e.textContent.trim()));
    for (const colour of 'RBGY') {
      await page.click(`button[data-brush="${colour}"]`);
      for (let i = 0; i < 16; i++) if (LAYOUT[i] === colour && pre[i] !== colour) await page.click(`.fs-gcell[data-g="${i}"]`);
    }
    await submit(page, 'button[data-tool="guess-confirm"]');
    return submit(page, 'button[data-tool="guess-send"]');
  }
  assert.fail(`unexpected tools: ${kind}`);
}

/// A staged subset keeps its tiles picked on the grid.
async function actionDrawn(page, action) {
  if (!action.startsWith('subset ')) return;
  for (const c of ['A1', 'B1', 'A2', 'B2']) assert.equal(await page.locator(`${cell(c)}[data-staged]`).count(), 1, `${c} of the subset drawn`);
}

test('a whole match by clicking on a desk and a phone: the action bar stays in view, the staged action is drawn', { timeout: WHOLE_MATCH_MS }, () =>
  playBothSizes(browser, server, {
    game: 'four-statements',
    bot: 'random',
    config: { layout: LAYOUT, known_p1: KNOWN_P1.join(' '), known_p2: KNOWN_P2.join(' ') },
    stage: stageAction,
    drawn: actionDrawn,
    shotAt: 0,
    check: async (page, n, where) => {
      assert.equal(n, 4, `${where}: bluff, claims, more time, the guess: ${n} actions`);
      assert.equal(await page.textContent('#end-title'), 'You won');
    },
  }));
