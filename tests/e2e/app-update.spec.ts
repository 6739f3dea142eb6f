import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixtureBytes } from './helpers';

/**
 * Two builds of the app served one after the other at the same origin, as a static host would after a deploy:
 * the production build Playwright made, and the same with different service worker bytes (what any change to
 * the app does to sw.js, whose precache list names every file's revision).
 */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.map': 'application/json',
};

/** Next to the port the suite's own build is served on, so that parallel suites on other ports do not meet. */
const UPDATE_PORT = Number(process.env.E2E_PORT ?? 4173) + 1000;
test.use({ baseURL: `http://127.0.0.1:${UPDATE_PORT}` });

interface Deploys {
  origin: string;
  deploy(which: 'first' | 'second'): void;
  stop(): Promise<void>;
}

async function serveTwoBuilds(): Promise<Deploys> {
  const dist = join(import.meta.dirname, '..', '..', 'dist');
  const dir = mkdtempSync(join(tmpdir(), 'shoebox-update-'));
  const first = join(dir, 'first');
  const second = join(dir, 'second');
  cpSync(dist, first, { recursive: true });
  cpSync(dist, second, { recursive: true });
  appendFileSync(join(second, 'sw.js'), '\n// the second deploy\n');
  let root = first;
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(root, path);
    // The SPA's fallback, as static hosts are set up: unknown paths get index.html.
    if (!existsSync(file) || statSync(file).isDirectory()) file = join(root, 'index.html');
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(UPDATE_PORT, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${UPDATE_PORT}`,
    deploy: (which) => void (root = which === 'first' ? first : second),
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function controlledBy(page: Page): Promise<string> {
  return page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
    }
    return navigator.serviceWorker.controller?.scriptURL ?? '';
  });
}

/** What the browser does on its own at the next navigation or hourly check: asks the host for sw.js again. */
async function checkForUpdate(page: Page): Promise<void> {
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
}

/** The new worker took over: it controls the page and none waits behind it. */
async function updated(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    return !!reg?.active && !reg.waiting && !!navigator.serviceWorker.controller;
  });
}

/** A read of the page that may meet the reload under way: then it is read again. */
const duringNavigation = <T>(read: Promise<T>): Promise<T | 'navigating'> => read.catch(() => 'navigating' as const);

let deploys: Deploys;
test.beforeEach(async () => {
  deploys = await serveTwoBuilds();
});
test.afterEach(async () => {
  await deploys.stop();
});

test('a new deploy shows the update prompt, and nothing reloads until Reload is clicked', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  await controlledBy(page);
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));

  deploys.deploy('second');
  await checkForUpdate(page);
  const prompt = page.getByRole('region', { name: 'Update' });
  await expect(prompt.getByText('A new version of Shoebox is ready.')).toBeVisible({ timeout: 30_000 });
  // The new version waits: same page, the old worker still in control, a worker waiting behind it.
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting)).toBe(true);

  await prompt.getByRole('button', { name: 'Reload' }).click();
  await expect.poll(() => duringNavigation(page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed ?? false)), { timeout: 30_000 }).toBe(false);
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  await expect.poll(() => duringNavigation(updated(page))).toBe(true);
  await expect(prompt).toBeHidden();
});

test('Reload while photos upload waits for the uploads to finish, then reloads with every photo there', async ({ page, context }) => {
  await page.goto('/');
  await createAlbum(page, 'Holiday');
  await controlledBy(page);

  deploys.deploy('second');
  await checkForUpdate(page);
  const prompt = page.getByRole('region', { name: 'Update' });
  await expect(prompt.getByText('A new version of Shoebox is ready.')).toBeVisible({ timeout: 30_000 });

  // A slow device, so the uploads are still running when Reload is clicked.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  const photo = fixtureBytes('orientation-6.jpg');
  const files = Array.from({ length: 8 }, (_, i) => ({ name: `photo-${i + 1}.jpg`, mimeType: 'image/jpeg', buffer: Buffer.concat([photo, Buffer.from(`#${i}`)]) }));
  // What the page held when it was left, read back after the reload.
  await page.evaluate(() =>
    window.addEventListener('pagehide', () => {
      const count = /(\d+) items? ·/.exec(document.body.innerText)?.[1] ?? 'none';
      sessionStorage.setItem('left-with', count);
    }),
  );
  await addFiles(page, files);
  await expect(page.getByText(/^\d+ of 8 uploaded$/)).toBeVisible();

  await prompt.getByRole('button', { name: 'Reload' }).click();
  await expect(prompt.getByRole('status')).toHaveText('It will load when your uploads finish.');
  expect(await page.evaluate(() => sessionStorage.getItem('left-with'))).toBeNull();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

  // The page reloads by itself once the queue is done, and left only when all eight were in the album.
  await expect.poll(() => duringNavigation(page.evaluate(() => sessionStorage.getItem('left-with'))), { timeout: 90_000 }).toBe('8');
  await expectItemCount(page, 8);
  await expect.poll(() => duringNavigation(updated(page))).toBe(true);
  await expect(prompt).toBeHidden();
});
