// End to end: Bomb Domain in headless Chromium against a real `umpire
// serve`. A match against the greedy bot made in the lobby and played to
// the end by clicking only: the starter choice, the seven sealed placement
// rounds, whole turns (a move pair, a peg, a detonation, undo), then a pass
// a click until the 50 turns are out; the end screen with the final blast;
// the replay. Then a match between two people: the DMO defers, the EC
// chooses, and while one seat's placement is sealed the other seat's and a
// spectator's pages and WebSocket frames hold no trace of it; keyboard
// placement; a phone-sized screen.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { getJson, getReplay, newPage, postJson, screenshotPath, startBrowser, startServer } from './helpers.js';
import { WHOLE_MATCH_MS, playBothSizes, submit } from './whole-match.js';

const DESK = { width: 1200, height: 1000 };
const PHONE = { width: 390, height: 844 };
const KINDS = ['square', 'plus', 'cross'];

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
const pickOne = (list) => list[Math.floor(Math.random() * list.length)];
const cells = (page, selector) => page.$$eval(selector, (els) => els.map((e) => e.dataset.cell));
const cell = (name) => `.bd-board [data-cell="${name}"]`;

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

/// Three clicks on cells the board dots for the kind it offers next.
async function clickPlacement(page) {
  for (let n = 0; n < 3; n++) {
    const free = await cells(page, '.bd-cell.target');
    assert.ok(free.length, 'the board offers cells to place on');
    await page.click(cell(pickOne(free)));
  }
  assert.equal(await page.locator('.bd-board .bd-chosen').count(), 3);
  const text = (await page.textContent('button[data-tool="submit"] code')).trim();
  assert.match(text, /^square [A-I][1-9], plus [A-I][1-9], cross [A-I][1-9]$/);
  return text;
}

/// The cells of a placement text, by kind.
function placed(text) {
  const m = /^square ([A-I][1-9]), plus ([A-I][1-9]), cross ([A-I][1-9])$/.exec(text ?? '');
  return m ? { square: m[1], plus: m[2], cross: m[3] } : null;
}

/// The view as `viewer` may know it, from the umpire's: a sealed placement
/// of another seat shows only as submitted.
function maskFor(view, viewer) {
  const out = structuredClone(view);
  for (const seat of ['P1', 'P2']) {
    if (seat !== viewer && out.sealed[seat] && typeof out.sealed[seat] === 'object') out.sealed[seat] = 'submitted';
  }
  return out;
}

/// JSON text with every object's keys sorted: the same value, whatever
/// order the server wrote its fields in.
function canon(value) {
  const sorted = (v) =>
    Array.isArray(v) ? v.map(sorted) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v;
  return JSON.stringify(sorted(value));
}

/// Every state frame `page` got shows exactly what `viewer` may know at
/// some step of the match: the umpire's view at that step, masked.
function assertFramesKnowOnly(page, viewer, steps) {
  const known = steps.map((s) => canon(maskFor(s.view, viewer)));
  // (The log and the chat carry no game data but public words: their
  // frames are checked on the page, by assertNoTrace.)
  const allowedTypes = new Set(['hello', 'state', 'pong', 'accepted', 'error', 'log', 'chat']);
  let checked = 0;
  let sealedSeen = 0;
  for (const frame of page.frames) {
    assert.ok(allowedTypes.has(frame.type), `${viewer} frame type ${frame.type}`);
    if (frame.type !== 'state') continue;
    assert.ok(known.includes(canon(frame.view)), `${viewer} at seq ${frame.seq}: a view it may know (${JSON.stringify(frame.view.sealed)})`);
    for (const seat of ['P1', 'P2']) {
      const s = frame.view.sealed[seat];
      if (seat !== viewer && !frame.outcome) assert.equal(typeof s, 'string', `${viewer} at seq ${frame.seq}: ${seat}'s placement stays sealed`);
      if (s === 'submitted' && seat !== viewer) sealedSeen += 1;
    }
    if (viewer === 'spectator') assert.equal(frame.legal, undefined, 'no legal list for a spectator');
    checked += 1;
  }
  return { checked, sealedSeen };
}

/// A page's board while a seat's placement is sealed: none of `cellsOf`
/// holds a piece, no sealed piece is drawn, the text is nowhere.
async function assertNoTrace(page, secret, who) {
  const html = await page.content();
  assert.ok(!html.includes(secret), `${who}: the placement text is not on the page`);
  assert.equal(await page.locator('.bd-board .bd-sealed, .bd-board .bd-chosen').count(), 0, `${who}: no sealed piece drawn`);
  for (const name of Object.values(placed(secret))) {
    const label = await page.getAttribute(cell(name), 'aria-label');
    assert.match(label, /, empty(,|$)/, `${who}: ${name} shows empty while sealed (${label})`);
    assert.equal(await page.locator(`${cell(name)} .bd-piece`).count(), 0, `${who}: no piece drawn on ${name}`);
  }
}

