// A host's match in the browser, shared by the host tests (host-*.test.js):
// a whole match worked out by the arena's bots, entered action by action in
// the host's console, each private text and picture copied and checked
// against what that player's own link is given.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { getJson, newPage, postJson } from './helpers.js';

export const NAMES = { P1: 'Ada', P2: 'Bo Li' };

/// The umpire binary the server runs.
function bin() {
  return process.env.UMPIRE_BIN ? path.resolve(process.env.UMPIRE_BIN) : path.resolve('..', 'target', 'debug', 'umpire');
}

/// A finished match of `game` between two bots (`umpire arena`, one game,
/// seed `seed`): its record, whose config and seed a host may give a match.
export async function botRecord(game, seed, config = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-arena-'));
  try {
    const args = ['arena', game, '--bots', 'random,greedy', '--games', '1', '--seed', String(seed), '--records', dir, '--config', JSON.stringify(config)];
    await promisify(execFile)(bin(), args, { timeout: 120_000 });
    // The arena names each record GAME-SEED.json (beside arena.json).
    return JSON.parse(fs.readFileSync(path.join(dir, `${game}-${seed}.json`), 'utf8'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/// A host's match with `record`'s game, config and seed, the players named.
export async function hostMatch(server, record, extra = {}) {
  const body = { game: record.game, config: record.config, seed: record.seed, host: true, timed: false, names: NAMES, ...extra };
  const made = await postJson(`${server.url}/api/matches`, body);
  const token = (link) => (link ? new URL(link, server.url).searchParams.get('t') : null);
  return { ...made, tokens: { P1: token(made.links.P1), P2: token(made.links.P2), umpire: token(made.links.umpire) } };
}

/// The console of `made`, open in a page that may read the clipboard.
export async function openConsole(browser, server, made, options = {}) {
  const page = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'], ...options });
  await page.goto(`${server.url}${made.links.console}`);
  await page.waitForFunction(() => document.body.dataset.pictured !== undefined, null, { timeout: 20_000 });
  return page;
}

/// The umpire's `seq` the console shows, and the last it drew pictures for.
async function seqs(page) {
  return page.evaluate(() => ({ seq: Number(document.body.dataset.seq), pictured: Number(document.body.dataset.pictured) }));
}

/// Waits until the console has drawn every picture of the step after `seq`.
export async function stepped(page, seq) {
  await page.waitForFunction((before) => Number(document.body.dataset.pictured) > before && document.body.dataset.pictured === document.body.dataset.seq, seq, { timeout: 30_000 });
}

/// Enters `action` for `seat` in the console, as the player sent it; waits
/// for the console's answer and, when accepted, the pictures of the step.
/// Returns the answer ({kind, text}).
export async function enter(page, seat, action, { field = 'action', expect = 'ok' } = {}) {
  const { seq } = await seqs(page);
  await page.fill(`#${field}-${seat}`, action);
  await page.press(`#${field}-${seat}`, 'Enter');
  await page.waitForFunction((s) => ['ok', 'bad'].includes(document.getElementById(`answer-${s}`).dataset.kind), seat);
  const answer = await page.evaluate((s) => {
    const el = document.getElementById(`answer-${s}`);
    return { kind: el.dataset.kind, text: el.textContent };
  }, seat);
  assert.equal(answer.kind, expect, `${seat} \`${action}\`: ${answer.text}`);
  if (answer.kind === 'ok') await stepped(page, seq);
  return answer;
}

/// Every string in a view.
function strings(value, out = new Set()) {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out));
  return out;
}

/// Clicks a copy button and waits until the page says `said`.
async function copied(page, button, said) {
  await page.evaluate(() => (document.getElementById('copied').textContent = ''));
  await page.click(button);
  await page.waitForFunction((text) => document.getElementById('copied').textContent === text, said);
}

/// In the page: how many pixels of the PNG `png` (base64) differ from the
/// picture the board module draws from `state`, `viewer`'s own (the
/// clipboard re-encodes a PNG, so the pixels are compared, not the bytes).
async function differingPixels([png, state, viewer]) {
  const pixels = async (url) => {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    return ctx.getImageData(0, 0, image.width, image.height).data;
  };
  const a = await pixels(`data:image/png;base64,${png}`);
  const b = await pixels(await window.umpireHost.picture(state, viewer));
  if (a.length !== b.length) return Math.max(a.length, b.length) / 4;
  let differ = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3]) differ += 1;
  }
  return differ;
}

