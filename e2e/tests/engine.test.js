// End to end: a game with no board module, played in the browser through the
// generic client alone. Sealed Bids is the engine's test game (served with
// `umpire serve --test-games`): per-seat decision kinds, a clock that a
// secret choice changes without the opponent learning it, and a timeout
// whose effect the game decides and the record keeps.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { getJson, newPage, startBrowser, startServer } from './helpers.js';

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

/// Seconds shown by a clock: `m:ss` or `0:0s.t`.
function seconds(text) {
  const m = /^(\d+):(\d+(?:\.\d)?)$/.exec(text.trim());
  assert.ok(m, `a clock reading: ${text}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/// Polls `check` (in Node) until it is true.
async function until(check, what, ms = 20_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const states = (page) => page.frames.filter((f) => f.type === 'state');
const lastState = (page) => states(page).at(-1);
const accepted = (page, action) => page.frames.filter((f) => f.type === 'accepted' && f.action === action).length;

/// Types an action into the text box and waits until it is accepted.
async function type(page, text) {
  const before = accepted(page, text);
  await page.fill('#move-text', text);
  await page.press('#move-text', 'Enter');
  await until(() => accepted(page, text) > before, `\`${text}\` accepted`);
  assert.equal(await page.isHidden('#error'), true, `${text}: ${await page.textContent('#error')}`);
}

/// Clicks the generic button for a legal action and waits until it is accepted.
async function click(page, text) {
  const before = accepted(page, text);
  await page.click(`#board .legal-actions button[data-action="${text}"]`);
  await until(() => accepted(page, text) > before, `\`${text}\` accepted`);
}

const turn = (page, text) => page.locator('#turn').filter({ hasText: new RegExp(`^${text.replace(/[.()]/g, '\\$&')}$`) }).waitFor();
const buttons = (page) => page.$$eval('#board .legal-actions button', (bs) => bs.map((b) => b.dataset.action));