test('Bomb Domain against the greedy bot: lobby, starter choice, sealed rounds and turns by clicking, end, replay', { timeout: 400_000 }, async () => {
  const player = await newPage(browser, { viewport: DESK });
  await player.goto(`${server.url}/`);
  await player.locator('#game option[value="bomb-domain"]').waitFor({ state: 'attached' });
  await player.selectOption('#game', 'bomb-domain');
  await player.selectOption('#seat-P2', 'bot:greedy');
  await player.locator('select[name="config.advantage"]').waitFor();
  assert.equal(await player.inputValue('select[name="config.advantage"]'), 'P1');
  await player.click('#create-button');
  await player.locator('#play-link').waitFor();
  const links = Object.fromEntries(
    await player.$$eval('#links li[data-link]', (lis) => lis.map((li) => [li.dataset.link, li.querySelector('a.link-url')?.href ?? null])),
  );
  const id = new URL(links.spectator).pathname.split('/')[2];

  const spectator = await newPage(browser, { viewport: DESK });
  await spectator.goto(links.spectator);
  await spectator.locator('#role').filter({ hasText: 'Spectator' }).waitFor();

  await player.click('#play-link');
  await player.locator('#role[data-you="P1"]').waitFor();
  await player.waitForFunction(() => document.querySelector('link[data-board="bomb-domain"]')?.sheet?.cssRules.length > 0);

  // The board: 81 cells, A–D Red's (stripes), E nobody's, F–I Blue's (dots).
  await player.locator('button[data-action="defer"]').waitFor();
  assert.equal(await player.locator('.bd-board [role="gridcell"]').count(), 81);
  assert.equal(await player.locator('.bd-board .bd-dom-p1').count(), 36);
  assert.equal(await player.locator('.bd-board .bd-dom-p2').count(), 36);
  assert.equal(await player.locator('.bd-board .bd-dom-none').count(), 9);
  assert.equal(await player.getAttribute(`${cell('A1')} .bd-bg`, 'fill'), 'url(#bd-stripes)');
  assert.equal(await player.getAttribute(`${cell('I9')} .bd-bg`, 'fill'), 'url(#bd-dots)');
  assert.match(await player.textContent('.bd-seat[data-seat="P1"]'), /DMO · A–D.*36 cells/);
  assert.match(await player.textContent('.bd-seat[data-seat="P2"]'), /EC · F–I.*36 cells/);

  // The DMO's starter choice: three buttons; Red takes the first turn.
  assert.equal(await player.textContent('#turn'), 'Your turn: you are the DMO: choose who takes the first turn, or defer the choice to the EC.');
  assert.deepEqual(await player.$$eval('.bd-phase button', (bs) => bs.map((b) => b.dataset.action)), ['first P1', 'first P2', 'defer']);
  let seq = await seqOf(player);
  await player.click('button[data-action="first P1"]');
  await waitTurnAfter(player, seq);

  // Seven placement rounds. The bot places at once; each round its
  // submission is sealed from us and from the spectator until ours is in.
  const snapshots = [];
  for (let round = 1; round <= 7; round++) {
    await player.locator('button[data-tool="submit"]').waitFor();
    assert.match(await player.textContent('#turn'), new RegExp(`placement round ${round} of 7: .*${round % 2 ? 'your own' : 'your opponent’s'} starting domain`));
    const domain = round % 2 ? 'ABCD' : 'FGHI';
    for (const c of await cells(player, '.bd-cell.target')) assert.ok(domain.includes(c[0]), `round ${round}: ${c} is in the required domain`);
    // Blue's part: "submitted (sealed)" on both pages, its cells empty.
    await player.locator('.bd-seat[data-seat="P2"] .bd-sealed-state[data-sealed="submitted"]').waitFor();
    await spectator.waitForFunction(
      (r) => document.querySelector('.bd-phase-line')?.textContent.startsWith(`Placement round ${r} of 7`) && !!document.querySelector('.bd-seat[data-seat="P2"] [data-sealed="submitted"]'),
      round,
    );
    snapshots.push({ round, player: await player.content(), spectator: await spectator.content() });

    if (round === 1) {
      // The kind buttons choose what the next click places; a click on a
      // placed piece takes it back; a wrong cell says why.
      await player.click(cell('F5'));
      assert.match(await player.textContent('.bd-hint'), /^Not there: round 1 places in your own starting domain, columns A–D/);
      await player.click('button[data-kind="cross"]');
      await player.click(cell('A1'));
      assert.match(await player.getAttribute(cell('A1'), 'aria-label'), /your cross, not yet submitted/);
      await player.click(cell('B2'));
      assert.match(await player.textContent('.bd-hint'), /B2 and your cross on A1 lie in one 2×2 block/);
      await player.click(cell('A1'));
      assert.equal(await player.locator('.bd-board .bd-chosen').count(), 0, 'a click on a placed piece takes it back');
      // The blast shape of the kind under the pointer.
      await player.hover(cell('C5'));
      assert.equal(await player.locator('.bd-hover-layer .bd-blast-preview[data-shape="cross"] .bd-blast-cell').count(), 9);
    }
    const text = await clickPlacement(player);
    if (round === 2) await player.screenshot({ path: screenshotPath('bomb-domain-place.png') });
    seq = await seqOf(player);
    await player.click('button[data-tool="submit"]');
    await waitTurnAfter(player, seq);
    assert.match(await player.textContent('#last'), new RegExp(`^Last: (Round ${round}: Red placed ${text}; Blue placed square|Blue .*submitted its round)`));
  }

  // The turns: Red starts. Turn 1 builds a whole turn by clicking: a pair,
  // a peg, a detonation; undo takes back one part.
  await player.locator('.bd-tools[aria-label="Your turn"]').waitFor();
  assert.match(await player.textContent('#turn'), /^Your turn 1 of 25: /);
  assert.equal(await player.textContent('.bd-notation'), 'pass');
  assert.equal(await player.textContent('button[data-tool="play"]'), 'Pass C');
  const first = pickOne(await cells(player, '.bd-cell.pickable'));
  await player.click(cell(first));
  assert.equal(await player.getAttribute(cell(first), 'aria-selected'), 'true');
  const to1 = pickOne(await cells(player, '.bd-cell.target'));
  await player.click(cell(to1));
  assert.equal(await player.textContent('.bd-notation'), `move ${first}-${to1} …`);
  assert.equal(await player.locator('button[data-tool="play"]:disabled').count(), 1, 'half a pair cannot be played');
  const second = pickOne(await cells(player, '.bd-cell.pickable'));
  assert.notEqual(second, to1, 'the moved piece cannot move again');
  await player.click(cell(second));
  const to2 = pickOne(await cells(player, '.bd-cell.target'));
  await player.click(cell(to2));
  const pair = `move ${first}-${to1} ${second}-${to2}`;
  assert.equal(await player.textContent('.bd-notation'), pair);
  assert.match(await player.getAttribute(cell(to1), 'aria-label'), /moves here/);
  const peg = pickOne(await cells(player, '.bd-cell.target'));
  await player.click(cell(peg));
  assert.equal(await player.textContent('.bd-notation'), `${pair}; peg ${peg}`);
  await player.keyboard.press('Escape');
  assert.equal(await player.textContent('.bd-notation'), pair, 'Escape undoes the peg');
  await player.click(cell(peg));
  const bombs = await cells(player, '.bd-cell.pickable');
  assert.ok(bombs.length, 'pieces to detonate');
  const bomb = pickOne(bombs);
  // Pointing at it shows its blast shape and what it would claim.
  await player.hover(cell(bomb));
  assert.equal(await player.locator('.bd-hover-layer .bd-blast-preview.live').count(), 1);
  assert.ok((await player.locator('.bd-hover-layer .bd-blast-cell.claim').count()) >= 1);
  await player.click(cell(bomb));
  const turn1 = `${pair}; peg ${peg}; detonate ${bomb}`;
  assert.equal(await player.textContent('.bd-notation'), turn1);
  await player.hover(cell(bomb));
  await player.locator('section.play').screenshot({ path: screenshotPath('bomb-domain.png') });
  seq = await seqOf(player);
  await player.click('button[data-tool="play"]');
  await waitTurnAfter(player, seq);
  const state1 = await getJson(`${server.url}/api/matches/${id}?t=${new URL(links.P1).searchParams.get('t')}`);
  assert.deepEqual(state1.view.pegs.P1, [peg]);
  assert.ok(state1.view.blast_pegs.P1.includes(bomb), 'the detonated piece left a peg');
  assert.match(await player.textContent('#last'), /^Last: Blue .*\(turn 1 of 25: [^)]*\)\. Cells: Red \d+, Blue \d+\.$/);

  // Turn 2: a peg without moving (a click on an empty cell); turn 3: skip
  // the move and the peg, detonate.
  const empties = await player.$$eval('.bd-board [data-cell]', (els) => els.filter((e) => /, empty/.test(e.getAttribute('aria-label'))).map((e) => e.dataset.cell));
  let pegged = null;
  for (const c of empties) {
    await player.click(cell(c));
    if ((await player.textContent('.bd-notation')) === `peg ${c}`) {
      pegged = c;
      break;
    }
  }
  assert.ok(pegged, 'an empty cell takes a peg without a move');
  seq = await seqOf(player);
  await player.click('button[data-tool="play"]');
  await waitTurnAfter(player, seq);
  await player.click('button[data-tool="skip"]');
  await player.click('button[data-tool="skip"]');
  await player.locator('.bd-steps li.now').filter({ hasText: 'Detonate' }).waitFor();
  const boom = (await cells(player, '.bd-cell.pickable'))[0];
  await player.click(cell(boom));
  assert.equal(await player.textContent('.bd-notation'), `detonate ${boom}`);
  seq = await seqOf(player);
  await player.click('button[data-tool="play"]');
  await waitTurnAfter(player, seq);

  // Then a pass a click (the button reads Pass while the turn is empty),
  // checking the spectator's page now and then, until the 50 turns are out.
  let passes = 0;
  while (!(await over(player))) {
    seq = await seqOf(player);
    assert.equal(await player.textContent('button[data-tool="play"]'), 'Pass C');
    await player.click('button[data-tool="play"]');
    passes += 1;
    await waitTurnAfter(player, seq);
    if (passes % 8 === 0 && !(await over(player))) {
      const now = (await getJson(`${server.url}/api/matches/${id}`)).view;
      await spectator.waitForFunction((t) => document.querySelector('.bd-seat[data-seat="P1"] .bd-seat-more')?.textContent.includes(`turns ${t}/25`), Math.ceil(now.turn / 2));
      assert.equal(await spectator.locator('.bd-board .bd-piece').count(), KINDS.reduce((n, k) => n + now.pieces.P1[k].length + now.pieces.P2[k].length, 0));
    }
  }
  assert.equal(passes, 22);

  // The end: the final blast drawn, cells compared, why the winner won.
  await player.locator('#end:not([hidden])').waitFor();
  const record = await getJson(`${server.url}/api/matches/${id}/record`);
  const replay = await getReplay(`${server.url}/api/matches/${id}/replay`);
  const final = replay.steps.at(-1).view;
  assert.equal(record.game, 'bomb-domain');
  assert.equal(final.phase, 'over');
  assert.equal(final.turn, 50);
  assert.equal(record.actions.length, 1 + 14 + 50);
  assert.equal(record.actions.filter((a) => a.seat === 'P1' && a.action === 'pass').length, 22);
  assert.ok(record.actions.some((a) => a.seat === 'P1' && a.action === turn1), `the clicked turn is in the record: ${turn1}`);
  assert.equal((await player.textContent('#end-reason')).trim(), record.outcome.reason.trim());
  assert.match(record.outcome.reason, /P1 holds \d+ cells, P2 \d+/);
  const pieces = KINDS.reduce((n, k) => n + final.pieces.P1[k].length + final.pieces.P2[k].length, 0);
  assert.equal(await player.locator('.bd-board .bd-burst').count(), pieces, 'every piece left went off');
  assert.ok((await player.locator('.bd-board .bd-reach').count()) >= pieces);
  assert.match(await player.textContent('.bd-end-table'), new RegExp(`cells held\\s*${final.cells.P1}\\s*${final.cells.P2}`));
  const w = record.outcome.winner;
  if (final.cells.P1 !== final.cells.P2) assert.match(await player.textContent('.bd-why'), new RegExp(`^${{ P1: 'Red', P2: 'Blue' }[w]} holds more cells: ${final.cells[w]} to`));
  else assert.match(await player.textContent('.bd-why'), /the tie goes to the seat that did not choose the starter/);
  await player.screenshot({ path: screenshotPath('bomb-domain-end.png'), fullPage: true });
  assert.deepEqual(player.errors, []);

  // Secrets: every frame each page got is exactly a view it may know: the
  // bot's sealed placement only ever as "submitted", until both were in.
  await spectator.locator('#end:not([hidden])').waitFor();
  const mine = assertFramesKnowOnly(player, 'P1', replay.steps);
  const theirs = assertFramesKnowOnly(spectator, 'spectator', replay.steps);
  assert.ok(mine.checked >= 40 && theirs.checked >= 40, `frames checked: ${mine.checked}, ${theirs.checked}`);
  assert.ok(mine.sealedSeen >= 7, `P1 saw Blue's seven submissions sealed (${mine.sealedSeen})`);
  assert.ok(theirs.sealedSeen >= 7, `the spectator saw them sealed (${theirs.sealedSeen})`);
  // And the pages taken while Blue's part was sealed hold none of it.
  const rounds = replay.steps.filter((s) => s.view.last?.event === 'round' && s.entry.seat === 'P1');
  assert.equal(rounds.length, 7, 'Red completed each round');
  for (const snap of snapshots) {
    const blue = rounds.find((s) => s.view.last.round === snap.round).view.last.placed.P2;
    assert.ok(blue, `round ${snap.round}: Blue placed`);
    for (const [who, html] of [['P1', snap.player], ['spectator', snap.spectator]]) {
      assert.ok(!html.includes(blue), `${who} round ${snap.round}: Blue's placement text`);
      for (const c of Object.values(placed(blue))) {
        assert.match(html, new RegExp(`aria-label="${c}, [^"]*, empty`), `${who} round ${snap.round}: ${c} looked empty`);
      }
      assert.ok(!/class="bd-piece[^"]*bd-sealed/.test(html), `${who} round ${snap.round}: no sealed piece drawn`);
    }
  }
  assert.equal(await spectator.locator('.bd-tools, .bd-phase button').count(), 0, 'a spectator gets no controls');
  assert.deepEqual(spectator.errors, []);

  // The replay, with the umpire's view: Blue's sealed part of round 1 in
  // dashes before Red's landed it; the end with the final blast.
  const rp = await newPage(browser, { viewport: DESK });
  await rp.goto(`${server.url}/replay/${id}`);
  await rp.locator('#end:not([hidden])').waitFor();
  assert.equal(await rp.locator('.bd-board .bd-burst').count(), pieces);
  await rp.click('#first');
  assert.match(await rp.textContent('#step-text'), /^Start/);
  assert.equal(await rp.locator('.bd-board .bd-piece').count(), 0);
  await rp.keyboard.press('ArrowRight');
  await rp.keyboard.press('ArrowRight');
  assert.match(await rp.textContent('#step-text'), /^Placement round 1: Blue: Square on [A-I][1-9], plus on [A-I][1-9], cross on [A-I][1-9] \(sealed\) square/);
  assert.equal(await rp.locator('.bd-board .bd-sealed').count(), 3, 'the umpire sees the sealed placement');
  assert.match(await rp.textContent('#last'), /^Last: Blue submitted square .* for round 1 \(sealed until both are in\)/);
  await rp.keyboard.press('ArrowRight');
  assert.equal(await rp.locator('.bd-board .bd-piece').count(), 6);
  assert.equal(await rp.locator('.bd-board .bd-sealed').count(), 0);
  assert.equal(await rp.locator('.bd-board .bd-last-mark').count(), 6, 'the round’s pieces are marked');
  const t1 = replay.steps.findIndex((s) => s.entry?.action === turn1);
  await rp.evaluate((n) => {
    const slider = document.querySelector('#slider');
    slider.value = String(n);
    slider.dispatchEvent(new Event('input'));
  }, t1);
  assert.match(await rp.textContent('#last'), new RegExp(`^Last: Red moved ${first} to ${to1} and ${second} to ${to2}, pegged ${peg} and detonated ${bomb} \\(turn 1 of 25: ${turn1}\\)`));
  assert.equal(await rp.locator('.bd-board .bd-last-mark').count(), new Set([first, to1, second, to2, peg, bomb]).size);
  await rp.screenshot({ path: screenshotPath('bomb-domain-replay.png') });
  assert.deepEqual(rp.errors, []);
});

