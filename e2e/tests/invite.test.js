// End to end: a player creates a match in the lobby and gets their own seat
// and an invite for the opponent, never the umpire's link. The first to open
// the invite takes the seat with its own key; a second opener is told the
// seat is taken and may watch. Every page is served under the content
// security policy and works.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { newPage, startBrowser, startServer } from './helpers.js';

const DESK = { width: 1200, height: 900 };

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

test('a player gets their seat and an invite that works once; never the umpire link', { timeout: 60_000 }, async () => {
  const creator = await newPage(browser, { viewport: DESK });
  await creator.goto(`${server.url}/`);
  await creator.locator('#game option[value="masked-army"]').waitFor({ state: 'attached' });
  await creator.selectOption('#game', 'masked-army');
  await creator.selectOption('#seat-P2', 'person');
  assert.equal(await creator.inputValue('#creator'), 'P1', 'by default the creator plays P1');
  await creator.click('#create-button');
  await creator.locator('#play-link').waitFor();
  const links = Object.fromEntries(
    await creator.$$eval('#links li[data-link]', (lis) => lis.map((li) => [li.dataset.link, li.querySelector('a.link-url')?.href ?? null])),
  );
  assert.deepEqual(Object.keys(links).sort(), ['P1', 'invite', 'spectator'], JSON.stringify(links));
  assert.match(links.invite, /\/i\/[0-9a-f]+\?c=/);
  assert.equal(await creator.locator('#links [data-link="umpire"]').count(), 0, 'no umpire link for a player');
  assert.doesNotMatch(await creator.content(), /umpire link/i);

  // The opponent opens the invite and lands in seat P2 with its own key.
  const opponent = await newPage(browser, { viewport: DESK });
  await opponent.goto(links.invite);
  await opponent.waitForURL(/\/m\/[0-9a-f]+\?t=/);
  await opponent.locator('#role[data-you="P2"]').waitFor();
  assert.notEqual(new URL(opponent.url()).searchParams.get('t'), new URL(links.P1).searchParams.get('t'));

  // The creator plays P1 from the lobby's button.
  await creator.click('#play-link');
  await creator.locator('#role[data-you="P1"]').waitFor();

  // Anyone else who opens the invite sees the seat is taken and may watch.
  const late = await newPage(browser, { viewport: DESK });
  await late.goto(links.invite);
  await late.locator('#invite-status', { hasText: 'This seat is taken.' }).waitFor();
  await late.click('#watch-instead');
  await late.locator('#role').filter({ hasText: 'Spectator' }).waitFor();
  for (const page of [creator, opponent, late]) assert.deepEqual(page.errors, []);
});
