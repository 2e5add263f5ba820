// End to end: Pentomino Wall in headless Chromium against a real `umpire
// serve`. A match against the random bot played to the end by clicking
// only: who drafts first, draft picks (a Double Turn when offered), sealed
// present + set-aside choices with a re-orientation, placements with the
// ghost and a turned piece, an Exchange when affordable, orienting a piece
// the bot swapped in, the round-end choices; the end screen's scoring terms.
// Meanwhile the player's and a spectator's pages and WebSocket frames never
// hold the bot's sealed choice before both are in. Then the keyboard and a
// phone-sized screen.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { getJson, newPage, postJson, screenshotPath, startBrowser, startServer } from './helpers.js';
import { WHOLE_MATCH_MS, playBothSizes, submit } from './whole-match.js';

const DESK = { width: 1200, height: 1100 };
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

const over = (page) => page.evaluate(() => document.body.dataset.over === 'yes');
const toolsKind = (page) => page.evaluate(() => document.querySelector('.pw-tools')?.getAttribute('aria-label') ?? null);
const cells = (page, selector) => page.$$eval(selector, (els) => els.map((e) => e.dataset.cell));
const ownCell = (name) => `.pw-wall[data-wall="P1"] [data-cell="${name}"]`;

/// Waits until the server answered the page's own action (sent after its
/// `from`th frame) and the page shows the state after it. A state caused by
/// the bot meanwhile is not mistaken for the answer.
async function answered(page, from) {
  const deadline = Date.now() + 30_000;
  let ack;
  while (!(ack = page.frames.slice(from).find((f) => f.type === 'accepted' || f.type === 'error'))) {
    assert.ok(Date.now() < deadline, 'the server answers the action');
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(ack.type, 'accepted', `refused: ${JSON.stringify(ack)}`);
  await page.waitForFunction((seq) => Number(document.body.dataset.seq) >= seq, ack.seq, { timeout: 30_000 });
}

/// Until the page must act (tools drawn) or the match is over.
async function waitToAct(page) {
  await page.waitForFunction(
    () => (document.body.classList.contains('my-turn') && document.querySelector('.pw-tools')) || document.body.dataset.over === 'yes',
    null,
    { timeout: 30_000 },
  );
}

/// Every state frame keeps the other seat's sealed choice out: a seat sees
/// only its own, a spectator none, and no legal list goes to a spectator.
function assertFramesSealed(page, viewer) {
  let checked = 0;
  for (const frame of page.frames) {
    if (frame.type !== 'state') continue;
    for (const seat of ['P1', 'P2']) {
      if (seat !== viewer) assert.equal(frame.view.sealed[seat], null, `${viewer} at seq ${frame.seq}: ${seat}'s sealed choice`);
    }
    if (viewer === 'spectator') assert.equal(frame.legal, undefined, 'no legal list for a spectator');
    checked += 1;
  }
  return checked;
}

/// The page's card for P2 while P2's choice is sealed: "sealed", nothing more.
async function assertSealedCard(page, who) {
  const text = await page.textContent('.pw-seat[data-seat="P2"]');
  assert.match(text, /sealed/, `${who}: P2 shows as sealed`);
  assert.doesNotMatch(text, /presents|sets .* aside/, `${who}: P2's choice is not shown`);
}

test('Pentomino Wall against the random bot: draft, sealed turns, placing with the ghost, round ends, end, by clicking', { timeout: 400_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'pentomino-wall',
    timed: true,
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
  });
  const player = await newPage(browser, { viewport: DESK });
  const spectator = await newPage(browser, { viewport: DESK });
  await spectator.goto(`${server.url}${made.links.spectator}`);
  await spectator.locator('#role').filter({ hasText: 'Spectator' }).waitFor();
  await player.goto(`${server.url}${made.links.P1}`);
  await player.locator('#role[data-you="P1"]').waitFor();
  await player.waitForFunction(() => document.querySelector('link[data-board="pentomino-wall"]')?.sheet?.cssRules.length > 0);

  // Two empty 10×9 walls; the whole pool; who drafts first as two buttons.
  await player.locator('.pw-tools[aria-label="Who drafts first"]').waitFor();
  assert.equal(await player.locator('.pw-wall[data-wall="P1"] .pw-cell').count(), 90);
  assert.equal(await player.locator('.pw-wall[data-wall="P2"] .pw-cell').count(), 90);
  assert.equal(await player.locator('.pw-pool .pw-piece').count(), 12);
  assert.equal(await player.textContent('#turn'), 'Your turn: name who drafts first.');
  let from = player.frames.length;
  await player.click('button[data-action="first P1"]');
  await answered(player, from);

  const did = { double: false, exchange: false, turned: false, orient: false, roundEnds: 0, placed: 0, sealedSeen: 0 };
  for (let step = 0; step < 200 && !(await over(player)); step++) {
    await waitToAct(player);
    if (await over(player)) break;
    const kind = await toolsKind(player);
    from = player.frames.length;
    if (kind === 'Draft') {
      const picks = await player.$$eval('.pw-tools [data-take]', (bs) => bs.map((b) => b.dataset.take));
      assert.ok(picks.length > 0, 'the pool offers pieces');
      if (!did.double && (await player.locator('button[data-tool="double"]').count())) {
        // A Double Turn: press it, then two pieces.
        const credits = Number(await player.getAttribute('.pw-seat[data-seat="P1"] .pw-credits', 'data-credits'));
        assert.ok(credits >= 2, `Double Turn offered with ${credits} credits`);
        await player.click('button[data-tool="double"]');
        await player.click(`.pw-tools [data-take="${picks[0]}"]`);
        assert.match(await player.textContent('.pw-tools p'), new RegExp(`Double Turn: ${picks[0]} and one more`));
        await player.click(`.pw-tools [data-take="${picks[1]}"]`);
        did.double = true;
      } else {
        await player.click(`.pw-tools [data-take="${picks[0]}"]`);
      }
    } else if (kind === 'Present and set aside') {
      // The bot seals at once: neither page shows its choice, only that
      // it is in.
      const sealedBadge = () => document.querySelector('.pw-seat[data-seat="P2"] .pw-badge')?.textContent === 'sealed';
      await player.waitForFunction(sealedBadge);
      await spectator.waitForFunction(sealedBadge);
      await assertSealedCard(player, 'player');
      await assertSealedCard(spectator, 'spectator');
      did.sealedSeen += 1;
      const hand = await player.$$eval('.pw-tools [data-present]', (bs) => bs.map((b) => b.dataset.present));
      await player.click(`.pw-tools [data-present="${hand[0]}"]`);
      await player.click('.pw-tools button[data-tool="cw"]');
      const oriented = (await player.textContent('.pw-now')).trim();
      const aside = await player.$$eval('.pw-tools [data-aside]', (bs) => bs.map((b) => b.dataset.aside));
      assert.ok(aside.length, `pieces to set aside; recent frames: ${JSON.stringify(player.frames.slice(-6).map((f) => (f.type === 'state' ? [f.type, f.seq, f.decision, f.view.phase, f.view.turn] : f)))}`);
      await player.click(`.pw-tools [data-aside="${aside[0]}"]`);
      assert.equal(await player.textContent('button[data-tool="seal"]'), `Seal: present ${oriented}, set ${aside[0]} aside`);
      await player.click('button[data-tool="seal"]');
    } else if (kind === 'Place') {
      const credits = Number(await player.getAttribute('.pw-seat[data-seat="P1"] .pw-credits', 'data-credits'));
      const exchange = player.locator('.pw-exchange button[data-action]').first();
      if (!did.exchange && credits >= 2 && (await exchange.count())) {
        await exchange.click();
        did.exchange = true;
      } else {
        // Turn the piece once (free), then place it where the board dots.
        await player.click('.pw-tools button[data-tool="cw"]');
        // (X looks the same turned: no step at all.)
        assert.match(await player.textContent('.pw-steps'), /^(1 step from \w+: 1|0 steps from X: 0) of 2 free$/);
        let fits = await cells(player, '.pw-wall[data-wall="P1"] .pw-cell.fits');
        for (let t = 0; !fits.length && t < 7; t++) {
          await player.click(`.pw-tools button[data-tool="${t % 2 ? 'lr' : 'cw'}"]`);
          fits = await cells(player, '.pw-wall[data-wall="P1"] .pw-cell.fits');
        }
        assert.ok(fits.length, 'some orientation fits the wall');
        const target = fits[Math.floor(fits.length / 2)];
        await player.hover(ownCell(target));
        assert.equal(await player.locator('.pw-wall[data-wall="P1"] .pw-ghost.good rect').count(), 5, 'the ghost shows five good cells');
        await player.click(ownCell(target));
        assert.match(await player.textContent('.pw-hint'), new RegExp(`at ${target}: click again`));
        if (did.placed === 0) await player.screenshot({ path: screenshotPath('pentomino-wall-place.png') });
        if (did.placed % 2) await player.click(ownCell(target));
        else await player.click('button[data-tool="place"]');
        did.placed += 1;
        did.turned = true;
      }
    } else if (kind === 'Orient') {
      await player.click('.pw-tools button[data-tool="cw"]');
      await player.click('button[data-tool="orient"]');
      did.orient = true;
    } else if (kind === 'Round end') {
      const pieces = await player.$$eval('.pw-end-row [data-verb="give"]', (bs) => bs.map((b) => b.dataset.piece));
      const verbs = ['give', 'keep', 'return'];
      pieces.forEach((p, i) => (pieces[i] = [p, verbs[(i + did.roundEnds) % 3]]));
      for (const [p, v] of pieces) {
        try {
          await player.click(`.pw-end-row [data-piece="${p}"][data-verb="${v}"]`, { timeout: 10_000 });
        } catch (e) {
          const last = player.frames.slice(-6).map((f) => (f.type === 'state' ? [f.type, f.seq, f.decision, f.view.phase, f.view.aside, f.view.choices] : f));
          assert.fail(`round end: ${p} ${v} not offered; recent frames: ${JSON.stringify(last)}; ${e.message}`);
        }
      }
      const label = await player.textContent('button[data-tool="round-end"]');
      for (const [p, v] of pieces) assert.ok(label.includes(`${v} ${p}`), `${label} says ${v} ${p}`);
      await player.click('button[data-tool="round-end"]');
      did.roundEnds += 1;
    } else {
      assert.fail(`unexpected tools: ${kind}`);
    }
    // A refusal would show next to the board: none is expected.
    await answered(player, from);
    assert.equal(await player.isHidden('#error'), true, `no refusal after ${kind}: ${await player.textContent('#error')}`);
  }

  assert.ok(await over(player), 'the match ends');
  assert.ok(did.placed >= 10 && did.turned, `placed ${did.placed} pieces by clicking`);
  assert.equal(did.roundEnds, 5, 'rounds 1–5 end with a choice');
  assert.equal(did.sealedSeen, 18, 'six rounds of three sealed turns');
  // The end: each term per seat and the deciding step in words.
  await player.locator('.pw-end-table').waitFor();
  const table = await player.textContent('.pw-end-table');
  for (const term of ['largest painted square', 'clearly defined pieces', 'credits', 'unpainted cells', 'score']) assert.ok(table.includes(term), term);
  assert.match(await player.textContent('.pw-why'), /(wins on|A draw:) /);
  await player.screenshot({ path: screenshotPath('pentomino-wall-end.png'), fullPage: true });

  // Secrets: no frame held the bot's sealed choice before both were in.
  assert.ok(assertFramesSealed(player, 'P1') >= 50);
  assert.ok(assertFramesSealed(spectator, 'spectator') >= 50);
  const record = await getJson(`${server.url}/api/matches/${made.id}/record`);
  assert.ok(record.actions.some((a) => a.seat === 'P2' && a.action.startsWith('present ')), 'the bot presented pieces');
  assert.deepEqual(player.errors, []);
  assert.deepEqual(spectator.errors, []);
});