test('Bomb Domain between two people: defer, sealed placements hidden from the other seat and spectators, keyboard, phone, text box', { timeout: 90_000 }, async () => {
  const made = await postJson(`${server.url}/api/matches`, {
    game: 'bomb-domain',
    config: { advantage: 'P1' },
    timed: true,
    seats: { P1: { kind: 'person' }, P2: { kind: 'person' } },
  });
  const p1 = await newPage(browser, { viewport: DESK });
  const p2 = await newPage(browser, { viewport: PHONE, hasTouch: true, isMobile: true });
  const watcher = await newPage(browser, { viewport: DESK });
  await p1.goto(`${server.url}${made.links.P1}`);
  await p2.goto(`${server.url}${made.links.P2}`);
  await watcher.goto(`${server.url}${made.links.spectator}`);

  // The DMO defers; the EC gets two buttons (no defer) and names itself.
  await p1.locator('button[data-action="defer"]').click();
  await p2.locator('button[data-action="first P2"]').waitFor();
  assert.equal(await p2.textContent('#turn'), 'Your turn: the DMO deferred: choose who takes the first turn.');
  assert.equal(await p2.locator('button[data-action="defer"]').count(), 0);
  await watcher.locator('#turn').filter({ hasText: 'Blue to choose who takes the first turn.' }).waitFor();
  await p2.tap('button[data-action="first P2"]');
  await p1.locator('button[data-tool="submit"]').waitFor();
  assert.match(await p1.textContent('#last'), /^Last: Blue chose Blue to take the first turn\./);
  await watcher.locator('#turn').filter({ hasText: 'Red and Blue to place three pieces (sealed).' }).waitFor();

  // Round 1 by keyboard: S, P and X on focused cells, C seals and submits.
  await p1.focus(cell('A1'));
  await p1.keyboard.press('s');
  await p1.keyboard.press('ArrowDown');
  await p1.keyboard.press('ArrowDown');
  await p1.keyboard.press('p');
  await p1.keyboard.press('ArrowRight');
  await p1.keyboard.press('ArrowRight');
  await p1.keyboard.press('ArrowDown');
  await p1.keyboard.press('ArrowDown');
  await p1.keyboard.press('x');
  assert.equal(await p1.evaluate(() => document.activeElement?.dataset?.cell), 'C5', 'the focus stays on the board');
  const secret1 = 'square A1, plus A3, cross C5';
  assert.equal(await p1.textContent('button[data-tool="submit"] code'), secret1);
  await p1.keyboard.press('c');
  // Red sees its own part, dashed; Blue and the spectator only "submitted".
  await p1.locator('.bd-waiting').filter({ hasText: secret1 }).waitFor();
  assert.equal(await p1.locator('.bd-board .bd-sealed').count(), 3);
  await p2.locator('.bd-seat[data-seat="P1"] [data-sealed="submitted"]').waitFor();
  await watcher.locator('.bd-seat[data-seat="P1"] [data-sealed="submitted"]').waitFor();
  assert.match(await watcher.textContent('#last'), /^Last: Red submitted its round 1 placement \(sealed until both are in\)\./);
  await assertNoTrace(p2, secret1, 'P2');
  await assertNoTrace(watcher, secret1, 'spectator');
  await p2.screenshot({ path: screenshotPath('bomb-domain-phone.png'), fullPage: true });

  // Blue places by taps; the round lands for everyone at once.
  let seq = await seqOf(p1);
  const blue1 = await clickPlacementTaps(p2);
  await submit(p2, 'button[data-tool="submit"]', { tap: true });
  await waitTurnAfter(p1, seq);
  for (const page of [p1, p2, watcher]) {
    await page.waitForFunction(() => document.querySelectorAll('.bd-board .bd-piece:not(.bd-sealed)').length === 6);
  }
  assert.match(await watcher.textContent('#last'), new RegExp(`^Last: Round 1: Red placed ${secret1}; Blue placed ${blue1}\\.`));

  // Round 2: Blue first this time; Red's page shows none of it.
  const blue2 = await clickPlacementTaps(p2);
  await submit(p2, 'button[data-tool="submit"]', { tap: true });
  await p1.locator('.bd-seat[data-seat="P2"] [data-sealed="submitted"]').waitFor();
  await watcher.locator('.bd-seat[data-seat="P2"] [data-sealed="submitted"]').waitFor();
  await assertNoTrace(p1, blue2, 'P1');
  await assertNoTrace(watcher, blue2, 'spectator');
  // A refusal through the text box names its rule; nothing changes.
  await p1.fill('#move-text', 'square E5, plus E3, cross E7');
  await p1.press('#move-text', 'Enter');
  await p1.locator('#error:not([hidden])').waitFor();
  assert.match(await p1.textContent('#error'), /round 2 places in .* starting domain, columns F–I: E\d is not there \(wrong-domain\)$/);
  // Then a legal one in the short form, lower case.
  const free = await cells(p1, '.bd-cell.target');
  const apart = free.filter((c) => c[0] === 'F' || c[0] === 'H');
  const three = [];
  for (const c of apart) if (three.every((d) => Math.abs(d.charCodeAt(0) - c.charCodeAt(0)) > 1 || Math.abs(Number(d[1]) - Number(c[1])) > 1)) three.push(c);
  seq = await seqOf(p1);
  await p1.fill('#move-text', `x ${three[0].toLowerCase()} s ${three[1].toLowerCase()} p ${three[2].toLowerCase()}`);
  await p1.press('#move-text', 'Enter');
  await waitTurnAfter(p1, seq);
  assert.equal(await p1.isHidden('#error'), true);
  assert.match(await p1.textContent('#last'), new RegExp(`^Last: Round 2: Red placed square ${three[1]}, plus ${three[2]}, cross ${three[0]}; Blue placed ${blue2}\\.`));

  // Red resigns (two clicks); then every frame is checked against the
  // umpire's record: neither Blue nor the spectator ever got Red's sealed
  // part, nor Red Blue's.
  await p1.click('#resign');
  await p1.click('#resign');
  await p1.locator('#end:not([hidden])').waitFor();
  await p2.locator('#end:not([hidden])').waitFor();
  await watcher.locator('#end:not([hidden])').waitFor();
  const replay = await getReplay(`${server.url}/api/matches/${made.id}/replay`);
  for (const [page, viewer] of [[p1, 'P1'], [p2, 'P2'], [watcher, 'spectator']]) {
    const { checked, sealedSeen } = assertFramesKnowOnly(page, viewer, replay.steps);
    assert.ok(checked >= 5, `${viewer}: frames checked (${checked})`);
    assert.ok(sealedSeen >= 1, `${viewer}: saw a sealed submission (${sealedSeen})`);
    assert.deepEqual(page.errors, []);
  }
});

