// Shows the web client against a scripted stand-in for `umpire serve`, for
// working on the pages without the Rust server: every request of a fake
// origin is answered in the browser (HTTP by page.route, the WebSocket by
// page.routeWebSocket). Writes screenshots to /tmp/preview-*.png.
//
//   node preview.js
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web');
const ORIGIN = 'http://umpire.test';
const COLS = 'ABCDEFGHI';

class Game {
  constructor() {
    this.cells = Array(81).fill(null);
    this.phase = 'first';
    this.toMove = 'P1';
    this.last = null;
    this.pieces = 0;
    this.seq = 0;
    this.outcome = null;
    this.actions = [];
  }
  legal() {
    if (this.phase === 'first') return ['first P1', 'first P2'];
    const out = [];
    for (let i = 0; i < 81; i++) {
      if (this.cells[i]) continue;
      const c = i % 9;
      const r = Math.floor(i / 9);
      for (const [dc, dr] of [[0, -1], [1, 0], [0, 1], [-1, 0]]) {
        const nc = c + dc;
        const nr = r + dr;
        if (nc < 0 || nr < 0 || nc > 8 || nr > 8 || this.cells[nr * 9 + nc]) continue;
        out.push(`${COLS[c]}${r + 1} ${COLS[nc]}${nr + 1}`);
      }
    }
    return out;
  }
  apply(seat, text) {
    if (this.outcome) return { rule: 'over', message: 'the match is over' };
    if (seat !== this.toMove) return { rule: 'turn', message: `it is ${this.toMove}'s turn` };
    const t = text.trim().toUpperCase().replace(/[-,]/g, ' ').replace(/\s+/g, ' ');
    if (this.phase === 'first') {
      if (t !== 'FIRST P1' && t !== 'FIRST P2') return { rule: 'notation', message: 'choose `first P1` or `first P2`' };
      this.phase = 'place';
      this.toMove = t.slice(-2);
    } else {
      const m = /^([A-I])([1-9]) ([A-I])([1-9])$/.exec(t);
      if (!m) return { rule: 'notation', message: `expected two cells such as E5 F5, got \`${text}\`` };
      const a = (Number(m[2]) - 1) * 9 + COLS.indexOf(m[1]);
      const b = (Number(m[4]) - 1) * 9 + COLS.indexOf(m[3]);
      if (this.cells[a]) return { rule: 'occupied', message: `${m[1]}${m[2]} is already occupied` };
      if (this.cells[b]) return { rule: 'occupied', message: `${m[3]}${m[4]} is already occupied` };
      if (Math.abs((a % 9) - (b % 9)) + Math.abs(Math.floor(a / 9) - Math.floor(b / 9)) !== 1) {
        return { rule: 'adjacent', message: 'the two cells of a piece must share a side' };
      }
      const other = seat === 'P1' ? 'P2' : 'P1';
      this.cells[a] = seat;
      this.cells[b] = other;
      this.last = { by: seat, mine: `${m[1]}${m[2]}`, theirs: `${m[3]}${m[4]}` };
      this.pieces += 1;
      this.toMove = other;
      if (!this.legal().length) this.finish(seat);
    }
    this.actions.push({ seat, action: t, at_ms: this.seq * 1000 });
    this.seq += 1;
    return null;
  }
  sizes() {
    const seen = new Set();
    const sizes = { P1: [], P2: [] };
    for (let i = 0; i < 81; i++) {
      if (!this.cells[i] || seen.has(i)) continue;
      const stack = [i];
      seen.add(i);
      let n = 0;
      while (stack.length) {
        const j = stack.pop();
        n++;
        const c = j % 9;
        for (const k of [j - 9, j + 9, c > 0 ? j - 1 : -1, c < 8 ? j + 1 : -1]) {
          if (k >= 0 && k < 81 && this.cells[k] === this.cells[i] && !seen.has(k)) {
            seen.add(k);
            stack.push(k);
          }
        }
      }
      sizes[this.cells[i]].push(n);
    }
    sizes.P1.sort((x, y) => y - x);
    sizes.P2.sort((x, y) => y - x);
    return sizes;
  }
  finish(lastBy) {
    this.phase = 'over';
    this.toMove = null;
    const s = this.sizes();
    let winner = lastBy;
    let decided = 'last piece placed';
    const names = ['largest army', 'second-largest army', 'third-largest army'];
    for (let i = 0; i < Math.max(s.P1.length, s.P2.length); i++) {
      const a = s.P1[i] ?? 0;
      const b = s.P2[i] ?? 0;
      if (a !== b) {
        winner = a > b ? 'P1' : 'P2';
        decided = names[i] ?? `army ${i + 1}`;
        break;
      }
    }
    this.outcome = {
      winner,
      scores: { P1: s.P1[0] ?? 0, P2: s.P2[0] ?? 0 },
      decided_by: decided,
      reason: `${winner} wins: ${decided} (${s.P1.join(', ')} against ${s.P2.join(', ')})`,
    };
  }
  view(viewer) {
    const reveal = viewer === 'umpire' || this.phase === 'over';
    const lastCells = this.last ? [this.last.mine, this.last.theirs] : [];
    const board = [];
    for (let r = 0; r < 9; r++) {
      let row = '';
      for (let c = 0; c < 9; c++) {
        const v = this.cells[r * 9 + c];
        const name = `${COLS[c]}${r + 1}`;
        row += !v ? '.' : reveal || lastCells.includes(name) ? (v === 'P1' ? '1' : '2') : '#';
      }
      board.push(row);
    }
    return {
      phase: this.phase,
      advantage: 'P1',
      to_move: this.toMove,
      board,
      last: this.last,
      pieces: this.pieces,
      armies: this.phase === 'over' ? this.sizes() : null,
    };
  }
  state(viewer, since) {
    const now = Date.now();
    const clock = (seat) => ({
      running: !this.outcome && this.toMove === seat,
      turn_ms: this.toMove === seat ? Math.max(0, 120_000 - (now - since)) : 120_000,
      bank_ms: seat === 'P1' ? 287_000 : 300_000,
      periods: 0,
      period_ms: 0,
      reserve: true,
    });
    const msg = {
      type: 'state',
      seq: this.seq,
      view: this.view(viewer),
      decision: this.outcome ? { seats: [], simultaneous: false, kind: 'over' } : { seats: [this.toMove], simultaneous: false, kind: this.phase },
      clocks: this.outcome ? null : { P1: clock('P1'), P2: clock('P2') },
      outcome: this.outcome,
      seats: { P1: { kind: 'person', connected: true }, P2: { kind: 'bot', bot: 'random' } },
    };
    if (viewer === this.toMove && !this.outcome) msg.legal = this.legal();
    return msg;
  }
}

