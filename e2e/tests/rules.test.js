// End to end: the rules pages draw their examples (pieces, boards, blast
// shapes, a worked example) with the board modules a match uses, instead
// of text art, and every table fits the screen, on a desk and on a phone.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { newPage, screenshotPath, serveAndBrowse } from './helpers.js';

const SIZES = { desk: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/// What each game's rules page draws, checked on the drawing itself.
const DRAWN = {
  'masked-army': { pictures: 1, check: async (page) => assert.equal(await page.locator('.rules-picture .army-outline').count(), 5, 'two red and three blue armies outlined') },
  'flower-domain': { pictures: 1, check: async (page) => assert.equal(await page.locator('.rules-picture .fd-flower').count(), 100, 'a whole meadow') },
  'four-statements': { pictures: 1, check: async (page) => assert.equal(await page.locator('.rules-picture .fs-cell.picked').count(), 4, 'the subset picked') },
  'bomb-domain': {
    pictures: 1,
    check: async (page) => {
      const covered = await page.$$eval('.rules-picture .bd-rules-shape', (els) => els.map((e) => e.querySelectorAll('.covered').length));
      assert.deepEqual(covered, [9, 9, 9, 5], 'square, plus, cross and the final blast');
    },
  },
  'pentomino-wall': {
    pictures: 2,
    check: async (page) => {
      const counts = await page.$$eval('.rules-picture', (els) => els.map((e) => e.querySelectorAll('.pw-rules-piece svg rect').length));
      assert.deepEqual(counts, [60, 40], 'twelve pieces, then L in eight orientations, five cells each');
    },
  },
};

const running = serveAndBrowse();

for (const [game, drawn] of Object.entries(DRAWN)) {
  test(`${game}'s rules: examples drawn, tables that fit, on a desk and a phone`, { timeout: 30_000 }, async () => {
    for (const [where, viewport] of Object.entries(SIZES)) {
      const page = await newPage(running.browser, { viewport });
      await page.goto(`${running.server.url}/rules/${game}`);
      await page.locator('#rules-body p').first().waitFor();
      assert.equal(await page.locator('.rules-picture').count(), drawn.pictures, `${where}: pictures`);
      for (const figure of await page.locator('.rules-picture').all()) {
        const box = await figure.locator('.rules-drawing').boundingBox();
        assert.ok(box.width > 50 && box.height > 30, `${where}: a drawing of some size (${JSON.stringify(box)})`);
        assert.ok(box.x + box.width <= viewport.width, `${where}: the drawing fits the width`);
        assert.match(await figure.locator(':scope > figcaption').textContent(), /\w/);
      }
      await drawn.check(page);
      // No text art left: no preformatted block of `#` pictures.
      const art = await page.$$eval('#rules-body pre', (pres) => pres.filter((p) => /[#■]{1}.*\n.*[#■]/.test(p.textContent)).length);
      assert.equal(art, 0, `${where}: no text art`);
      // Every table fits its column: nothing to scroll sideways.
      const tables = await page.$$eval('#rules-body .table-wrap', (wraps) => wraps.map((w) => [w.scrollWidth, w.clientWidth]));
      for (const [scroll, client] of tables) assert.ok(scroll <= client + 1, `${where}: a table ${scroll} px wide in ${client} px`);
      if (where === 'phone' && game === 'pentomino-wall') await page.screenshot({ path: screenshotPath('rules-phone.png'), fullPage: false });
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  });
}