/// Three taps on dotted cells (a phone has no pointer), returning the
/// placement text the board wrote.
async function clickPlacementTaps(page) {
  await page.locator('button[data-tool="submit"]').waitFor({ state: 'attached' });
  for (let n = 0; n < 3; n++) {
    const free = await cells(page, '.bd-cell.target');
    await page.tap(cell(pickOne(free)));
  }
  return (await page.textContent('button[data-tool="submit"] code')).trim();
}

/// A view as the server sends it, with pieces at the given cells:
/// {P1: {square: [...]}, P2: {...}}; the rest of a fresh turns phase.
function constructed(extra = {}) {
  const pieces = { P1: { square: [], plus: [], cross: [] }, P2: { square: [], plus: [], cross: [] } };
  for (const seat of ['P1', 'P2']) Object.assign(pieces[seat], extra.pieces?.[seat] ?? {});
  return {
    phase: 'turns',
    dmo: 'P1',
    shapes: { square: '###/###/###', plus: '..#../..#../#####/..#../..#..', cross: '#...#/.#.#./..#../.#.#./#...#', final: '.#./###/.#.' },
    domain: Array(9).fill('1111.2222'),
    pegs: { P1: [], P2: [] },
    blast_pegs: { P1: [], P2: [] },
    pegs_left: { P1: 9, P2: 9 },
    deferred: false,
    chooser: 'P1',
    starter: 'P1',
    round: 7,
    in_hand: 0,
    lost: { P1: 0, P2: 0 },
    sealed: { P1: 'waiting', P2: 'waiting' },
    turn: 0,
    to_move: 'P1',
    diagonal: null,
    cells: { P1: 36, P2: 36 },
    last: null,
    ...extra,
    pieces,
  };
}

