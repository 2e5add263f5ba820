// Starting `umpire serve` and Chromium for the end-to-end tests.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { after, before } from 'node:test';

import { chromium } from 'playwright-core';

import { ReplaySteps } from '../../web/replay-steps.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '..', '..');
/// Where the screenshots go: docs/screenshots (shown by the README), or
/// $UMPIRE_SCREENSHOTS (so that CI need not touch the work tree).
export const SCREENSHOTS = process.env.UMPIRE_SCREENSHOTS
  ? path.resolve(process.env.UMPIRE_SCREENSHOTS)
  : path.join(ROOT, 'docs', 'screenshots');

/// Starts the server, by default on a free port with a fresh database;
/// resolves to {url, dir, stop({keep})}. The binary is $UMPIRE_BIN, else
/// target/debug/umpire. `keep` leaves the database for a restart in `dir`.
/// `args` go to `umpire serve` too (e.g. `--test-games`).
export async function startServer({ addr = '127.0.0.1:0', dir = null, args = [] } = {}) {
  const bin = process.env.UMPIRE_BIN
    ? path.resolve(process.env.UMPIRE_BIN)
    : path.join(ROOT, 'target', 'debug', 'umpire');
  if (!fs.existsSync(bin)) throw new Error(`no umpire binary at ${bin}: build it or set UMPIRE_BIN`);
  dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'umpire-e2e-'));
  const child = spawn(bin, ['serve', '--addr', addr, '--db', path.join(dir, 'e2e.db'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`umpire serve did not start in 20 s:\n${log}`)), 20_000);
    const onData = (chunk) => {
      log += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1].replace(/\/$/, ''));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`umpire serve exited (${code}):\n${log}`));
    });
  });
  const stop = async ({ keep = false } = {}) => {
    if (child.exitCode === null) {
      const gone = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  };
  return { url, dir, stop, log: () => log };
}

/// Headless Chromium from the system (Debian's `chromium`), with a fresh
/// profile (Playwright makes a new user-data-dir for every launch).
export async function startBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/// A server and a browser for a test file: started before its tests,
/// stopped after them. The returned object holds them (`.server`,
/// `.browser`) once started.
export function serveAndBrowse(options = {}) {
  const both = { server: null, browser: null };
  before(async () => {
    both.server = await startServer(options);
    both.browser = await startBrowser();
  });
  after(async () => {
    await both.browser?.close();
    await both.server?.stop();
  });
  return both;
}

/// A page that records its script errors (`page.errors`), every WebSocket
/// frame it receives as parsed JSON (`page.frames`) and every JSON answer
/// from the API (`page.answers`: {url, body}).
/// A page in a fresh context. Unless `person`, the page starts with move
/// confirmation off and sounds muted (settings a person may change, which
/// the tests that click and expect an action sent at once do not want);
/// `settings` sets these (localStorage keys) as given instead.
export async function newPage(browser, { person = false, settings = null, ...options } = {}) {
  const context = await browser.newContext({ reducedMotion: 'reduce', ...options });
  if (settings || !person) {
    const preset = settings ?? { 'umpire.confirm-moves': 'off', 'umpire.sound': 'off' };
    await context.addInitScript((preset) => {
      try {
        for (const [key, value] of Object.entries(preset)) {
          if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
        }
      } catch {
        // a page without storage (about:blank) keeps the defaults
      }
    }, preset);
  }
  const page = await context.newPage();
  page.errors = [];
  page.frames = [];
  page.answers = [];
  page.on('response', async (res) => {
    if (!new URL(res.url()).pathname.startsWith('/api/')) return;
    try {
      page.answers.push({ url: res.url(), body: await res.json() });
    } catch {
      // not JSON
    }
  });
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString('utf8');
      let msg;
      try {
        msg = JSON.parse(text);
      } catch {
        msg = { unparsed: text };
      }
      page.frames.push(msg);
    });
  });
  return page;
}

/// A TCP port that was free a moment ago.
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export async function postJson(url, value) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function getJson(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/// A match's replay with every step's view rebuilt from the patches, as
/// the replay page rebuilds them: `{…, steps: [{entry, view}]}`.
export async function getReplay(url) {
  const data = await getJson(url);
  const steps = new ReplaySteps(data.steps);
  return { ...data, steps: steps.entries.map((entry, i) => ({ entry, view: steps.view(i) })) };
}

export function screenshotPath(name) {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return path.join(SCREENSHOTS, name);
}

/// Waits until the replay page shows its steps; if it shows an error that
/// stays instead (not the note that it is asking again), fails with it.
export async function replayShown(page, timeout = 30_000) {
  await page.waitForFunction(() => {
    const error = document.getElementById('error');
    return !document.getElementById('controls').hidden || (!error.hidden && !error.textContent.includes('asking again'));
  }, null, { timeout });
  if (await page.locator('#controls').isHidden()) {
    throw new Error(`the replay did not open: ${await page.textContent('#error')}`);
  }
}
