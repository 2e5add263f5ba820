// Accessibility: axe-core (WCAG 2.0/2.1 A and AA, and best practice) on
// every kind of page the client serves, in headless Chromium against a real
// `umpire serve`, each on a desk (1280×800) and on a phone (390×844): the
// lobby, every rules page, a match as a seat, a spectator and the umpire,
// each game's board as a seat with an action waiting for confirmation, the
// creator's page waiting for the opponent, the match log and the chat, the
// end screen of a finished match, its replay, and the invite page. No
// violation at all, and each page has exactly one h1.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';

import { getJson, newPage, postJson, replayShown, screenshotPath, startBrowser, startServer } from './helpers.js';

const require = createRequire(import.meta.url);
// The pages' Content-Security-Policy (script-src 'self') refuses an injected
// <script> (page.addScriptTag), so axe's source is evaluated through the
// DevTools protocol instead, which the policy does not govern; the pages
// themselves run under their real policy.
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const DESK = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const GAMES = ['masked-army', 'flower-domain', 'four-statements', 'bomb-domain', 'pentomino-wall'];

let server;
let browser;

before(async () => {
  // Bot matches at a quicker pace than the default 0.7 s a move, so that
  // the end screens' test does not hang on the machine's speed.
  server = await startServer({ args: ['--bot-pace-ms', '150'] });
  browser = await startBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/// Runs axe on the page as it is now, at its size and then at the other
/// (desk or phone); fails on any violation (listing each) and unless the
/// page has exactly one h1.
async function audit(page, where) {
  const size = page.viewportSize();
  const other = size.width === DESK.width ? PHONE : DESK;
  await auditNow(page, `${where} (${size.width} px)`);
  await page.setViewportSize(other);
  await page.waitForTimeout(150);
  await auditNow(page, `${where} (${other.width} px)`);
  await page.setViewportSize(size);
}

async function auditNow(page, where) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const result = await page.evaluate(() =>
    window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    }),
  );
  const bad = result.violations;
  const said = bad
    .map((v) => {
      const targets = v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}${n.failureSummary ? ` [${n.failureSummary.split('\n').slice(1, 2).join('').trim()}]` : ''}`);
      return `  ${v.id} (${v.impact}): ${v.help}\n    ${targets.join('\n    ')}${v.nodes.length > 4 ? `\n    … and ${v.nodes.length - 4} more` : ''}`;
    })
    .join('\n');
  assert.equal(bad.length, 0, `${where}: axe finds ${bad.length} violation(s):\n${said}`);
  const h1s = await page.evaluate(() => document.querySelectorAll('h1').length);
  assert.equal(h1s, 1, `${where}: ${h1s} h1 elements, not exactly one`);
  assert.deepEqual(page.errors, [], `${where}: script errors`);
}

/// A match's page, once the match has loaded (its first state drawn).
async function openMatch(link, viewport = DESK, settings = null) {
  const page = await newPage(browser, { viewport, settings });
  await page.goto(`${server.url}${link}`);
  await page.waitForFunction(() => document.body.dataset.seq !== undefined, null, { timeout: 15_000 });
  // Let the board settle (a bot's first reply, fonts).
  await page.waitForTimeout(300);
  return page;
}

test('the lobby', { timeout: 30_000 }, async () => {
  const page = await newPage(browser, { viewport: DESK });
  await page.goto(`${server.url}/`);
  await page.locator('#game option[value="masked-army"]').waitFor({ state: 'attached' });
  await audit(page, 'lobby');
  await page.context().close();
});

for (const game of GAMES) {
  test(`${game}'s rules page, with its examples drawn`, { timeout: 120_000 }, async () => {
    const page = await newPage(browser, { viewport: DESK });
    await page.goto(`${server.url}/rules/${game}`);
    await page.locator('#rules-body p').first().waitFor();
    await audit(page, `rules of ${game}`);
    await page.context().close();
  });
}

test('a Masked Army match as a seat, a spectator and the umpire', { timeout: 45_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'masked-army',
    timed: true,
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
  });
  for (const who of ['P1', 'spectator', 'umpire']) {
    const page = await openMatch(made.links[who]);
    await audit(page, `match as ${who}`);
    await page.context().close();
  }
});

