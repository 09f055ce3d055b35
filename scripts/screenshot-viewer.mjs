#!/usr/bin/env node
// Takes docs/viewer.png: the web viewer on a copy of fixtures/mini-harness, its graph view beside
// the answer to a search. Needs `npm run build` first and Debian's Chromium (CHROMIUM_PATH to use
// another); playwright-core never downloads a browser.
//   node scripts/screenshot-viewer.mjs [--out docs/viewer.png]
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const outIndex = process.argv.indexOf('--out');
const out = path.resolve(root, outIndex > 0 ? process.argv[outIndex + 1] : path.join('docs', 'viewer.png'));
const question = 'where is secret masking done?';
const size = { width: 1200, height: 800 };

const scratch = mkdtempSync(path.join(os.tmpdir(), 'handbook-screenshot-'));
const repo = path.join(scratch, 'mini-harness');
cpSync(path.join(root, 'fixtures', 'mini-harness'), repo, { recursive: true, filter: (source) => !source.split(path.sep).includes('.handbook') });
execFileSync(process.execPath, [cli, 'build', repo, '--no-progress'], { stdio: 'ignore' });

const server = spawn(process.execPath, [cli, 'serve', '--repo', repo, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
let browser;
try {
  const url = await new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error('handbook serve did not start')), 60_000);
    server.stdout.on('data', (chunk) => {
      log += chunk;
      const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`handbook serve exited with ${code}`)));
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  const page = await browser.newPage({ viewport: size, deviceScaleFactor: 1 });
  const loaded = (view) => page.waitForSelector(`body[data-view="${view}"]:not([data-loading])`, { timeout: 60_000 });

  await page.goto(`${url}/#/graph`);
  await loaded('graph');
  await page.waitForSelector('.graph-canvas[data-ready="true"] canvas');
  await page.waitForTimeout(1000);
  const graphShot = PNG.sync.read(await page.screenshot());

  await page.fill('#search', question);
  await page.press('#search', 'Enter');
  await loaded('search');
  await page.waitForSelector('a.result');
  const searchShot = PNG.sync.read(await page.screenshot());

  // Side by side, with a grey rule between them.
  const gap = 6;
  const picture = new PNG({ width: size.width * 2 + gap, height: size.height });
  picture.data.fill(0xc8);
  PNG.bitblt(graphShot, picture, 0, 0, size.width, size.height, 0, 0);
  PNG.bitblt(searchShot, picture, 0, 0, size.width, size.height, size.width + gap, 0);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, PNG.sync.write(picture, { colorType: 2 }));
  console.log(`wrote ${path.relative(root, out)} (${picture.width}×${picture.height})`);
} finally {
  await browser?.close();
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  rmSync(scratch, { recursive: true, force: true });
}