test('Pentomino Wall by keyboard and on a phone: R turns, arrows and Enter place', { timeout: 120_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'pentomino-wall',
    timed: false,
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
  });
  const page = await newPage(browser, { viewport: PHONE, hasTouch: true, isMobile: true });
  await page.goto(`${server.url}${made.links.P1}`);
  await page.locator('button[data-action="first P1"]').waitFor();
  let from = page.frames.length;
  await page.click('button[data-action="first P1"]');
  // Draft and present by clicking until the first placement.
  for (let n = 0; n < 30; n++) {
    await answered(page, from);
    await waitToAct(page);
    from = page.frames.length;
    const kind = await toolsKind(page);
    if (kind === 'Place') break;
    if (kind === 'Draft') await page.click('.pw-tools [data-take]');
    else if (kind === 'Present and set aside') {
      await page.click('.pw-tools [data-present]');
      await page.click('.pw-tools [data-aside]');
      await submit(page, 'button[data-tool="seal"]');
    } else if (kind === 'Orient') await submit(page, 'button[data-tool="orient"]');
    else assert.fail(`unexpected tools before the first placement: ${kind}`);
  }
  assert.equal(await toolsKind(page), 'Place');
  // On a phone the walls stack and take the width.
  const boxes = await page.$$eval('.pw-wall', (els) => els.map((e) => e.getBoundingClientRect()));
  assert.ok(boxes[0].bottom <= boxes[1].top + 1, 'the walls stack');
  assert.ok(boxes[0].width > 300, `a wall takes the phone's width (${boxes[0].width})`);
  // R turns the piece (the counter says so); arrows and Enter place.
  const before = (await page.textContent('.pw-now')).trim();
  await page.focus(ownCell('A1'));
  await page.keyboard.press('r');
  await page.keyboard.press('r');
  assert.match(await page.textContent('.pw-steps'), new RegExp(`from ${before}:`), 'the steps count from the presented orientation');
  assert.match(await page.textContent('.pw-steps'), /^\d steps? from /);
  const fits = await cells(page, '.pw-wall[data-wall="P1"] .pw-cell.fits');
  assert.ok(fits.length, 'the first piece may go along the border');
  // Walk from A1 to the first fitting cell with the arrows, then Enter twice.
  const [tx, ty] = [fits[0].charCodeAt(0) - 65, Number(fits[0].slice(1)) - 1];
  await page.focus(ownCell('A1'));
  for (let i = 0; i < tx; i++) await page.keyboard.press('ArrowRight');
  for (let i = 0; i < ty; i++) await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.cell), fits[0]);
  await page.keyboard.press('Enter');
  assert.match(await page.textContent('.pw-hint'), /click again or press Place/);
  await page.screenshot({ path: screenshotPath('pentomino-wall-phone.png'), fullPage: true });
  from = page.frames.length;
  await page.focus(ownCell(fits[0]));
  await page.keyboard.press('Enter');
  await answered(page, from);
  const { view } = await getJson(`${server.url}/api/matches/${made.id}`);
  assert.equal(view.walls.P1.placed.length, 1, 'the piece is on the wall');
  assert.equal(view.walls.P1.placed[0].at, fits[0]);
  assert.deepEqual(page.errors, []);
});

