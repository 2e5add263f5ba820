// End to end: the chat beside a match and the match log. Two players, two
// spectators and the umpire: who reads which room (the players never see
// the spectators' room while the match is played, not even in their
// WebSocket frames), markup shown as text, the length and rate limits, a
// mute per room kept across a reload, the spectators' room opened to the
// players at the end, and the players' chat in the replay. Then the log: a
// Flower Domain match logs its public events in words; Masked Army, whose
// rules delete the earlier moves, has none.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { newPage, postJson, screenshotPath, serveAndBrowse } from './helpers.js';

const DESK = { width: 1280, height: 800 };

const running = serveAndBrowse();

async function open(link) {
  const page = await newPage(running.browser, { viewport: DESK });
  await page.goto(`${running.server.url}${link}`);
  await page.waitForFunction(() => document.body.dataset.seq !== undefined, null, { timeout: 15_000 });
  await page.locator('#chat-box:not([hidden])').waitFor();
  return page;
}

async function say(page, text) {
  await page.fill('#chat-text', text);
  await page.click('#chat-form button[type="submit"]');
}

/// The lines a page shows in a room: [speaker, text].
const shown = (page, room) =>
  page.$$eval(`#chat-${room} .chat-line`, (lis) => lis.map((li) => [li.querySelector('.chat-by').textContent, li.querySelector('.chat-text').textContent]));

/// Whether any WebSocket frame the page got holds `text`.
const heard = (page, text) => page.frames.some((f) => JSON.stringify(f).includes(text));