/// Plays random moves for both seats until `pieces` pieces are down.
function advance(game, pieces) {
  if (game.phase === 'first') game.apply('P1', 'first P1');
  while (!game.outcome && game.pieces < pieces) {
    const legal = game.legal();
    game.apply(game.toMove, legal[Math.floor(Math.random() * legal.length)]);
  }
}

async function serve(page, game, viewer) {
  const token = { P1: 'tok-p1', umpire: 'tok-ump' };
  let since = Date.now();
  await page.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    const p = url.pathname;
    const file = (name) => route.fulfill({ path: path.join(WEB, name) });
    if (p === '/') return file('index.html');
    if (p.startsWith('/m/')) return file('match.html');
    if (p.startsWith('/replay')) return file('replay.html');
    if (p.startsWith('/static/')) return file(p.slice('/static/'.length));
    const json = (body, status = 200) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
    if (p === '/api/games') {
      return json([{ id: 'masked-army', name: 'Masked Army', rules: fs.readFileSync(path.join(WEB, '../crates/games/masked-army/RULES.md'), 'utf8'), default_config: { advantage: 'P1' }, bots: [{ name: 'random', level: 'easy' }, { name: 'greedy', level: 'medium' }] }]);
    }
    if (p === '/api/matches' && route.request().method() === 'POST') {
      return json({ id: 'm1', links: { P1: `/m/m1?t=${token.P1}`, P2: null, spectator: '/m/m1', umpire: `/m/m1?t=${token.umpire}` } }, 201);
    }
    if (p === '/api/matches') {
      const s = (id, moves, outcome) => ({ id, game: 'masked-army', name: 'Masked Army', created_ms: Date.now() - 90_000, seats: { P1: { kind: 'person', connected: true }, P2: { kind: 'bot', bot: 'greedy' } }, moves, outcome });
      return json({ open: [s('open1', 0, null)], live: [s('live1', 14, null), s('live2', 3, null)], finished: [s('done1', 41, { winner: 'P1', scores: { P1: 9, P2: 7 }, decided_by: 'largest army', reason: 'P1 wins' })] });
    }
    if (p.startsWith('/api/matches/') && p.endsWith('/replay')) {
      const g = new Game();
      const steps = [{ entry: null, view: g.view('umpire') }];
      for (const a of game.actions) {
        g.apply(a.seat, a.action);
        steps.push({ entry: a, view: g.view('umpire') });
      }
      return json({ game: 'masked-army', record: {}, steps, outcome: g.outcome });
    }
    if (p.startsWith('/api/matches/')) return json(game.state(viewer, since));
    return route.fulfill({ status: 404, body: 'not found' });
  });
  await page.routeWebSocket(`${ORIGIN.replace('http', 'ws')}/ws/**`, (ws) => {
    const send = (m) => ws.send(JSON.stringify(m));
    send({ type: 'hello', you: viewer, game: 'masked-army', name: 'Masked Army', match: 'm1' });
    send(game.state(viewer, since));
    ws.onMessage((data) => {
      const msg = JSON.parse(data);
      if (msg.type !== 'act') return;
      const err = game.apply(viewer, msg.action);
      if (err) return send({ type: 'error', ...err });
      since = Date.now();
      send({ type: 'accepted', action: msg.action.toUpperCase(), seq: game.seq });
      send(game.state(viewer, since));
      if (!game.outcome && game.toMove === 'P2') {
        const legal = game.legal();
        game.apply('P2', legal[Math.floor(Math.random() * legal.length)]);
        since = Date.now();
        send(game.state(viewer, since));
      }
    });
  });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const out = process.env.PREVIEW_DIR ?? os.tmpdir();