for (const game of GAMES.filter((g) => g !== 'masked-army')) {
  test(`${game}'s board as a seat`, { timeout: 45_000 }, async () => {
    const made = await postJson(`${server.url}/api/matches`, {
      game,
      timed: true,
      seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
    });
    const page = await openMatch(made.links.P1, DESK, { 'umpire.confirm-moves': 'on', 'umpire.sound': 'off' });
    await audit(page, `${game} as P1`);
    // After a first click on the board: an action waiting for confirmation
    // in the action bar, drawn on the board (or, where the first button
    // only starts a choice, that choice).
    const button = page.locator('#board button:not([disabled])').first();
    if (await button.count()) {
      await button.click();
      const staged = await page.locator('#confirm-bar:not([hidden])').waitFor({ timeout: 2_000 }).then(() => true, () => false);
      await audit(page, `${game} as P1, ${staged ? 'an action waiting for confirmation' : 'after a click on the board'}`);
    }
    await page.context().close();
  });
}

// Three matches between bots, played out at once at 0.15 s a move (Four
// Statements ends after two rounds, as random bots never guess): each
// audited once in play as a spectator, then left to finish with no page
// open (a page drawing every state of three matches at once starves a
// loaded machine), then its end screen as a spectator and as the umpire,
// and its replay.
test('the end screen of finished matches, and their replays', { timeout: 600_000 }, async () => {
  const configs = { 'masked-army': {}, 'flower-domain': {}, 'four-statements': { max_rounds: 2 } };
  await Promise.all(
    Object.entries(configs).map(async ([game, config]) => {
      const made = await postJson(`${server.url}/api/matches`, {
        game,
        config,
        timed: false,
        seats: { P1: { kind: 'bot', bot: 'random' }, P2: { kind: 'bot', bot: 'random' } },
      });
      const page = await openMatch(made.links.spectator);
      await page.waitForFunction(() => Number(document.body.dataset.seq) >= 6 || document.body.dataset.over === 'yes', null, { timeout: 60_000 });
      await audit(page, `${game} in play (spectator)`);
      await page.context().close();
      await finished(made.id, 300_000);

      const spectator = await openMatch(made.links.spectator);
      await spectator.locator('#end:not([hidden])').waitFor();
      await audit(spectator, `${game} end screen (spectator)`);
      await spectator.context().close();

      const umpire = await openMatch(made.links.umpire);
      await umpire.locator('#end:not([hidden])').waitFor();
      await audit(umpire, `${game} end screen (umpire)`);
      await umpire.context().close();

      const replay = await newPage(browser, { viewport: DESK });
      await replay.goto(`${server.url}/replay/${made.id}`);
      await replayShown(replay);
      await audit(replay, `${game} replay (last step)`);
      await replay.click('#first');
      await replay.click('#next');
      await audit(replay, `${game} replay (step 1)`);
      await replay.context().close();
    }),
  );
});

/// Waits (asking the server every half second) until the match has an
/// outcome; fails after `limit` ms with the last state seen.
async function finished(id, limit) {
  const until = Date.now() + limit;
  let state;
  while (Date.now() < until) {
    state = await getJson(`${server.url}/api/matches/${id}`);
    if (state.outcome) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`match ${id} not over after ${limit} ms: seq ${state?.seq}, decision ${JSON.stringify(state?.decision)}`);
}

test('a seat’s end screen, with the rematch offer', { timeout: 60_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'masked-army',
    timed: false,
    seats: { P1: { kind: 'person' }, P2: { kind: 'person' } },
  });
  const p1 = await openMatch(made.links.P1);
  const p2 = await openMatch(made.links.P2);
  // The chat, with lines of both players.
  for (const [page, text] of [[p1, 'good luck'], [p2, 'you too <b>!</b>']]) {
    await page.fill('#chat-text', text);
    await page.click('#chat-form button[type="submit"]');
  }
  await p1.locator('#chat-players .chat-line').nth(1).waitFor();
  await audit(p1, 'a match with chat as a seat');
  await p1.locator('#resign').click();
  await p1.locator('#resign').click();
  await p1.locator('#rematch-button:not([hidden])').click();
  await p2.locator('#rematch-button', { hasText: 'Accept the rematch' }).waitFor();
  await audit(p1, 'end screen as a seat, rematch asked');
  await audit(p2, 'end screen as a seat, rematch offered');
  // Its replay, with the players' chat.
  const replay = await newPage(browser, { viewport: DESK });
  await replay.goto(`${server.url}/replay/${made.id}`);
  await replayShown(replay);
  await replay.locator('#chat-box:not([hidden]) .chat-line').nth(1).waitFor();
  await audit(replay, 'replay with the chat');
  await Promise.all([p1, p2, replay].map((p) => p.context().close()));
});

