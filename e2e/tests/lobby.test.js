// End to end: the lobby keeps "Your matches" in the browser. A player who
// creates a match and closes the tab finds it again in the lobby, with its
// status, and returns to their seat; an invite opened in a browser is kept
// the same way; an entry can be forgotten. An open match's invite is shown
// only to the browser that made it. The rules page formats a game's rules
// (headings, tables) and never renders raw HTML. On a phone every button
// and link is at least 44 px tall; the lobby can be used from the keyboard.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { getJson, screenshotPath, startBrowser, startServer } from './helpers.js';

const DESK = { width: 1200, height: 900 };
const PHONE = { width: 390, height: 844 };

let server;
let browser;
let games;

before(async () => {
  server = await startServer();
  browser = await startBrowser();
  games = await getJson(`${server.url}/api/games`);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/// One browser profile (its localStorage is shared by its pages).
async function newProfile(options = {}) {
  const context = await browser.newContext({ reducedMotion: 'reduce', viewport: DESK, ...options });
  const open = async (path) => {
    const page = await context.newPage();
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(e.message));
    if (path) await page.goto(`${server.url}${path}`);
    return page;
  };
  return { context, open };
}

/// A game with bots and rules that hold a table and headings.
function someGame() {
  const game = games.find((g) => g.bots?.length && /^\|\s*-/m.test(g.rules ?? '') && /^## /m.test(g.rules ?? ''));
  assert.ok(game, 'a game with bots and rules with a table');
  return game;
}

/// Creates a match from the lobby as P1 against a person; answers its id
/// and the links the lobby shows.
async function createAsPlayer(page, game) {
  await page.locator(`#game option[value="${game.id}"]`).waitFor({ state: 'attached' });
  await page.selectOption('#game', game.id);
  await page.selectOption('#seat-P2', 'person');
  await page.selectOption('#creator', 'P1');
  await page.click('#create-button');
  await page.locator('#play-link').waitFor();
  const links = Object.fromEntries(
    await page.$$eval('#links li[data-link]', (lis) => lis.map((li) => [li.dataset.link, li.querySelector('a.link-url')?.href ?? null])),
  );
  const id = new URL(links.P1).pathname.split('/')[2];
  return { id, links };
}

test('your matches: create, close the tab, come back to the seat, forget it', { timeout: 90_000 }, async () => {
  const game = someGame();
  const me = await newProfile();
  const lobby = await me.open('/');
  assert.equal(await lobby.locator('h1').count(), 1, 'one level-one heading');
  const { id, links } = await createAsPlayer(lobby, game);
  // It is listed at once, waiting for the opponent, with the invite to hand out.
  const entry = lobby.locator(`#mine li[data-mine="${id}"]`);
  await entry.filter({ hasText: 'Waiting for the opponent' }).waitFor();
  assert.deepEqual(lobby.errors, []);
  await lobby.close();

  // The tab is closed; the lobby opened again still knows the match.
  const again = await me.open('/');
  const row = again.locator(`#mine li[data-mine="${id}"]`);
  await row.filter({ hasText: 'Waiting for the opponent' }).waitFor();
  assert.match(await row.textContent(), new RegExp(`${game.name}[\\s\\S]*You play\\s*P1`));
  assert.equal(await row.locator('a.return').getAttribute('href'), new URL(links.P1).pathname + new URL(links.P1).search);
  assert.equal(await row.locator('button[data-copy]').getAttribute('data-copy'), links.invite, 'the invite can be sent again');
  // The open list offers this browser its own invite.
  await again.locator(`#open li[data-match="${id}"] button.invite-copy`).waitFor();
  await again.screenshot({ path: screenshotPath('lobby-mine.png'), fullPage: true });

  // Another browser sees the open match but never its invite.
  const stranger = await newProfile();
  const other = await stranger.open('/');
  await other.locator(`#open li[data-match="${id}"]`).waitFor();
  assert.equal(await other.locator(`#open li[data-match="${id}"] button`).count(), 0);
  assert.doesNotMatch(await other.content(), /\/i\/[0-9a-f]+\?c=/, 'no invite code in a stranger’s lobby');
  assert.doesNotMatch(await other.content(), /\?t=[0-9a-f]{40}/, 'no seat key in a stranger’s lobby');
  await other.locator('#mine li.empty').waitFor();

  // The stranger takes the seat with the invite: their lobby now lists it as theirs.
  const invited = await stranger.open();
  await invited.goto(links.invite);
  await invited.waitForURL(/\/m\/[0-9a-f]+\?t=/);
  await invited.locator('#role[data-you="P2"]').waitFor();
  await other.reload();
  const theirs = other.locator(`#mine li[data-mine="${id}"][data-seat="P2"]`);
  // P1 has not taken their seat yet: the match is still open.
  await theirs.filter({ hasText: 'Waiting for the opponent' }).waitFor();
  assert.match(await theirs.textContent(), new RegExp(`${game.name}[\\s\\S]*You play\\s*P2`));
  assert.equal(await theirs.locator('a.return').getAttribute('href'), new URL(invited.url()).pathname + new URL(invited.url()).search);

  // Back in the first browser: the opponent is here, the invite is spent;
  // return to the seat.
  await row.filter({ hasText: 'Your opponent is here' }).waitFor();
  assert.equal(await row.locator('button[data-copy]').count(), 0, 'a taken seat’s invite is not offered');
  await row.locator('a.return', { hasText: 'Return to your seat' }).click();
  await again.waitForURL(/\/m\/[0-9a-f]+\?t=/);
  await again.locator('#role[data-you="P1"]').waitFor();
  // Now both are here: the match is live in the other browser's list.
  await theirs.filter({ hasText: 'Live' }).waitFor();

  // Forget it, with the keyboard.
  await again.goto(`${server.url}/`);
  const forget = again.locator(`#mine li[data-mine="${id}"] button.forget`);
  await forget.waitFor();
  await forget.focus();
  await again.keyboard.press('Enter');
  await again.locator(`#mine li[data-mine="${id}"]`).waitFor({ state: 'detached' });
  assert.equal(await again.evaluate(() => document.activeElement?.id), 'mine-title', 'focus stays in the list');
  assert.match(await again.textContent('#mine-said'), /Forgot/);
  await again.reload();
  await again.locator('#mine li.empty').waitFor();
  for (const page of [again, other, invited]) assert.deepEqual(page.errors, []);
  await me.context.close();
  await stranger.context.close();
});

test('an open seat is joined from another browser; a rematch swaps the seats when both accept', { timeout: 90_000 }, async () => {
  const host = await newProfile();
  const lobby = await host.open('/');
  await lobby.locator('#game option[value="masked-army"]').waitFor({ state: 'attached' });
  await lobby.selectOption('#game', 'masked-army');
  await lobby.selectOption('#creator', 'P1');
  // Against a bot there is no seat to open.
  assert.equal(await lobby.isDisabled('#open-seat'), true);
  await lobby.selectOption('#seat-P2', 'person');
  assert.equal(await lobby.isDisabled('#open-seat'), false);
  await lobby.check('#open-seat');
  await lobby.click('#create-button');
  await lobby.locator('#play-link').waitFor();
  const mine = await lobby.getAttribute('#play-link', 'href');
  const id = new URL(mine, server.url).pathname.split('/')[2];
  assert.match(await lobby.textContent('#links li[data-link="invite"]'), /listed in the lobby/);

  // A stranger's lobby offers the seat; joining takes it.
  const stranger = await newProfile();
  const other = await stranger.open('/');
  const join = other.locator(`#open li[data-match="${id}"] a.join`);
  await join.waitFor();
  assert.equal(await join.textContent(), 'Join as P2');
  await join.click();
  await other.waitForURL(/\/m\/[0-9a-f]+\?t=/);
  await other.locator('#role[data-you="P2"]').waitFor();
  // Taken: nobody else is offered it. (The server drops its sorted lists
  // on a claim; a sort under way then can still serve the old lists for up
  // to a second, so the API is asked first.)
  for (let tries = 0; tries < 30; tries++) {
    const lists = await getJson(`${server.url}/api/matches`);
    if (!lists.open.some((m) => m.id === id && m.join)) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  const third = await (await newProfile()).open('/');
  await third.locator(`#open li[data-match="${id}"], #live li[data-match="${id}"]`).first().waitFor();
  assert.equal(await third.locator(`li[data-match="${id}"] a.join`).count(), 0, 'a taken seat is not offered');

  // The creator takes their seat; P2 resigns at once.
  const p1 = await host.open(mine);
  await p1.locator('#role[data-you="P1"]').waitFor();
  await other.click('#resign');
  await other.click('#resign');
  for (const page of [p1, other]) await page.locator('#end:not([hidden])').waitFor();
  assert.equal(await p1.textContent('#end-title'), 'You won');

  // Rematch: P1 asks, P2 is asked and accepts; both move on to the new
  // match with the seats swapped.
  const ask = p1.locator('#rematch-button');
  assert.equal(await ask.textContent(), 'Rematch');
  await ask.click();
  await p1.locator('#rematch-status').filter({ hasText: 'Waiting for Blue to accept' }).waitFor();
  await other.locator('#rematch-status').filter({ hasText: 'Red asks for a rematch' }).waitFor();
  const accept = other.locator('#rematch-button');
  assert.equal(await accept.textContent(), 'Accept the rematch');
  await other.screenshot({ path: screenshotPath('rematch.png') });
  await accept.click();
  for (const page of [p1, other]) {
    await page.waitForURL((url) => url.pathname !== `/m/${id}` && /^\/m\/[0-9a-f]+$/.test(url.pathname));
  }
  const next = new URL(p1.url()).pathname.split('/')[2];
  assert.equal(new URL(other.url()).pathname.split('/')[2], next);
  await p1.locator('#role[data-you="P2"]').waitFor();
  await other.locator('#role[data-you="P1"]').waitFor();
  assert.equal(await p1.getAttribute('body', 'data-over'), 'no');
  // "Your matches" leads to the rematch's seat too.
  const back = await host.open('/');
  await back.locator(`#mine li[data-mine="${next}"][data-seat="P2"]`).waitFor();
  for (const page of [lobby, other, third, p1, back]) assert.deepEqual(page.errors, []);
  await host.context.close();
  await stranger.context.close();
});

test('the rules page formats the rules and shows raw HTML as text', { timeout: 60_000 }, async () => {
  const game = someGame();
  const { context, open } = await newProfile();
  // The lobby links to the chosen game's rules.
  const lobby = await open('/');
  await lobby.locator(`#game option[value="${game.id}"]`).waitFor({ state: 'attached' });
  await lobby.selectOption('#game', game.id);
  await lobby.click('#rules-link');
  await lobby.waitForURL(`${server.url}/rules/${game.id}`);
  await lobby.locator('h1', { hasText: `Rules of ${game.name}` }).waitFor();
  await lobby.locator('#rules-body table').first().waitFor();
  assert.equal(await lobby.locator('h1').count(), 1, 'one level-one heading');
  assert.ok((await lobby.locator('#rules-body h2').count()) >= 2, 'headings');
  assert.ok((await lobby.locator('#rules-body th').count()) >= 2, 'a table with its head');
  const text = await lobby.textContent('#rules-body');
  assert.doesNotMatch(text, /^\s*#{1,6} /m, 'no raw heading marks');
  assert.doesNotMatch(text, /\|\s*-{3,}/, 'no raw table rules');
  assert.doesNotMatch(text, /\*\*/, 'no raw bold marks');
  await lobby.screenshot({ path: screenshotPath('rules.png'), fullPage: false });
  // The rules lead back to the lobby with the game chosen.
  const rulesUrl = lobby.url();
  await lobby.click(`a.button:has-text("Play ${game.name}")`);
  await lobby.waitForURL(/\/\?game=/);
  await lobby.locator('#config').waitFor({ state: 'attached' });
  await lobby.waitForFunction((id) => document.getElementById('game').value === id, game.id);
  await lobby.goto(rulesUrl);
  await lobby.locator('#rules-body table').first().waitFor();

  // Raw HTML in Markdown is text, and links go nowhere unsafe.
  const html = await lobby.evaluate(async () => {
    const { rulesHtml } = await import('/static/rules.js');
    return rulesHtml(
      '# X\n\n<script>window.bad = 1</script>\n\nhi <img src=x onerror="window.bad=2"> <b>b</b>\n\n[a](javascript:window.bad=3) [b](https://example.org/)\n',
      'X',
    );
  });
  assert.doesNotMatch(html, /<(script|img|b)[\s>]/, html);
  assert.doesNotMatch(html, /href="javascript/i, html);
  assert.match(html, /&#60;script&#62;/);
  assert.match(html, /<a href="https:\/\/example.org\/">b<\/a>/);
  assert.doesNotMatch(html, /<h1/, 'the page’s title is its only level-one heading');

  // An unknown game: a page that says so and lists the others.
  const none = await open('/rules/no-such-game');
  await none.locator('h1', { hasText: 'No such game' }).waitFor();
  await none.locator('#rules-list a').first().waitFor();
  for (const page of [lobby, none]) assert.deepEqual(page.errors, []);
  await context.close();
});

test('on a phone every button and link is at least 44 px tall', { timeout: 60_000 }, async () => {
  const game = someGame();
  const { context, open } = await newProfile({ viewport: PHONE, isMobile: true, hasTouch: true });
  const lobby = await open('/');
  await createAsPlayer(lobby, game);
  await lobby.locator('#mine li[data-mine] a.return').waitFor();
  await lobby.locator('#open li[data-match]').first().waitFor();
  const small = async (page) =>
    page.$$eval('main a, main button, main select, header a', (els) =>
      els
        .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
        .filter((el) => !el.closest('.markdown')) // links inside running text
        .map((el) => ({ what: `${el.tagName} ${el.id || el.className} “${el.textContent.trim().slice(0, 30)}”`, h: el.getBoundingClientRect().height }))
        .filter((t) => t.h < 43.5),
    );
  assert.deepEqual(await small(lobby), []);
  const width = await lobby.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `the lobby fits the phone (${width} px)`);
  await lobby.screenshot({ path: screenshotPath('lobby-mine-phone.png'), fullPage: true });
  const rules = await open(`/rules/${game.id}`);
  await rules.locator('#rules-body table').first().waitFor();
  assert.deepEqual(await small(rules), []);
  const rulesWidth = await rules.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(rulesWidth <= PHONE.width, `the rules fit the phone (${rulesWidth} px)`);
  for (const page of [lobby, rules]) assert.deepEqual(page.errors, []);
  await context.close();
});

test('a game’s secret options are offered to a host only', { timeout: 60_000 }, async () => {
  const game = games.find((g) => g.options?.some((o) => o.hidden));
  assert.ok(game, 'a game with a secret option');
  const secret = game.options.find((o) => o.hidden);
  const { context, open } = await newProfile();
  const page = await open('/');
  await page.locator(`#game option[value="${game.id}"]`).waitFor({ state: 'attached' });
  await page.selectOption('#game', game.id);
  const field = page.locator(`#config-${secret.key}`);
  await page.selectOption('#creator', 'P1');
  assert.ok(await field.isDisabled(), 'disabled for a player');
  assert.ok(!(await field.isVisible()), 'hidden from a player');
  await page.selectOption('#creator', 'host');
  assert.ok(await field.isVisible(), 'offered to a host');
  assert.match(await page.textContent(`#config-${secret.key}-about`), /only a host/);
  assert.deepEqual(page.errors, []);
  await context.close();
});

test('no dead ends: the waiting page offers the invite and no bot for nobody; a bot match needs no invite; a finished match offers its replay', { timeout: 90_000 }, async () => {
  const game = someGame();
  const me = await newProfile();
  const lobby = await me.open('/');
  const { id, links } = await createAsPlayer(lobby, game);

  // The creator's own page, while nobody has opened the invite: the invite
  // to copy, and no offer to hand the absent opponent to a bot.
  const seat = await me.open();
  await seat.goto(links.P1);
  await seat.locator('#invite-box:not([hidden])').waitFor();
  assert.equal(await seat.getAttribute('#invite-link', 'href'), links.invite);
  assert.equal(await seat.textContent('#invite-link'), links.invite);
  assert.equal(await seat.isHidden('#takeover'), true, 'nobody to hand to a bot');
  await seat.waitForTimeout(1200);
  assert.equal(await seat.isHidden('#takeover'), true, 'not even once a second has passed');

  // The invite opened elsewhere: the seat is taken, the invite goes.
  const friend = await newProfile();
  const invited = await friend.open();
  await invited.goto(links.invite);
  await invited.locator('#role[data-you="P2"]').waitFor();
  await seat.locator('#invite-box').waitFor({ state: 'hidden' });
  // The opponent leaves: now the seat's player may hand it to a bot (once
  // the grace period is over, counted down on the button).
  await friend.context.close();
  await seat.locator('#takeover:not([hidden])').waitFor();
  assert.match(await seat.textContent('#takeover'), /Hand the absent opponent to a bot \(in \d+ s\)/);

  // A match against a bot: the lobby says who plays the other seat, and
  // asks for no invite.
  await lobby.selectOption('#seat-P2', game.bots.map((b) => `bot:${b.name}`)[0]);
  // The lobby says what the bot is: its level, and how it plays.
  const bot = game.bots[0];
  assert.equal(await lobby.textContent('#seat-about'), `P2 is the ${bot.name} bot, ${bot.level}: ${bot.about}.`);
  await lobby.selectOption('#creator', 'P1');
  await lobby.click('#create-button');
  await lobby.locator('#created-note').filter({ hasText: 'Bot ' }).waitFor();
  const note = await lobby.textContent('#created-note');
  assert.match(note, new RegExp(`Bot ${game.bots[0].name} plays P2`));
  assert.doesNotMatch(note, /invite/i, note);

  // The first match, resigned: "Your matches" shows its end and its replay.
  await seat.click('#resign');
  await seat.click('#resign');
  await seat.locator('#end:not([hidden])').waitFor();
  await lobby.reload();
  const row = lobby.locator(`#mine li[data-mine="${id}"][data-status="finished"]`);
  await row.waitFor();
  assert.equal(await row.locator('a.return').textContent(), 'See the end');
  assert.equal(await row.locator('a.replay').getAttribute('href'), `/replay/${id}`);
  await row.locator('a.replay').click();
  await lobby.waitForURL(new RegExp(`/replay/${id}$`));
  await lobby.locator('#end:not([hidden])').waitFor();
  for (const page of [lobby, seat]) assert.deepEqual(page.errors, []);
  await me.context.close();
});