/// The clicks of one action, whatever the tools ask: the first drafter, a
/// piece from the pool, a piece presented and one set aside, a placement
/// where the board dots (two clicks), an orientation, the round's end.
async function stageAction(page) {
  await page.locator('.pw-tools').waitFor();
  const kind = await toolsKind(page);
  if (kind === 'Who drafts first') return page.click('button[data-action="first P1"]');
  if (kind === 'Draft') return page.click('.pw-tools [data-take] >> nth=0');
  if (kind === 'Present and set aside') {
    await page.click('.pw-tools [data-present] >> nth=0');
    await page.click('.pw-tools [data-aside] >> nth=0');
    return submit(page, 'button[data-tool="seal"]');
  }
  if (kind === 'Place') {
    let fits = await cells(page, '.pw-wall[data-wall="P1"] .pw-cell.fits');
    for (let t = 0; !fits.length && t < 7; t++) {
      await page.click(`.pw-tools button[data-tool="${t % 2 ? 'lr' : 'cw'}"]`);
      fits = await cells(page, '.pw-wall[data-wall="P1"] .pw-cell.fits');
    }
    if (!fits.length) return page.click('.pw-exchange button[data-action] >> nth=0');
    const target = fits[Math.floor(fits.length / 2)];
    await page.click(ownCell(target));
    return page.click(ownCell(target));
  }
  if (kind === 'Orient') return submit(page, 'button[data-tool="orient"]');
  if (kind === 'Round end') return submit(page, 'button[data-tool="round-end"]');
  assert.fail(`unexpected tools: ${kind}`);
}

/// A staged placement keeps its ghost on the wall.
async function actionDrawn(page, action) {
  if (!action.startsWith('place ')) return;
  assert.equal(await page.locator('.pw-wall[data-wall="P1"] .pw-ghost[data-staged] rect').count(), 5, `${action}: the piece drawn in place`);
}

test('a whole match by clicking on a desk and a phone: the action bar stays in view, the staged action is drawn', { timeout: WHOLE_MATCH_MS }, () =>
  playBothSizes(browser, server, {
    game: 'pentomino-wall',
    bot: 'random',
    stage: stageAction,
    drawn: actionDrawn,
    shotAt: 8,
    check: async (page, n, where) => assert.ok(n >= 20, `${where}: ${n} actions played`),
  }));