test('a match page for a link that opens nothing', { timeout: 30_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'masked-army',
    timed: true,
    seats: { P1: { kind: 'person' }, P2: { kind: 'person' } },
  });
  for (const [what, link] of [
    ['unknown match', '/m/00000000'],
    ['refused key', `/m/${made.id}?t=0000`],
  ]) {
    const page = await newPage(browser, { viewport: DESK });
    await page.goto(`${server.url}${link}`);
    await page.locator('.gone').waitFor();
    await audit(page, `match page, ${what}`);
    await page.context().close();
  }
});

test('the invite page', { timeout: 30_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'masked-army',
    timed: true,
    as: 'P1',
    seats: { P1: { kind: 'person' }, P2: { kind: 'person' } },
  });
  assert.ok(made.links.invite, JSON.stringify(made.links));
  // The first opener takes the seat (and leaves for the match); the next
  // stays on the invite page, told the seat is taken.
  const first = await newPage(browser, { viewport: DESK });
  await first.goto(`${server.url}${made.links.invite}`);
  await first.waitForURL(/\/m\/[0-9a-f]+\?t=/);
  await first.context().close();
  const late = await newPage(browser, { viewport: DESK });
  await late.goto(`${server.url}${made.links.invite}`);
  await late.locator('#invite-status', { hasText: 'This seat is taken.' }).waitFor();
  await audit(late, 'invite page');
  await late.context().close();
});

test('the lobby with matches: a match just created, its links and the lists', { timeout: 30_000 }, async () => {
  const page = await newPage(browser, { viewport: DESK });
  await page.goto(`${server.url}/`);
  await page.locator('#game option[value="masked-army"]').waitFor({ state: 'attached' });
  await page.selectOption('#game', 'masked-army');
  await page.selectOption('#seat-P2', 'person');
  await page.click('#create-button');
  await page.locator('#play-link').waitFor();
  await page.waitForTimeout(300);
  await audit(page, 'lobby with a match created');
  // The creator's page while the opponent has not come: the invite.
  await page.click('#play-link');
  await page.locator('#invite-box:not([hidden])').waitFor();
  await audit(page, 'the creator’s page, waiting with the invite');
  await page.context().close();
});

test('the host’s console, on a desk and on a phone, and by keyboard alone', { timeout: 90_000 }, async () => {
  const body = { game: 'four-statements', host: true, timed: true, names: { P1: 'Ada', P2: 'Bo Li' } };
  const made = await postJson(`${server.url}/api/matches`, body);
  for (const [name, viewport] of [['desk', DESK], ['phone', PHONE]]) {
    const page = await newPage(browser, { viewport });
    await page.goto(`${server.url}${made.links.console}`);
    await page.waitForFunction(() => document.body.dataset.pictured !== undefined, null, { timeout: 20_000 });
    await audit(page, `host's console (${name})`);
    // Nothing is wider than the screen.
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= viewport.width, `${name}: the console is ${wide} px wide`);
    if (name === 'phone') await page.screenshot({ path: screenshotPath('host-console-phone.png') });
    await page.context().close();
  }
  // By keyboard: Tab reaches Ada's box, Enter enters her action, the
  // answer is said; Tab goes on to the check, the ruling and the copies.
  const page = await newPage(browser, { viewport: PHONE });
  await page.goto(`${server.url}${made.links.console}`);
  await page.waitForFunction(() => document.body.dataset.pictured !== undefined, null, { timeout: 20_000 });
  const reached = [];
  for (let i = 0; i < 40 && !reached.includes('action-P1'); i++) {
    await page.keyboard.press('Tab');
    reached.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent.trim()));
  }
  assert.ok(reached.includes('action-P1'), `Tab reaches Ada's box: ${reached.join(', ')}`);
  await page.keyboard.type('subset A1 B1 A2 B2; There is a red tile.; There is a blue tile.; There is a green tile.; There is a yellow tile.');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('answer-P1').dataset.kind === 'ok', null, { timeout: 20_000 });
  const order = [];
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    order.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent.trim()));
  }
  for (const control of ['check-P1', 'ruling-P1', 'Copy the message']) assert.ok(order.some((c) => c.startsWith(control)), `${control} in ${order.join(', ')}`);
  await audit(page, 'host’s console after an entry (phone)');
  await page.context().close();
});
