// How much memory Chromium's processes take while the service worker receives a large share.
// Usage: npx vite build && node scripts/measure-share-memory.mjs [total MB = 400] [files = 40] [port = 4299]
// Runs the production build under `vite preview`, in a persistent profile (an incognito profile keeps
// IndexedDB in memory, which no installed app does), shares the files as the OS does (a navigation POST
// of multipart/form-data) and samples every Chromium process's resident memory while it is received.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

const totalMb = Number(process.argv[2] ?? 400);
const fileCount = Number(process.argv[3] ?? 40);
const port = Number(process.argv[4] ?? 4299);
const base = `http://127.0.0.1:${port}`;

const work = mkdtempSync(join(tmpdir(), 'share-memory-'));
const profile = join(work, 'profile');
const files = [];
const chunk = randomBytes(1024 * 1024);
const perFile = Math.max(1, Math.floor(totalMb / fileCount));
for (let i = 0; i < fileCount; i++) {
  const path = join(work, `photo-${String(i).padStart(3, '0')}.jpg`);
  const fd = openSync(path, 'w');
  for (let m = 0; m < perFile; m++) writeSync(fd, chunk);
  closeSync(fd);
  files.push(path);
}

function rssKb(pid) {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Every process of the browser that uses `profile`, with its role (browser, renderer, gpu-process, …). */
function chromiumProcesses() {
  const all = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Chromium's child processes rewrite their command line into one string: split on spaces too.
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split(/[\0 ]/);
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1]);
      all.push({ pid: Number(name), ppid, cmd });
    } catch {
      // The process ended meanwhile.
    }
  }
  const root = all.find((p) => p.cmd.some((a) => a === `--user-data-dir=${profile}`) && !p.cmd.some((a) => a.startsWith('--type=')));
  if (!root) return [];
  const mine = new Set([root.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) {
      if (mine.has(p.pid) || !mine.has(p.ppid)) continue;
      mine.add(p.pid);
      grew = true;
    }
  }
  return all.filter((p) => mine.has(p.pid)).map((p) => ({ pid: p.pid, type: p.cmd.find((a) => a.startsWith('--type='))?.slice(7) ?? 'browser' }));
}

const server = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { detached: true, stdio: 'ignore' });
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(base)).ok) break;
    } catch {
      if (i > 100) throw new Error('vite preview did not start');
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: chromiumArgs, baseURL: base });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
  await page.goto('about:blank');
  await new Promise((r) => setTimeout(r, 2000));

  const baseline = new Map(chromiumProcesses().map((p) => [p.pid, { ...p, before: rssKb(p.pid), peak: rssKb(p.pid) }]));
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const p of chromiumProcesses()) {
        const rss = rssKb(p.pid);
        const seen = baseline.get(p.pid) ?? { ...p, before: 0, peak: 0 };
        seen.peak = Math.max(seen.peak, rss);
        baseline.set(p.pid, seen);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();

  await page.setContent(`<form method="post" action="${base}/share-target" enctype="multipart/form-data"><input type="file" name="files" multiple></form>`);
  await page.locator('input').setInputFiles(files);
  const started = Date.now();
  await page.locator('form').evaluate((f) => f.submit());
  await page.waitForURL(/\/share-target\?inbox=/, { timeout: 600_000 });
  const received = Date.now() - started;
  const heading = await page.getByRole('heading', { name: / files · / }).textContent({ timeout: 60_000 });
  sampling = false;
  await sampler;
  // Once IndexedDB has its copies, the received blobs are let go of.
  await new Promise((r) => setTimeout(r, 5000));
  for (const p of baseline.values()) p.after = rssKb(p.pid);

  console.log(`Shared ${fileCount} files, ${fileCount * perFile} MB; received and stored in ${(received / 1000).toFixed(1)} s; the page says "${heading}"`);
  console.log('process           pid    RSS before   peak RSS   growth  5 s later');
  for (const p of [...baseline.values()].sort((a, b) => b.peak - b.before - (a.peak - a.before))) {
    const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`.padStart(9);
    console.log(`${p.type.padEnd(16)} ${String(p.pid).padStart(6)} ${mb(p.before)}  ${mb(p.peak)}  ${mb(p.peak - p.before)}  ${mb(p.after)}`);
  }
  await context.close();
} finally {
  process.kill(-server.pid);
  rmSync(work, { recursive: true, force: true });
}
