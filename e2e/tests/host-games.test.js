// A host runs a match of every game from the console: a whole match worked
// out by the arena's bots, every action entered as the players would have
// sent it by private message, each private text and picture (and the
// audience's) copied and checked against that viewer's own view, then the
// result, the record and its replay.
import { after, before, describe, test } from 'node:test';

import { startBrowser, startServer } from './helpers.js';
import { botRecord, checkResult, hostMatch, openConsole, playThrough } from './hosting.js';

let server;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

/// Each game, its config (a round limit where random play never ends), and
/// how often the copies are checked (every step, or every other in long
/// games).
const GAMES = [
  ['masked-army', {}, 1],
  ['flower-domain', {}, 2],
  ['four-statements', { max_rounds: 2 }, 1],
  ['bomb-domain', {}, 2],
  ['pentomino-wall', {}, 3],
];

describe('a host plays every game to the end from the console', { concurrency: 2 }, () => {
  for (const [game, config, every] of GAMES) {
    // A browser each: the games run side by side, and a browser's
    // clipboard is its own.
    test(game, { timeout: 600_000 }, async () => {
      const browser = await startBrowser();
      try {
        const record = await botRecord(game, 32, config);
        const made = await hostMatch(server, record);
        const page = await openConsole(browser, server, made);
        await playThrough(page, server, made, record, { every });
        await checkResult(page, server, made, record);
      } finally {
        await browser.close();
      }
    });
  }
});
