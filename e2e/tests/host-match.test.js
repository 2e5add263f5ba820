// A host's match with a player at the page: a mixed match (one player in
// the browser, the other through the console), the host's final call on
// Four Statements each way, and the console's clock warnings.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';

import { getJson, newPage, screenshotPath, startBrowser, startServer } from './helpers.js';
import { NAMES, botRecord, checkCopies, enter, hostMatch, openConsole, stepped } from './hosting.js';

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

/// A seat's match page, loaded.
async function seatPage(made, seat) {
  const page = await newPage(browser, { viewport: { width: 1200, height: 900 } });
  await page.goto(`${server.url}${made.links[seat]}`);
  await page.waitForFunction(() => document.body.dataset.seq !== undefined, null, { timeout: 15_000 });
  return page;
}

/// Types `action` in a player's page; waits for its answer, `accepted` or
/// `error`, and returns it.
async function play(page, action) {
  const before = page.frames.length;
  await page.fill('#move-text', action);
  await page.press('#move-text', 'Enter');
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = page.frames.slice(before).find((f) => f.type === 'accepted' || f.type === 'error');
    if (answer) return answer;
    assert.ok(Date.now() < deadline, `no answer to \`${action}\``);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/// The console's log, as text.
const logText = (console) => console.textContent('#log');

test('a mixed match: Bo at the page, Ada through the host; the record marks the host', { timeout: 240_000 }, async () => {
  const record = await botRecord('masked-army', 7);
  const made = await hostMatch(server, record);
  const host = await openConsole(browser, server, made);
  const bo = await seatPage(made, 'P2');
  // The page calls the players by name.
  await bo.waitForFunction(() => document.getElementById('role').textContent.includes('Bo Li'));
  assert.match(await bo.textContent('#turn'), /Ada/);
  // A refusal at the page reaches the host; so does a question.
  const refused = await play(bo, 'Z9 Z10');
  assert.equal(refused.type, 'error');
  await host.waitForFunction(() => document.getElementById('log').textContent.includes('the umpire refused it'));
  await bo.fill('#move-text', 'E5 F5');
  await bo.click('#ask-host');
  await host.waitForFunction(() => document.getElementById('log').textContent.includes('Bo Li (P2) asks you about E5 F5'));
  await bo.waitForFunction(() => document.getElementById('asked').textContent.includes('The host has the final call'));
  for (const [i, entry] of record.actions.entries()) {
    if (i === 12) {
      await host.setViewportSize({ width: 1280, height: 1400 });
      await host.evaluate(() => {
        document.activeElement?.blur();
        window.scrollTo(0, 0);
      });
      await host.screenshot({ path: screenshotPath('host-console.png') });
      // Bo's picture mid-match: only what Bo may see.
      const picture = await host.getAttribute('#picture-P2', 'src');
      fs.writeFileSync(screenshotPath('host-picture.png'), Buffer.from(picture.split(',')[1], 'base64'));
    }
    if (entry.seat === 'P1') {
      await enter(host, 'P1', entry.action);
    } else {
      const seq = Number(await host.evaluate(() => document.body.dataset.seq));
      const answer = await play(bo, entry.action);
      assert.equal(answer.type, 'accepted', `${entry.action}: ${answer.message}`);
      await stepped(host, seq);
    }
  }
  await checkCopies(host, server, made);
  await host.waitForSelector('#result:not([hidden])');
  await host.waitForFunction(() => document.getElementById('picture-result').dataset.seq === document.body.dataset.seq);
  await host.locator('#result').screenshot({ path: screenshotPath('host-result.png') });
  const played = await getJson(`${server.url}/api/matches/${made.id}/record`);
  for (const e of played.actions) assert.equal(e.by, e.seat === 'P1' ? 'host' : undefined, `${e.seat} ${e.action}`);
  const replay = await getJson(`${server.url}/api/matches/${made.id}/replay`);
  assert.equal(replay.steps.length, played.actions.length + 1);
  // The replay page says which actions the host entered, by name.
  const page = await newPage(browser);
  await page.goto(`${server.url}/replay/${made.id}`);
  await page.waitForSelector('.move-button');
  const moves = await page.textContent('#moves');
  assert.ok(moves.includes(`${NAMES.P1} (`) && moves.includes('(entered by the host)'), moves);
  assert.ok(moves.includes(`${NAMES.P2} (`));
  await Promise.all([host, bo, page].map((p) => p.context().close()));
});

const LAYOUT = 'RRBG YGBR BBRY GYRG';
const SUBSET = 'A1 B1 A2 B2';
const REST = 'There is a blue tile.; There is a green tile.; There is a yellow tile.';
const bluff = (first) => `subset ${SUBSET}; ${first}; ${REST}`;

test('the host overrules the umpire each way in Four Statements; replay honours both', { timeout: 120_000 }, async () => {
  const config = { layout: LAYOUT, known_p1: 'A1 B1 C1 D1', known_p2: 'A4 B4 C4 D4', max_rounds: 3 };
  const made = await hostMatch(server, { game: 'four-statements', config, seed: 1 });
  const host = await openConsole(browser, server, made);
  const bo = await seatPage(made, 'P2');
  // Ada's valid bluff, entered by the host; then the host refuses a
  // statement of it, which sends the bluff back.
  await enter(host, 'P1', bluff('There is a red tile.'));
  const refuse = `refuse subset ${SUBSET}; There is a red tile.; reason too easy for a final`;
  await enter(host, 'P1', refuse, { field: 'ruling' });
  assert.match(await host.textContent('#pending-P1'), /^Ada to /);
  const again = await enter(host, 'P1', bluff('There is a red tile.'), { expect: 'bad' });
  assert.match(again.text, /refused by the host: too easy for a final/);
  // Bo's statement the umpire refuses; the host accepts it.
  const twice = 'There is a red tile and a red tile.';
  const first = await play(bo, bluff(twice));
  assert.equal(first.rule, 'every-part-matters', first.message);
  await host.waitForFunction(() => document.getElementById('log').textContent.includes('every-part-matters'));
  await enter(host, 'P2', `accept subset ${SUBSET}; ${twice}; reason we read it as one red tile`, { field: 'ruling' });
  await host.evaluate(() => document.activeElement?.blur());
  await host.locator('#seat-P2').screenshot({ path: screenshotPath('host-ruling.png') });
  const seq = Number(await host.evaluate(() => document.body.dataset.seq));
  const accepted = await play(bo, bluff(twice));
  assert.equal(accepted.type, 'accepted', accepted.message);
  await stepped(host, seq);
  await enter(host, 'P1', bluff('There are two red tiles.'));
  // Both bluffs are in: each player sees both reasons.
  await bo.waitForFunction(() => document.body.textContent.includes('too easy for a final'));
  await bo.locator('.fs-rulings').screenshot({ path: screenshotPath('host-rulings-player.png') });
  const texts = await checkCopies(host, server, made);
  assert.ok(texts.P1.includes("the host accepted Bo Li's statement “There is a red tile and a red tile.”: we read it as one red tile"), texts.P1);
  assert.ok(texts.P2.includes("the host refused one of Ada's statements: too easy for a final"), texts.P2);
  // The record holds both rulings and replays; without its host it is refused.
  await host.click('#resign-P1');
  await host.click('#resign-P1');
  await host.waitForSelector('#result:not([hidden])');
  const record = await getJson(`${server.url}/api/matches/${made.id}/record`);
  const rulings = record.actions.filter((e) => e.by === 'umpire').map((e) => [e.seat, e.action.split(' ')[0]]);
  assert.deepEqual(rulings, [['P1', 'refuse'], ['P2', 'accept']]);
  const replay = await getJson(`${server.url}/api/matches/${made.id}/replay`);
  assert.equal(replay.steps.length, record.actions.length + 1);
  const res = await fetch(`${server.url}/api/replay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...record, host: false }) });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /this match has no host/);
  await Promise.all([host, bo].map((p) => p.context().close()));
});

test('the console warns the host before a clock runs out', { timeout: 60_000 }, async () => {
  // Sealed Bids gives 10 s a bid: under the warning's 30 s from the start.
  const made = await hostMatch(server, { game: 'sealed-bids', config: {}, seed: 3 }, { timed: true });
  const host = await openConsole(browser, server, made);
  await host.waitForSelector('#warnings [data-seat="P1"]');
  const warning = await host.textContent('#warnings');
  assert.match(warning, /Ada \(P1\)’s turn time has less than 30 seconds left: tell them/);
  assert.equal(await host.getAttribute('#warnings', 'role'), 'alert');
  assert.match(await host.textContent('#turn'), /Their clocks run/);
  // Entered in time, the warning goes.
  await enter(host, 'P1', 'bid 2');
  await host.waitForFunction(() => !document.querySelector('#warnings [data-seat="P1"]'));
  await host.context().close();
});
