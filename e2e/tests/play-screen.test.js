// End to end: the play screen players expect, on the engine's fast test game
// (served with `umpire serve --test-games`, played through the generic
// client): refusals in plain words next to the board, move confirmation,
// sounds and the mute switch, clocks that freeze while the server is away,
// the end screen in the seats' names, and no click instructions for
// spectators.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { freePort, newPage, postJson, replayShown, startBrowser, startServer } from './helpers.js';

const DESK = { width: 1200, height: 900 };
const GAME = 'sealed-bids';

let server;
let browser;

before(async () => {
  server = await startServer({ args: ['--test-games'] });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/// Polls `check` (in Node) until it is true.
async function until(check, what, ms = 15_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const accepted = (page, action) => page.frames.filter((f) => f.type === 'accepted' && f.action === action).length;
const acts = (page) => page.sent.filter((m) => m.type === 'act').map((m) => m.action);
const turn = (page, text) => page.locator('#turn').filter({ hasText: new RegExp(`^${text.replace(/[.()]/g, '\\$&')}$`) }).waitFor();

/// A page that also records what it sends (`page.sent`); `person` gives it
/// the defaults people get (confirmation in timed matches, sounds on)
/// instead of the test pages' preset settings.
async function open(url, { person = false } = {}) {
  const page = await newPage(browser, { viewport: DESK, person });
  page.sent = [];
  page.on('websocket', (ws) => {
    ws.on('framesent', ({ payload }) => {
      try {
        page.sent.push(JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8')));
      } catch {
        // not JSON
      }
    });
  });
  await page.goto(url);
  return page;
}

async function create(srv, timed) {
  const made = await postJson(`${srv.url}/api/matches`, {
    game: GAME,
    timed,
    seats: { P1: { kind: 'person' }, P2: { kind: 'person' } },
  });
  return Object.fromEntries(Object.entries(made.links).map(([k, v]) => [k, v && `${srv.url}${v}`]));
}

test('refusals, confirmation, sounds, the end screen and spectators', { timeout: 45_000 }, async () => {
  const links = await create(server, true);
  const p1 = await open(links.P1, { person: true });
  const p2 = await open(links.P2);
  const spectator = await open(links.spectator);
  await Promise.all([turn(p1, 'Your turn: bid.'), turn(p2, 'Your turn: bid.')]);

  // Settings: a person in a timed match confirms actions and hears sounds;
  // a scripted page (the other tests) has neither unless it asks.
  assert.equal(await p1.isChecked('#confirm-moves'), true, 'confirmation on in a timed match');
  assert.equal(await p1.isChecked('#sound-on'), true, 'sounds on for a person');
  assert.equal(await p2.isChecked('#confirm-moves'), false);
  assert.equal(await p2.isChecked('#sound-on'), false);

  // Spectators see no click instructions, nor the confirmation setting.
  await spectator.locator('#turn').filter({ hasText: /to decide/ }).waitFor();
  assert.equal(await spectator.isHidden('#help-box'), true, 'no "how to play here" for a spectator');
  assert.equal(await spectator.isHidden('#confirm-moves-label'), true);
  assert.equal(await p1.isVisible('#help-box'), true, 'a seat has its instructions');

  // A low clock says so in words too (a bid has 10 s, low from its start).
  await p1.locator('#clock-P1.low #clock-P1-low:not([hidden])').waitFor();
  assert.match(await p1.getAttribute('#clock-P1', 'aria-label'), /low time/);

  // Confirmation: a click on a legal action is not sent, but shown in the
  // confirm bar; Escape cancels it.
  await p1.click('#board .legal-actions button[data-action="bid 2"]');
  await p1.locator('#confirm-bar:not([hidden])').waitFor();
  assert.match(await p1.textContent('#confirm-text'), /bid 2/);
  await p1.keyboard.press('Escape');
  await p1.locator('#confirm-bar').waitFor({ state: 'hidden' });
  await p1.waitForTimeout(200);
  assert.deepEqual(acts(p1), [], 'nothing sent before a confirmation');

  // Typed, then Enter in the bar's place: sent once confirmed, and the
  // text box keeps the focus.
  await p1.fill('#move-text', 'bid 2');
  await p1.press('#move-text', 'Enter');
  await p1.locator('#confirm-bar:not([hidden])').waitFor();
  assert.deepEqual(acts(p1), []);
  await p1.keyboard.press('Enter');
  await until(() => accepted(p1, 'bid 2') === 1, '`bid 2` accepted');
  assert.deepEqual(acts(p1), ['bid 2']);
  assert.equal(await p1.evaluate(() => document.activeElement?.id), 'move-text', 'the focus stays in the text box');
  // (Its own accepted action played the move sound.)
  await p1.waitForFunction(() => document.body.dataset.sound === 'move-played');

  // A refusal: in plain words next to the board, in the seats' names, its
  // rule in data-rule. (Confirmation off for the rest, by the switch.)
  await p1.uncheck('#confirm-moves');
  assert.equal(await p1.evaluate(() => localStorage.getItem('umpire.confirm-moves')), 'off');
  await p1.fill('#move-text', 'bid 1');
  await p1.press('#move-text', 'Enter');
  const refusal = p1.locator('.play #error:not([hidden])');
  await refusal.waitFor();
  assert.equal(await refusal.getAttribute('data-rule'), 'already-submitted');
  const said = await refusal.textContent();
  assert.equal(said, 'You have already played this turn: waiting for Player 2 (already-submitted)');
  assert.doesNotMatch(said.replace(/\([\w-]+\)$/, ''), /\bP[12]\b/, 'no seat ids in the sentence');
  // The error sits right under the board.
  assert.equal(await p1.evaluate(() => document.querySelector('#board').nextElementSibling.id), 'error');
  await p1.fill('#move-text', '');

  // Sounds: P2's bid ends the round; P1's turn again sounds.
  await p2.click('#board .legal-actions button[data-action="bid 1"]');
  await p1.waitForFunction(() => document.body.dataset.sound === 'your-turn');
  assert.equal(await p2.evaluate(() => document.body.dataset.sound ?? null), null, 'a muted page plays nothing');

  // The mute switch is remembered.
  await p1.uncheck('#sound-on');
  assert.equal(await p1.evaluate(() => localStorage.getItem('umpire.sound')), 'off');
  await p1.evaluate(() => delete document.body.dataset.sound);
  await p1.click('#board .legal-actions button[data-action="bid 1"]');
  await until(() => accepted(p1, 'bid 1') === 1, '`bid 1` accepted');
  await p2.click('#board .legal-actions button[data-action="bid 1"]');
  await turn(p1, 'Your turn: bid.');
  await p1.waitForTimeout(200);
  assert.equal(await p1.evaluate(() => document.body.dataset.sound ?? null), null, 'muted: no sound');
  await p1.reload();
  await turn(p1, 'Your turn: bid.');
  assert.equal(await p1.isChecked('#sound-on'), false, 'the mute is remembered');
  assert.equal(await p1.isChecked('#confirm-moves'), false, 'the confirmation choice is remembered');
  await p1.check('#sound-on');

  // Confirmation again, by a second click on the same action.
  await p1.check('#confirm-moves');
  const bids = accepted(p1, 'bid 1');
  await p1.click('#board .legal-actions button[data-action="bid 1"]');
  await p1.locator('#confirm-bar:not([hidden])').waitFor();
  await p1.click('#board .legal-actions button[data-action="bid 1"]');
  await until(() => accepted(p1, 'bid 1') === bids + 1, 'the last `bid 1` accepted');
  await p1.locator('#confirm-bar').waitFor({ state: 'hidden' });
  assert.notEqual(await p1.evaluate(() => document.activeElement?.localName), 'body', 'the focus is kept');
  await p2.click('#board .legal-actions button[data-action="bid 2"]');

  // The end: who won and why, in the seats' names; the game-over sound.
  await p1.locator('#end:not([hidden])').waitFor();
  await p1.waitForFunction(() => document.body.dataset.sound === 'game-over');
  const outcome = p1.frames.filter((f) => f.type === 'state').at(-1).outcome;
  const head = outcome.winner ? `${outcome.winner === 'P1' ? 'Player 1' : 'Player 2'} wins` : 'Draw';
  for (const page of [p1, spectator]) {
    await page.locator('#end:not([hidden])').waitFor();
    const summary = await page.textContent('#end-summary');
    assert.ok(summary.startsWith(head), `${summary} starts with ${head}`);
    assert.doesNotMatch(summary, /\bP[12]\b/, summary);
    assert.match(await page.textContent('#end-decided'), /points/);
  }
  for (const page of [p1, p2, spectator]) assert.deepEqual(page.errors, []);
  await Promise.all([p1, p2, spectator].map((p) => p.context().close()));
});

test('untimed: no confirmation by default', { timeout: 20_000 }, async () => {
  const links = await create(server, false);
  const p1 = await open(links.P1, { person: true });
  await turn(p1, 'Your turn: bid.');
  assert.equal(await p1.isChecked('#confirm-moves'), false);
  await p1.click('#board .legal-actions button[data-action="bid 2"]');
  await until(() => accepted(p1, 'bid 2') === 1, '`bid 2` sent at once');
  assert.equal(await p1.textContent('#clock-P1-turn'), 'untimed');
  assert.deepEqual(p1.errors, []);
  await p1.context().close();
});

test('a click survives a state that arrives between press and release', { timeout: 20_000 }, async () => {
  const links = await create(server, false);
  const p1 = await open(links.P1);
  await turn(p1, 'Your turn: bid.');
  const button = p1.locator('#board .legal-actions button[data-action="bid 2"]');
  const box = await button.boundingBox();
  await p1.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await p1.mouse.down();
  // The opponent arrives while the button is held: a state reaches P1.
  const states = p1.frames.filter((f) => f.type === 'state').length;
  const p2 = await open(links.P2);
  await until(() => p1.frames.filter((f) => f.type === 'state').length > states, 'the state saying P2 came');
  await p1.mouse.up();
  await until(() => accepted(p1, 'bid 2') === 1, '`bid 2` sent by the held click');
  assert.deepEqual(p1.errors, []);
  await p1.context().close();
  await p2.context().close();
});

test('clocks freeze with a note while the server is away, and resume', { timeout: 40_000 }, async () => {
  const addr = `127.0.0.1:${await freePort()}`;
  let srv = await startServer({ addr, args: ['--test-games'] });
  try {
    const links = await create(srv, true);
    const p1 = await open(links.P1);
    await turn(p1, 'Your turn: bid.');
    // Pondering starts play: P1's own bid now has 20 s, and it runs.
    await p1.click('#board .legal-actions button[data-action="ponder"]');
    await until(() => accepted(p1, 'ponder') === 1, '`ponder` accepted');
    await p1.locator('#clock-P1.running').waitFor();
    assert.equal(await p1.isHidden('#clock-note'), true);

    await srv.stop({ keep: true });
    await p1.locator('#conn[data-state="retrying"]').waitFor();
    await p1.locator('#clock-note:not([hidden])').waitFor();
    assert.match(await p1.textContent('#clock-note'), /reconnecting/i);
    const frozen = await p1.textContent('#clock-P1-turn');
    await p1.waitForTimeout(700);
    assert.equal(await p1.textContent('#clock-P1-turn'), frozen, 'the clock stands still while disconnected');

    srv = await startServer({ addr, dir: srv.dir, args: ['--test-games'] });
    await p1.locator('#conn[data-state="open"]').waitFor({ timeout: 15_000 });
    await p1.locator('#clock-note').waitFor({ state: 'hidden' });
    await p1.locator('#clock-P1.running').waitFor();
    const resumed = await p1.textContent('#clock-P1-turn');
    await p1.waitForFunction((t) => document.querySelector('#clock-P1-turn').textContent !== t, resumed);
    assert.deepEqual(p1.errors, []);
    await p1.context().close();
  } finally {
    await srv.stop();
  }
});

test('low time sounds as the clock crosses into it; the loser on time shows 0:00', { timeout: 60_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, { game: GAME, config: { variant: 'strict' }, timed: true });
  const links = Object.fromEntries(Object.entries(made.links).map(([k, v]) => [k, v && `${server.url}${v}`]));
  const p1 = await open(links.P1, { person: true });
  const p2 = await open(links.P2);
  await Promise.all([turn(p1, 'Your turn: bid.'), turn(p2, 'Your turn: bid.')]);
  await p1.uncheck('#confirm-moves');
  await p2.click('#board .legal-actions button[data-action="bid 1"]');
  // Pondering gives P1 20 s: not low at first, low for its last 10 s.
  await p1.click('#board .legal-actions button[data-action="ponder"]');
  await until(() => accepted(p1, 'ponder') === 1, '`ponder` accepted');
  await p1.locator('#clock-P1.running:not(.low)').waitFor();
  await p1.evaluate(() => delete document.body.dataset.sound);
  await p1.locator('#clock-P1.low').waitFor({ timeout: 15_000 });
  await p1.waitForFunction(() => document.body.dataset.sound === 'low-time');
  assert.match(await p1.getAttribute('#clock-P1', 'aria-label'), /low time/);
  // P1 lets its time and overtime run out: it loses, and both pages show
  // its clock at 0:00, out of time, in the seats' names.
  for (const page of [p1, p2]) {
    await page.locator('#end:not([hidden])').waitFor({ timeout: 30_000 });
    assert.equal(await page.textContent('#clock-P1-turn'), '0:00');
    assert.match(await page.textContent('#clock-P1-bank'), /out of time/);
    assert.match(await page.getAttribute('#clock-P1', 'aria-label'), /out of time/);
    assert.notEqual(await page.textContent('#clock-P2-turn'), '0:00');
    assert.match(await page.textContent('#end-summary'), /^Player 2 wins/);
    assert.match(await page.textContent('#end-decided'), /a clock ran out/);
  }
  assert.equal(await p1.textContent('#end-title'), 'You lost');
  for (const page of [p1, p2]) assert.deepEqual(page.errors, []);
  await Promise.all([p1, p2].map((p) => p.context().close()));
});

test('a replay the server is too busy for is asked for again', { timeout: 30_000 }, async () => {
  const page = await newPage(browser, { viewport: DESK });
  // The server's answer while its replays are all taken, the first time.
  let asked = 0;
  await page.route('**/api/replay', (route) =>
    asked++
      ? route.continue()
      : route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'the server is busy with other replays; try again' }) }),
  );
  await page.goto(`${server.url}/replay`);
  const record = { game: GAME, config: {}, seed: 1, timed: false, actions: [] };
  await page.setInputFiles('#file', { name: 'record.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) });
  await page.locator('#error', { hasText: 'The server is busy with other replays; asking again in 1 s' }).waitFor();
  await replayShown(page);
  assert.equal(asked, 2);
  assert.ok(await page.locator('#error').isHidden());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