/// Copies each private message and picture (and the audience's) from the
/// console, as a host would, and checks each against what its viewer's own
/// link is given: the text is the one the server builds for that viewer,
/// the picture is the one the board module draws from that viewer's own
/// `state`, and no longer string of the umpire's view that the viewer's
/// view lacks is in the text. Returns the texts.
export async function checkCopies(page, server, made, { copy = true, picture = true } = {}) {
  const id = made.id;
  const umpire = await getJson(`${server.url}/api/matches/${id}?t=${made.tokens.umpire}`);
  const texts = {};
  for (const viewer of ['P1', 'P2', 'spectator']) {
    const token = made.tokens[viewer];
    const q = token ? `?t=${token}` : '';
    const own = await getJson(`${server.url}/api/matches/${id}${q}`);
    const words = await getJson(`${server.url}/api/matches/${id}/words${q}`);
    let text;
    let png;
    if (copy) {
      await copied(page, `[data-copy-text="${viewer}"]`, 'Text copied.');
      text = await page.evaluate(() => navigator.clipboard.readText());
      await copied(page, `[data-copy-picture="${viewer}"]`, 'Picture copied.');
      png = await page.evaluate(async () => {
        const [item] = await navigator.clipboard.read();
        const bytes = new Uint8Array(await (await item.getType('image/png')).arrayBuffer());
        let binary = '';
        for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
        return btoa(binary);
      });
    } else {
      text = await page.textContent(`#text-${viewer}`);
      png = (await page.getAttribute(`#picture-${viewer}`, 'src')).split(',')[1];
    }
    assert.equal(text, words.message, `${viewer}'s message is the one its own link gets`);
    if (picture) {
      const differ = await page.evaluate(differingPixels, [png, own, viewer]);
      assert.equal(differ, 0, `${viewer}'s picture is the one drawn from its own view`);
    }
    if (!umpire.outcome) {
      const ours = strings(own.view);
      for (const secret of strings(umpire.view)) {
        if (secret.length >= 8 && !ours.has(secret)) assert.ok(!text.includes(secret), `${viewer}'s message holds \`${secret}\``);
      }
    }
    texts[viewer] = text;
  }
  return texts;
}

/// Plays `record`'s actions in the console of `made`, each entered for its
/// seat, checking the copies after each (every `every`th step; and the
/// last). Returns the console page.
export async function playThrough(page, server, made, record, { every = 1 } = {}) {
  for (const [i, entry] of record.actions.entries()) {
    assert.notEqual(entry.action, 'timeout', 'an untimed record');
    if (entry.action === 'resign') {
      await page.click(`#resign-${entry.seat}`);
      const { seq } = await seqs(page);
      await page.click(`#resign-${entry.seat}`);
      await stepped(page, seq);
    } else {
      await enter(page, entry.seat, entry.action);
    }
    const last = i === record.actions.length - 1;
    // The pictures (slow to compare) with the copies and at the end.
    const copy = i % (every * 4) === 0;
    if (i % every === 0 || last) await checkCopies(page, server, made, { copy, picture: copy || last });
  }
  return page;
}

/// The end, as the console shows it: the announcement names the winner,
/// the picture is drawn, the record replays, marks every action entered by
/// the host and holds the arena's actions.
export async function checkResult(page, server, made, record) {
  await page.waitForSelector('#result:not([hidden])');
  const text = await page.textContent('#text-result');
  const outcome = record.outcome;
  const winner = outcome.winner ? `${NAMES[outcome.winner]} wins` : 'A draw';
  assert.ok(text.includes(winner), text);
  assert.ok(text.includes(`Decided by ${outcome.decided_by}`), text);
  assert.ok(text.includes(`/replay/${made.id}`) && text.includes(`/api/matches/${made.id}/record`), text);
  assert.match(await page.getAttribute('#picture-result', 'src'), /^data:image\/png;base64,/);
  const played = await getJson(`${server.url}/api/matches/${made.id}/record`);
  assert.equal(played.host, true);
  assert.deepEqual(played.seats, { P1: { name: NAMES.P1 }, P2: { name: NAMES.P2 } });
  assert.deepEqual(played.actions.map((e) => [e.seat, e.action]), record.actions.map((e) => [e.seat, e.action]));
  assert.ok(played.actions.every((e) => e.by === 'host'), 'every action was entered by the host');
  assert.deepEqual(played.outcome, record.outcome);
  const replay = await getJson(`${server.url}/api/matches/${made.id}/replay`);
  assert.equal(replay.steps.length, played.actions.length + 1);
  return played;
}
