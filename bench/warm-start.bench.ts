/**
 * Warm start of the installed app against a cold start without the service worker, in one run, on the emulated
 * Supabase project (tests/e2e/supabase-world.ts). Run by bench/warm-start-bench.mjs, which turns what this
 * writes to WARM_START_RESULT into the result table.
 *
 * A signed-in person with several albums, each with a real photograph as its cover. Each round times, on the
 * page's own clock (zero at navigation start), the first album cover drawn on `/`:
 *   - cold: a context whose service workers are blocked, signed in (the session in storage), the HTTP cache
 *     emptied, then a new page;
 *   - warm: a context where the app's worker is installed and controls the page and the albums screen has been
 *     seen (its covers drawn), then that page closed and a new one opened, as an installed app starts.
 * Both new pages get the same phone-like network through the DevTools protocol before they navigate.
 */
import { writeFileSync } from 'node:fs';
import type { Browser, BrowserContext } from '@playwright/test';
import { expect, test, type Person, type SignIn } from '../tests/e2e/supabase-world';
import { wholeThumbnails } from './bench-photos';
import { seedAlbum } from './bench-seed';
import { workerReady } from '../tests/e2e/helpers';

const ROUNDS = Number(process.env.WARM_START_ROUNDS ?? 5);
const ALBUMS = 6;
const VIEWPORT = { width: 412, height: 915 };
/** A phone on a fair mobile network: 150 ms round trip, 4 Mbit/s down, 1 Mbit/s up. */
/** An album's cover photo; the blurred placeholder under it is an <img> too, drawn from a data: URL at once. */
const COVER = '.album-card__cover img:not([src^="data:"])';
export const NETWORK = { latency: 150, downloadThroughput: (4 * 1024 * 1024) / 8, uploadThroughput: (1 * 1024 * 1024) / 8 };

export interface StartRound {
  kind: 'cold' | 'warm';
  /** First album cover complete with naturalWidth > 0, ms from navigation start. */
  cover: number;
  /** First album card in the page. */
  card: number;
  /** Requests the page made until the cover was drawn, and how many of them the service worker answered. */
  requests: number;
  fromWorker: number;
  /** Bytes the page received over the network (DevTools' encoded lengths) until the cover was drawn. */
  networkBytes: number;
  /** The document and scripts in (responseEnd), and each API call and cover image before the cover: label start→end. */
  documentIn: number;
  scriptsIn: number;
  calls: { label: string; start: number; end: number }[];
}
export interface WarmStartOutput {
  albums: number;
  coverBytes: number;
  network: typeof NETWORK;
  rounds: StartRound[];
}


/** Opens `/` in a new page of `context` under NETWORK and times the first cover drawn. */
async function start(context: BrowserContext, kind: StartRound['kind']): Promise<StartRound> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...NETWORK });
  let networkBytes = 0;
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => void (networkBytes += e.encodedDataLength));
  let requests = 0;
  let fromWorker = 0;
  page.on('response', (r) => {
    requests++;
    if (r.fromServiceWorker()) fromWorker++;
  });
  await page.addInitScript((COVER) => {
    const w = window as unknown as { __cover?: number; __card?: number };
    const tick = () => {
      if (w.__card === undefined && document.querySelector('.album-card')) w.__card = performance.now();
      const img = document.querySelector<HTMLImageElement>(COVER);
      if (img && img.complete && img.naturalWidth > 0) w.__cover = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, COVER);
  await page.goto('/');
  await page.waitForFunction(() => (window as unknown as { __cover?: number }).__cover !== undefined, null, { timeout: 120_000 });
  const t = await page.evaluate(() => {
    const w = window as unknown as { __cover: number; __card: number };
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const label = (url: string) => {
      const u = new URL(url);
      if (u.pathname.endsWith('/thumb.webp')) return 'cover image';
      return u.pathname.replace(/^\/rest\/v1\/rpc\//, 'rpc ').replace(/^\/(rest|auth|functions)\/v1\//, '$1 ');
    };
    return {
      cover: w.__cover,
      card: w.__card,
      documentIn: nav?.responseEnd ?? 0,
      scriptsIn: Math.max(0, ...res.filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js')).map((r) => r.responseEnd)),
      calls: res
        .filter((r) => r.startTime < w.__cover && (r.name.includes('.supabase.') || r.name.includes('/thumb.webp')))
        .map((r) => ({ label: label(r.name), start: r.startTime, end: r.responseEnd })),
    };
  });
  const round = { kind, ...t, requests, fromWorker, networkBytes };
  await cdp.detach();
  await page.close();
  return round;
}

async function coldRound(browser: Browser, signIn: SignIn, who: Person): Promise<StartRound> {
  const context = await browser.newContext({ viewport: VIEWPORT, serviceWorkers: 'block' });
  const page = await signIn(context, who);
  await expect(page.locator('.album-card').first()).toBeVisible();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  await page.close();
  const r = await start(context, 'cold');
  await context.close();
  return r;
}

async function warmRound(browser: Browser, signIn: SignIn, who: Person): Promise<StartRound> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await signIn(context, who);
  await workerReady(page, 60_000);
  // The albums screen seen under the worker: every cover drawn and kept.
  await page.goto('/');
  await expect(page.locator('.album-card')).toHaveCount(ALBUMS);
  await expect
    .poll(
      () =>
        page.evaluate(async (COVER) => {
          const drawn = [...document.querySelectorAll<HTMLImageElement>(COVER)].filter((i) => i.complete && i.naturalWidth > 0).length;
          const kept = (await (await caches.open('shoebox-thumbnails')).keys()).length;
          return drawn > 0 && kept >= drawn;
        }, COVER),
      { timeout: 60_000 },
    )
    .toBe(true);
  await page.close();
  const r = await start(context, 'warm');
  await context.close();
  return r;
}

test('warm start vs cold start: first album cover drawn', async ({ browser, world, signIn }) => {
  test.setTimeout(30 * 60_000);
  const who = await world.newPerson('Wren');
  const photos = (await wholeThumbnails()).slice(0, ALBUMS);
  let coverBytes = 0;
  for (const [i, photo] of photos.entries()) {
    // A few items each; the newest is the cover.
    const album = await seedAlbum(world, who, `Walk ${i + 1}`, 3, [photo]);
    coverBytes += album.thumbBytes / 3;
  }
  const rounds: StartRound[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    rounds.push(await coldRound(browser, signIn, who));
    rounds.push(await warmRound(browser, signIn, who));
  }
  const out: WarmStartOutput = { albums: photos.length, coverBytes, network: NETWORK, rounds };
  const file = process.env.WARM_START_RESULT;
  if (file) writeFileSync(file, JSON.stringify(out, null, 2));
  else console.log(JSON.stringify(out, null, 2));
});