test('Sealed Bids in the generic client: options, per-seat prompts, a covered clock, a timeout in the record', { timeout: 60_000 }, async () => {
  // The lobby offers the game's own options, with no word of it in lobby.js.
  const lobby = await newPage(browser, { viewport: DESK });
  await lobby.goto(`${server.url}/`);
  await lobby.locator(`#game option[value="${GAME}"]`).waitFor({ state: 'attached' });
  assert.match(await lobby.textContent(`#game option[value="${GAME}"]`), /text only/);
  await lobby.selectOption('#game', GAME);
  const variant = lobby.locator('select[name="config.variant"]');
  await variant.waitFor();
  assert.deepEqual(await variant.evaluate((el) => [...el.options].map((o) => o.value)), ['sound', 'leaky-view', 'narrow-sample', 'strict']);
  assert.equal(await variant.inputValue(), 'sound');
  assert.match(await lobby.textContent('#config'), /^Variant\s*sound.*A broken variant, for testing the tests, or `strict`: out of time loses$/s);
  await lobby.selectOption('#seat-P2', 'person');
  // A host who does not play gets both seats' links (and the umpire's).
  await lobby.selectOption('#creator', 'host');
  await lobby.click('#create-button');
  await lobby.locator('#watch-link').waitFor();
  const links = Object.fromEntries(
    await lobby.$$eval('#links li[data-link]', (lis) => lis.map((li) => [li.dataset.link, li.querySelector('a.link-url')?.href ?? null])),
  );
  assert.ok(links.P1 && links.P2 && links.spectator, JSON.stringify(links));
  const id = new URL(links.spectator).pathname.split('/')[2];
  await lobby.context().close();

  // Both seats bid at once; each page builds its prompt from its own
  // decision's kind and offers the legal actions as buttons. A spectator
  // watches from the start.
  const p1 = await newPage(browser, { viewport: DESK });
  const p2 = await newPage(browser, { viewport: DESK });
  const spectator = await newPage(browser, { viewport: DESK });
  await Promise.all([p1.goto(links.P1), p2.goto(links.P2), spectator.goto(links.spectator)]);
  await Promise.all([turn(p1, 'Your turn: bid.'), turn(p2, 'Your turn: bid.')]);
  await turn(spectator, 'Player 1 and Player 2 to decide (bid).');
  for (const page of [p1, p2]) {
    assert.equal(await page.locator('#board pre.raw-view').count(), 1, 'the raw view');
    assert.equal(await page.locator('link[data-board]').count(), 0, 'no board stylesheet');
    assert.deepEqual(await buttons(page), ['bid 1', 'bid 2', 'bid 3', 'ponder']);
  }
  const prizes = lastState(p1).view.prizes;
  assert.equal(prizes.length, 3);

  // P1 ponders in secret: its own bid now has 20 s, while P2 sees P1's
  // public 30 s clock go on as before.
  const seenBefore = seconds(await p2.textContent('#clock-P1-turn'));
  assert.ok(seenBefore <= 30, `P2 sees P1's public clock: ${seenBefore}`);
  await type(p1, 'ponder');
  // (Under load the new state can be drawn a few seconds late: any second
  // of the new 20 s will do.)
  await p1
    .waitForFunction(() => /^0:(1\d|20)$/.test(document.querySelector('#clock-P1-turn').textContent))
    .catch(async () => assert.fail(`P1's clock shows ${await p1.textContent('#clock-P1-turn')}; its last state: ${JSON.stringify(lastState(p1)?.clocks)}`));
  assert.ok(lastState(p1).clocks.P1.turn_ms > 15_000, 'P1 has 20 s now');
  await p2.waitForTimeout(300);
  const seenAfter = seconds(await p2.textContent('#clock-P1-turn'));
  assert.ok(seenAfter <= seenBefore, `P2 sees P1's clock go on: ${seenBefore} then ${seenAfter}`);
  // Exactly: P1's public clock has run as long as P2's own (both started
  // with the round), for P2 and for a spectator.
  const asP2 = await getJson(`${server.url}/api/matches/${id}?t=${new URL(links.P2).searchParams.get('t')}`);
  assert.equal(asP2.clocks.P1.overtime, false);
  if (asP2.clocks.P2.turn_ms > 0) {
    assert.equal(30_000 - asP2.clocks.P1.turn_ms, 10_000 - asP2.clocks.P2.turn_ms, JSON.stringify(asP2.clocks));
  }
  const asSpectator = await getJson(`${server.url}/api/matches/${id}`);
  assert.equal(asSpectator.clocks.P1.turn_ms, asSpectator.clocks.P2.turn_ms, JSON.stringify(asSpectator.clocks));

  // P1 bids 3 and must confirm it; P2 still sees P1 bidding.
  await type(p1, 'bid 3');
  await turn(p1, 'Your turn: confirm.');
  assert.deepEqual(await buttons(p1), ['confirm']);
  assert.match(await p1.textContent('#clock-P1-bank'), /no overtime/);
  await turn(p2, 'Your turn: bid.');

  // A refused bid gets the engine's reason; then P2 bids 1 by its button.
  await p2.fill('#move-text', 'bid 7');
  await p2.press('#move-text', 'Enter');
  await p2.locator('#error:not([hidden])').waitFor();
  assert.match(await p2.textContent('#error'), /^a bid is 1, 2 or 3, not 7 \(bid-range\)$/);
  await click(p2, 'bid 1');
  await turn(p2, 'Player 1 to decide (bid).');
  assert.deepEqual(await buttons(p2), []);
  await turn(spectator, 'Player 1 and Player 2 to decide (bid).');

  // Everything P2 and the spectator were sent in round 1 shows P1 bidding
  // on its public clock: no sign of the ponder, the bid or the confirmation.
  // The spectator sees both seats' clocks alike.
  for (const [who, page] of [['P2', p2], ['spectator', spectator]]) {
    const round1 = states(page).filter((s) => s.view.round === 0);
    assert.ok(round1.length >= 1, `${who} got states in round 1`);
    let previous = Infinity;
    for (const s of round1) {
      assert.deepEqual(s.decision.P1, { kind: 'bid', step: 0, simultaneous: true }, `${who} sees P1's public decision`);
      assert.equal(s.view.sealed.P1, null, `${who} does not see P1's sealed part`);
      const clock = s.clocks.P1;
      assert.equal(clock.overtime, false, `${who}: P1's public clock`);
      assert.ok(clock.turn_ms <= previous && clock.turn_ms <= 30_000, `${who}: P1's clock never restarts (${clock.turn_ms} after ${previous})`);
      previous = clock.turn_ms;
      if (who === 'spectator') assert.deepEqual(s.clocks.P2, s.clocks.P1, 'the spectator sees both clocks alike');
    }
  }

  // P1 never confirms: after its 5 s (and the lag allowance) the game lets
  // the 3 stand, and P1 takes the first prize.
  await p1.waitForFunction(() => document.querySelector('#turn').textContent === 'Your turn: bid.', null, { timeout: 15_000 });
  await until(() => lastState(p2).view.round === 1, 'round 2 on P2’s page');
  assert.deepEqual(lastState(p2).view.points, { P1: prizes[0], P2: 0 });

  // Round 2: P1 by its button, P2 by the text box. Round 3: P2 bids 3 and confirms.
  await click(p1, 'bid 2');
  await turn(p1, 'Player 2 to decide (bid).');
  await type(p2, 'bid 1');
  await turn(p1, 'Your turn: bid.');
  await type(p1, 'bid 1');
  await type(p2, 'bid 3');
  await turn(p2, 'Your turn: confirm.');
  await type(p2, 'confirm');

  // The end, and the record with the timeout and what it did.
  await p1.locator('#end:not([hidden])').waitFor();
  const href = await p1.getAttribute('#record-link', 'href');
  const record = await getJson(new URL(href, server.url).href);
  assert.equal(record.game, GAME);
  assert.deepEqual(record.config, { variant: 'sound' });
  assert.deepEqual(
    record.actions.map((a) => `${a.seat} ${a.action}`),
    ['P1 ponder', 'P1 bid 3', 'P2 bid 1', 'P1 timeout', 'P1 bid 2', 'P2 bid 1', 'P1 bid 1', 'P2 bid 3', 'P2 confirm'],
  );
  const timeout = record.actions[3];
  assert.equal(timeout.effect, "P1's bid of 3 stands");
  const bid3 = record.actions[1];
  assert.ok(timeout.at_ms - bid3.at_ms >= 5_000 + 1_500, `the timeout came after 5 s and the lag allowance (${timeout.at_ms - bid3.at_ms} ms)`);
  const scores = { P1: prizes[0] + prizes[1], P2: prizes[2] };
  assert.deepEqual(record.outcome.scores, scores);
  const title = scores.P1 > scores.P2 ? 'You won' : scores.P1 < scores.P2 ? 'You lost' : 'Draw';
  assert.equal(await p1.textContent('#end-title'), title);

  // The replay page shows the timeout's effect too.
  const rp = await newPage(browser, { viewport: DESK });
  await rp.goto(`${server.url}/replay/${id}`);
  await rp.locator('#end:not([hidden])').waitFor();
  assert.match(await rp.textContent('#moves'), /Player 1’s time ran out: Player 1’s bid of 3 stands/);

  for (const page of [p1, p2, spectator, rp]) assert.deepEqual(page.errors, []);
});