/// The board module alone on a page of the server, drawing `view` for P1
/// deciding `kind`; what it submits lands in `window.sent`.
async function boardPage(view, kind) {
  const page = await newPage(browser, { viewport: DESK });
  await page.goto(`${server.url}/replay`);
  await page.evaluate(
    async ([v, k]) => {
      const { boardFor } = await import('/static/games/index.js');
      const board = boardFor('bomb-domain');
      window.sent = [];
      const ctx = { you: 'P1', acting: true, kind: k, decision: null, legal: null, submit: (t) => window.sent.push(t), final: false };
      board.render(document.querySelector('#board'), v, ctx);
    },
    [view, kind],
  );
  await page.waitForFunction(() => document.querySelector('link[data-board="bomb-domain"]')?.sheet?.cssRules.length > 0);
  return page;
}

test('Bomb Domain’s board on set positions: the diagonal fallback, the neighbour rule lifted, a whole turn by keyboard', { timeout: 60_000 }, async () => {
  // No pair exists (both pieces boxed in by pegs): a piece may step one
  // cell diagonally, which ends the turn.
  const pegs = ['A2', 'B1', 'B2', 'B3', 'C2', 'H2', 'I1', 'I3', 'G2'];
  const boxed = await boardPage(constructed({ pieces: { P1: { square: ['A1'], plus: ['I2'] } }, pegs: { P1: [], P2: pegs } }), 'turn');
  assert.match(await boxed.textContent('.bd-summary'), /^No move pair exists: you may step one piece one cell diagonally/);
  assert.deepEqual(await cells(boxed, '.bd-cell.pickable'), ['I2'], 'A1 has no free diagonal');
  await boxed.click(cell('I2'));
  assert.deepEqual((await cells(boxed, '.bd-cell.target')).sort(), ['H1', 'H3']);
  await boxed.click(cell('H3'));
  assert.equal(await boxed.textContent('.bd-notation'), 'diagonal I2-H3');
  assert.match(await boxed.textContent('.bd-summary'), /The turn is complete/);
  assert.equal(await boxed.locator('.bd-cell.target').count(), 0, 'no peg after a diagonal step');
  await boxed.click('button[data-tool="play"]');
  assert.deepEqual(await boxed.evaluate(() => window.sent), ['diagonal I2-H3']);
  assert.deepEqual(boxed.errors, []);

  // Round 7 with A–D a checkerboard of 18 pieces: only A1 and A9 have
  // fewer than 3 occupied neighbours, so the neighbour rule is lifted and
  // D2 (3 occupied neighbours) is allowed.
  const checker = [];
  for (const [c, col] of [...'ABCD'].entries()) for (let r = 1; r <= 9; r++) if ((c + r - 1) % 2 === 1) checker.push(`${col}${r}`);
  assert.equal(checker.length, 18);
  const place = constructed({
    phase: 'place',
    turn: 0,
    to_move: null,
    starter: 'P1',
    pieces: { P1: { square: checker.slice(0, 9) }, P2: { cross: checker.slice(9) } },
  });
  const lifted = await boardPage(place, 'place');
  await lifted.locator('.bd-lifted').waitFor();
  assert.equal(await lifted.locator('.bd-cell.crowded').count(), 0);
  assert.ok((await cells(lifted, '.bd-cell.target')).includes('D2'));
  for (const c of ['D2', 'A1', 'A9']) await lifted.click(cell(c));
  assert.equal(await lifted.textContent('button[data-tool="submit"] code'), 'square D2, plus A1, cross A9');
  await lifted.screenshot({ path: screenshotPath('bomb-domain-lifted.png') });
  await lifted.click('button[data-tool="submit"]');
  assert.deepEqual(await lifted.evaluate(() => window.sent), ['square D2, plus A1, cross A9']);
  // The same board one piece short of a checkerboard: A5 free of the rule
  // too, three cells meet both rules, crowded cells are marked and refused.
  const strict = await boardPage({ ...place, pieces: { ...place.pieces, P1: { square: checker.slice(1, 9), plus: [], cross: [] } } }, 'place');
  assert.equal(await strict.locator('.bd-lifted').count(), 0);
  assert.ok((await strict.locator('.bd-cell.crowded').count()) > 0);
  await strict.click(cell('D2'));
  assert.match(await strict.textContent('.bd-hint'), /^Not there: D2 has 3 occupied neighbours/);
  assert.deepEqual([...lifted.errors, ...strict.errors], []);

  // A whole turn by keyboard: Enter picks and moves, arrows walk, N skips
  // the peg, Enter detonates, C plays.
  const keys = await boardPage(constructed({ pieces: { P1: { square: ['B2'], plus: ['D5'] }, P2: { cross: ['H8'] } } }), 'turn');
  await keys.focus(cell('B2'));
  for (const k of ['Enter', 'ArrowDown', 'Enter']) await keys.keyboard.press(k);
  assert.equal(await keys.textContent('.bd-notation'), 'move B2-B3 …');
  for (const k of ['ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown', 'Enter', 'ArrowRight', 'Enter']) await keys.keyboard.press(k);
  assert.equal(await keys.textContent('.bd-notation'), 'move B2-B3 D5-E5');
  assert.equal(await keys.evaluate(() => document.activeElement?.dataset?.cell), 'E5', 'the focus stays on the board');
  await keys.keyboard.press('n');
  await keys.locator('.bd-steps li.now').filter({ hasText: 'Detonate' }).waitFor();
  await keys.keyboard.press('Enter');
  assert.equal(await keys.textContent('.bd-notation'), 'move B2-B3 D5-E5; detonate E5');
  await keys.keyboard.press('Escape');
  assert.equal(await keys.textContent('.bd-notation'), 'move B2-B3 D5-E5');
  await keys.keyboard.press('Enter');
  await keys.keyboard.press('c');
  assert.deepEqual(await keys.evaluate(() => window.sent), ['move B2-B3 D5-E5; detonate E5']);
  assert.deepEqual(keys.errors, []);
});

