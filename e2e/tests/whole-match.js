// A whole match played by clicking, as a person plays it: every action is
// staged on the board, then confirmed in the action bar. After each staged
// action the bar's Confirm button, both clocks and the turn line must be on
// the screen, and the staged action drawn on the board; on a phone, the
// page must not have scrolled to reach any click. Shared by the games'
// browser tests (each gives its own clicks). A whole match takes as long as
// the match and the machine's load make it, so the tests that play one have
// generous timeouts: each step's own wait below is what catches a hang.
import assert from 'node:assert/strict';

import { newPage, postJson, screenshotPath } from './helpers.js';

/// The time limit of a test that plays a whole match (see above).
export const WHOLE_MATCH_MS = 600_000;

export const DESK = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/// What must stay on the screen while an action waits for confirmation.
const IN_VIEW = ['#confirm-yes', '#confirm-no', '#clock-P1', '#clock-P2', '#turn'];

/// Whether the box lies wholly inside the viewport.
function inside(box, viewport) {
  return !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width + 0.5 && box.y + box.height <= viewport.height + 0.5;
}

/// Asserts that the action bar shows what it must, and that the staged
/// action is drawn on the board (at least one element marked data-staged,
/// one of them on the screen); `drawn(page, action)` checks the drawing in
/// the game's own terms.
export async function assertStaged(page, viewport, drawn, where) {
  const action = await page.evaluate(() => document.body.dataset.staged ?? null);
  assert.ok(action, `${where}: an action is staged`);
  for (const selector of IN_VIEW) {
    const box = await page.locator(selector).boundingBox();
    assert.ok(inside(box, viewport), `${where}: ${selector} is on the screen (${JSON.stringify(box)}), staged ${action}`);
  }
  const marks = page.locator('#board [data-staged]');
  assert.ok((await marks.count()) > 0, `${where}: the staged action ${action} is drawn on the board`);
  const onScreen = await marks.evaluateAll(
    (els, vp) =>
      els.some((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.bottom > 0 && r.right > 0 && r.top < vp.height && r.left < vp.width;
      }),
    viewport,
  );
  assert.ok(onScreen, `${where}: the drawing of ${action} is on the screen`);
  await drawn?.(page, action);
  return action;
}

/// Creates a timed match of `game` between a person (P1) and `bot` (P2);
/// returns P1's page, opened at `viewport` with confirmation on and sounds
/// off, once the match has loaded.
export async function openAgainstBot(browser, server, game, bot, viewport, config = undefined) {
  const made = await postJson(`${server.url}/api/matches`, {
    game,
    timed: true,
    ...(config ? { config } : {}),
    seats: { P1: { kind: 'person' }, P2: { kind: 'bot', bot } },
  });
  const page = await newPage(browser, { viewport, settings: { 'umpire.confirm-moves': 'on', 'umpire.sound': 'off' } });
  // How far the page was ever scrolled: on a phone a move must need none.
  await page.addInitScript(() => {
    window.umpireScrolled = 0;
    addEventListener('scroll', () => (window.umpireScrolled = Math.max(window.umpireScrolled, scrollY)), { passive: true });
    // What was clicked while scrolled: the failure names it.
    addEventListener('pointerdown', (e) => {
      if (scrollY > 0 && !window.umpireScrolledTo) {
        const el = e.target.closest('[data-cell],[data-tool],[data-action],button,select,input') ?? e.target;
        window.umpireScrolledTo = el.outerHTML.slice(0, 160);
      }
    }, true);
  });
  await page.goto(`${server.url}${made.links.P1}`);
  await page.waitForFunction(() => document.body.dataset.seq !== undefined, null, { timeout: 15_000 });
  return { page, made };
}

/// Clicks (taps, with `tap`) the board's submit button `selector` where a
/// player finds it: in the action bar on a phone (which then hides the
/// board's copy), in the board on a desk.
export async function submit(page, selector, { tap = false } = {}) {
  const bar = page.locator('#bar-submit');
  const target = (await bar.isVisible()) ? bar : page.locator(selector);
  return tap ? target.tap() : target.click();
}

const accepted = (page) => page.frames.filter((f) => f.type === 'accepted').length;
const refusals = (page) => page.frames.filter((f) => f.type === 'error');

/// Plays the match on `page` to its end: whenever it is this seat's turn,
/// `stage(page, n)` clicks until an action waits for confirmation; the
/// bar and the drawing are checked, then Confirm is clicked and the
/// server's acceptance awaited. Returns the number of actions confirmed.
/// `shot` ({at, name}): a screenshot of the screen with action `at` staged.
export async function playByClicking(page, viewport, { stage, drawn, where, shot = null, maxActions = 400 }) {
  let n = 0;
  for (;;) {
    await page.waitForFunction(
      () => document.body.classList.contains('my-turn') || document.body.dataset.over === 'yes',
      null,
      { timeout: 60_000 },
    );
    if (await page.evaluate(() => document.body.dataset.over === 'yes')) return n;
    assert.ok(n < maxActions, `${where}: the match ends within ${maxActions} actions`);
    await stage(page, n);
    await page.locator('#confirm-bar:not([hidden])').waitFor({ timeout: 10_000 });
    const action = await assertStaged(page, viewport, drawn, `${where}, action ${n + 1}`);
    // Every click of the action landed where the page was, not scrolled
    // (a click on something off-screen or under the bar scrolls first).
    if (viewport.width <= PHONE.width) {
      const [scrolled, to] = await page.evaluate(() => [window.umpireScrolled, window.umpireScrolledTo]);
      assert.equal(scrolled, 0, `${where}, action ${n + 1} (${action}): made without scrolling (the page scrolled ${scrolled} px to reach ${to})`);
    }
    if (shot?.at === n) await page.screenshot({ path: screenshotPath(shot.name) });
    const before = accepted(page);
    const refused = refusals(page).length;
    const seq = await page.evaluate(() => Number(document.body.dataset.seq));
    await page.click('#confirm-yes');
    await waitUntil(() => accepted(page) > before || refusals(page).length > refused, `${where}: an answer to ${action}`);
    assert.equal(refusals(page).length, refused, `${where}: ${action} refused: ${JSON.stringify(refusals(page).at(-1))}`);
    n += 1;
    // A seat that acts always gets a new decision: its page draws a new
    // state before it looks for its next turn.
    await page.waitForFunction((s) => Number(document.body.dataset.seq) > s, seq, { timeout: 15_000 });
  }
}

async function waitUntil(check, what, ms = 15_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/// A whole timed match of `game` against `bot` played by clicking at each
/// size at once, as [`playByClicking`] plays it (`stage(page, n, where)`,
/// `drawn`), with a screenshot of the screen with action `shotAt` staged
/// (`play-<game>-desk.png`, `play-<game>-phone.png`); `check(page, n, where)` looks at
/// the end screen.
export async function playBothSizes(browser, server, { game, bot, config, stage, drawn, shotAt, check }) {
  await Promise.all(
    Object.entries({ desk: DESK, phone: PHONE }).map(async ([where, viewport]) => {
      const { page } = await openAgainstBot(browser, server, game, bot, viewport, config);
      const shot = { at: shotAt, name: `play-${game}-${where}.png` };
      const n = await playByClicking(page, viewport, { stage: (p, i) => stage(p, i, where), drawn, where, shot });
      await page.locator('#end:not([hidden])').waitFor();
      await check?.(page, n, where);
      assert.deepEqual(page.errors, [], `${where}: no script errors`);
      await page.context().close();
    }),
  );
}