test('chat: who reads which room, markup as text, limits, mute, the end and the replay', { timeout: 90_000 }, async () => {
  const made = await postJson(`${running.server.url}/api/matches`, {
    game: 'masked-army',
    timed: true,
    seats: { P1: { kind: 'person' }, P2: { kind: 'person' } },
  });
  const [p1, p2, s1, s2, umpire] = await Promise.all(
    [made.links.P1, made.links.P2, made.links.spectator, made.links.spectator, made.links.umpire].map(open),
  );

  // A player's line, with markup: everyone reads it, as text.
  const hello = 'good luck <b>have fun</b> & <script>alert(1)</script>';
  await say(p1, hello);
  for (const page of [p1, p2, s1, s2, umpire]) {
    await page.locator('#chat-players .chat-line').first().waitFor();
    assert.deepEqual(await shown(page, 'players'), [['Red', hello]]);
    assert.equal(await page.locator('#chat-players b, #chat-players script').count(), 0, 'markup is text');
  }
  assert.match(await s1.textContent('#chat-label'), /spectators/);
  assert.match(await p1.textContent('#chat-label'), /players/);

  // A spectator's line: the spectators and the umpire read it; the players
  // see neither the room nor the line, not even in their frames.
  const tip = 'psst <img src=x onerror="document.body.dataset.hacked=1"> play E5';
  await say(s1, tip);
  for (const page of [s1, s2, umpire]) {
    await page.locator('#chat-spectators .chat-line').first().waitFor();
    assert.deepEqual(await shown(page, 'spectators'), [['Spectator 1', tip]]);
  }
  await say(s2, 'hello from the stands');
  await s1.locator('#chat-spectators .chat-line').nth(1).waitFor();
  assert.deepEqual((await shown(s1, 'spectators'))[1], ['Spectator 2', 'hello from the stands']);
  await p1.waitForTimeout(300);
  for (const page of [p1, p2]) {
    assert.equal(await page.isHidden('#room-spectators'), true, 'no spectators’ room for a player');
    assert.equal(await page.locator('#chat-spectators .chat-line').count(), 0);
    assert.equal(heard(page, 'psst'), false, 'a spectator’s line never reaches a player');
    assert.equal(heard(page, 'hello from the stands'), false);
  }
  for (const page of [p1, p2, s1, s2, umpire]) assert.equal(await page.evaluate(() => document.body.dataset.hacked ?? null), null);

  // Too long: the box takes 300 characters; past it (the box's limit
  // lifted, as a script could) the server refuses, said under the box.
  await p2.fill('#chat-text', 'y'.repeat(400));
  assert.equal((await p2.inputValue('#chat-text')).length, 300);
  await p2.evaluate(() => document.querySelector('#chat-text').removeAttribute('maxlength'));
  await say(p2, 'x'.repeat(301));
  await p2.locator('#chat-error').filter({ hasText: 'a line has at most 300 characters (this one has 301)' }).waitFor();
  // Too fast: five lines at once, then a wait. The six go out in one
  // go (a click each could take longer than the pace's refill on a busy
  // machine).
  await p2.evaluate(() => {
    for (let i = 1; i <= 6; i++) {
      document.querySelector('#chat-text').value = `line ${i}`;
      document.querySelector('#chat-form').requestSubmit();
    }
  });
  await p2.locator('#chat-error').filter({ hasText: /too many lines at once: wait \d s/ }).waitFor();
  await p1.locator('#chat-players .chat-line').nth(5).waitFor();
  const lines = await shown(p1, 'players');
  assert.deepEqual(lines.map((l) => l[1]), [hello, 'line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
  assert.deepEqual(lines.slice(1).map((l) => l[0]), ['Blue', 'Blue', 'Blue', 'Blue', 'Blue']);

  // A mute per room, kept across a reload.
  await s2.check('#room-players [data-mute="players"]');
  assert.match(await s2.textContent('#chat-players'), /^Muted \(6 lines\)\.$/);
  assert.deepEqual(await shown(s2, 'spectators'), [['Spectator 1', tip], ['Spectator 2', 'hello from the stands']]);
  await s2.reload();
  await s2.locator('#chat-box:not([hidden])').waitFor();
  await s2.locator('#chat-players').filter({ hasText: 'Muted (6 lines).' }).waitFor();
  await s2.uncheck('#room-players [data-mute="players"]');
  await s2.locator('#chat-players .chat-line').nth(5).waitFor();

  // The end: the players read the spectators' room now.
  await p1.click('#resign');
  await p1.click('#resign');
  for (const page of [p1, p2]) {
    await page.locator('#end:not([hidden])').waitFor();
    await page.locator('#room-spectators:not([hidden]) #chat-spectators .chat-line').nth(1).waitFor();
    assert.deepEqual(await shown(page, 'spectators'), [['Spectator 1', tip], ['Spectator 2', 'hello from the stands']]);
  }
  // Blue's burst above is spent: one line comes back every 2 s.
  await p2.waitForTimeout(2_100);
  await say(p2, 'good game');
  await s1.locator('#chat-players .chat-line').nth(6).waitFor();
  await p2.locator('#chat-box').screenshot({ path: screenshotPath('chat.png') });

  // The replay shows the players' chat (and the spectators'), as text.
  const replay = await newPage(running.browser, { viewport: DESK });
  await replay.goto(`${running.server.url}/replay/${made.id}`);
  await replay.locator('#chat-box:not([hidden]) #chat-players .chat-line').nth(6).waitFor();
  const kept = await shown(replay, 'players');
  assert.deepEqual(kept[0], ['Red', hello]);
  assert.deepEqual(kept.at(-1), ['Blue', 'good game']);
  assert.equal(await replay.locator('#chat-players b, #chat-players script').count(), 0);
  assert.deepEqual(await shown(replay, 'spectators'), [['Spectator 1', tip], ['Spectator 2', 'hello from the stands']]);
  for (const page of [p1, p2, s1, s2, umpire, replay]) assert.deepEqual(page.errors, []);
  await Promise.all([p1, p2, s1, s2, umpire, replay].map((p) => p.context().close()));
});

test('the match log: public events in words with their notation; none in Masked Army', { timeout: 60_000 }, async () => {
  const masked = await postJson(`${running.server.url}/api/matches`, {
    game: 'masked-army',
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'random' } },
  });
  const ma = await open(masked.links.P1);
  await ma.waitForTimeout(300);
  assert.equal(await ma.isHidden('#log-box'), true, 'Masked Army keeps no log');
  assert.equal(ma.frames.some((f) => f.type === 'log'), false);

  const made = await postJson(`${running.server.url}/api/matches`, {
    game: 'flower-domain',
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot: 'greedy' } },
  });
  const page = await open(made.links.P1);
  const spectator = await open(made.links.spectator);
  await page.click('button[data-action="ready"]');
  await page.click('button[data-action="first P1"]');
  await page.click('button[data-action="red"]');
  await page.locator('body.my-turn .fd-tools').waitFor();
  for (const who of [page, spectator]) {
    await who.locator('#log-box:not([hidden]) .log-line').nth(2).waitFor();
    const lines = await who.$$eval('#log .log-line', (lis) =>
      lis.map((li) => ({ words: [...li.childNodes].filter((n) => n.nodeName !== 'CODE').map((n) => n.textContent).join(''), code: li.querySelector('code')?.textContent ?? null })),
    );
    const said = lines.map((l) => l.words).join(' | ');
    assert.match(said, /drafted red/, said);
    assert.doesNotMatch(said, /\bP[12]\b/, `seats named by their colours: ${said}`);
    assert.ok(lines.some((l) => l.code === 'first P1'), `the notation beside the words: ${JSON.stringify(lines)}`);
    assert.ok(lines.some((l) => l.code === 'red'), JSON.stringify(lines));
  }
  for (const who of [ma, page, spectator]) assert.deepEqual(who.errors, []);
  await Promise.all([ma, page, spectator].map((p) => p.context().close()));
});