/// The clicks of one action: the starter choice, a placement (three cells
/// and Seal), or a turn: a move pair when the board offers one (every
/// third turn), else a pass.
async function stageAction(page, n) {
  const first = page.locator('button[data-action="first P1"]');
  if (await first.count()) return first.click();
  if (await page.locator('button[data-tool="submit"]').count()) {
    await clickPlacement(page);
    return submit(page, 'button[data-tool="submit"]');
  }
  await page.locator('button[data-tool="play"]').waitFor({ state: 'attached' });
  if (n % 3 === 0 && (await page.locator('.bd-cell.pickable').count())) {
    await page.click(cell(pickOne(await cells(page, '.bd-cell.pickable'))));
    await page.click(cell(pickOne(await cells(page, '.bd-cell.target'))));
    const second = await cells(page, '.bd-cell.pickable');
    if (second.length) {
      await page.click(cell(pickOne(second)));
      const to = await cells(page, '.bd-cell.target');
      if (to.length) await page.click(cell(pickOne(to)));
    }
    // Half a pair cannot be played: undo it all.
    while (await page.locator('button[data-tool="play"]:disabled').count()) await page.click('button[data-tool="undo"]');
  }
  return submit(page, 'button[data-tool="play"]');
}

/// A staged placement or turn marks its cells on the board.
async function actionDrawn(page, action) {
  const named = action.match(/\b[A-I][1-9]\b/g) ?? [];
  for (const name of named) assert.equal(await page.locator(`${cell(name)}[data-staged]`).count(), 1, `${name} of ${action} drawn`);
  if (!named.length) assert.equal(await page.locator('#board [data-staged]').count() >= 1, true, `${action} shown`);
}

test('a whole match by clicking on a desk and a phone: the action bar stays in view, the staged action is drawn', { timeout: WHOLE_MATCH_MS }, () =>
  playBothSizes(browser, server, {
    game: 'bomb-domain',
    bot: 'greedy',
    stage: stageAction,
    drawn: actionDrawn,
    shotAt: 9,
    check: async (page, n, where) => assert.ok(n >= 30, `${where}: ${n} actions played`),
  }));