try {
  for (const [name, size] of [['desk', { width: 1200, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
    const page = await browser.newPage({ viewport: size, reducedMotion: 'reduce' });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    page.on('console', (m) => m.type() === 'error' && console.error('console:', m.text()));
    const game = new Game();
    advance(game, 20);
    await serve(page, game, 'P1');
    await page.goto(`${ORIGIN}/`);
    await page.locator('#open li[data-match]').first().waitFor();
    await page.screenshot({ path: `${out}/preview-${name}-lobby.png`, fullPage: true });
    await page.click('#create-button');
    await page.locator('#links').waitFor();
    await page.screenshot({ path: `${out}/preview-${name}-created.png`, fullPage: true });
    await page.goto(`${ORIGIN}/m/m1?t=tok-p1`);
    await page.locator('.ma-board').waitFor();
    // Make one move by clicking, then pick a first cell and show the preview.
    const first = (await page.locator('.cell.playable').first().getAttribute('data-cell'));
    await page.click(`[data-cell="${first}"]`);
    const second = await page.locator('.cell.target').first().getAttribute('data-cell');
    await page.click(`[data-cell="${second}"]`);
    await page.waitForFunction(() => !document.querySelector('#error:not([hidden])'));
    await page.locator('.cell.playable').first().click();
    await page.keyboard.press('ArrowRight');
    await page.screenshot({ path: `${out}/preview-${name}-match.png`, fullPage: true });
    await page.fill('#move-text', 'Z9 A1');
    await page.click('#move button');
    await page.locator('#error:not([hidden])').waitFor();
    advance(game, 200);
    await page.reload();
    await page.locator('#end:not([hidden])').waitFor();
    await page.screenshot({ path: `${out}/preview-${name}-end.png`, fullPage: true });
    await page.goto(`${ORIGIN}/replay/m1`);
    await page.locator('.ma-board').waitFor();
    await page.click('#prev');
    await page.screenshot({ path: `${out}/preview-${name}-replay.png`, fullPage: true });
    await page.close();
  }
} finally {
  await browser.close();
}
console.log(`screenshots in ${out}/preview-*.png`);
