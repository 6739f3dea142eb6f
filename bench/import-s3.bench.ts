/**
 * Importing a shoot end to end on Supabase and S3: N camera JPEGs (24 MP; IMPORT_BENCH_N, default 1,000) dropped
 * into an album by its owner, in the production build over the emulated Supabase project (tests/e2e/supabase-world.ts:
 * the wire emulator on PostgreSQL, storage-sign in Deno, the Ceph bucket behind its https endpoint), until every one
 * is in a second member's grid, told live. Against two baselines in the same run, on the same photos, in the same
 * browser: the media pipeline alone and bare XMLHttpRequest PUTs of the same bytes to the same bucket endpoint
 * (URLs presigned beforehand), as many files at once as the upload queue runs. Run by bench/import-s3-bench.mjs,
 * which turns what this writes to IMPORT_S3_RESULT into the result table.
 *
 * The owner's browser keeps its profile on disk (the upload queue keeps each file until it is sent: gigabytes, past
 * an in-memory profile's quota) and runs with no Playwright route: it reaches the project through
 * bench/direct-gateway.ts and the bucket at its endpoint. The second member's browser is routed as in the end-to-end
 * tests, its bucket requests excepted (`directBucket`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Page } from '@playwright/test';
import { launchChromiumProfile } from '../scripts/built-app.mjs';
import { chromiumArgs } from '../scripts/chromium.mjs';
import { buildBenchPage, serveStatic, topSelfTime, traceMainThread } from './bench-utils.mjs';
import { browserProcessOf, cpuByCommand, cpuByKind, cpuByThread, cpuSpent, renderersOf, secondsLeft } from './chromium-procs.mjs';
import { writeShoot } from './shoot.mjs';
import { footprint, tabRenderer, vmRss } from './tab-memory.mjs';
import { expect, PASSWORD, test } from '../tests/e2e/supabase-world';
import { startDirectGateway } from './direct-gateway';

const N = Number(process.env.IMPORT_BENCH_N ?? 1000);
// IMPORT_BENCH_PROFILE=1: the app built unminified and the owner's main thread profiled over the import, as in
// bench/import-bench.mjs; no result is written, since the profiler costs time.
const PROFILE = !!process.env.IMPORT_BENCH_PROFILE;
const VIEWPORT = { width: 1280, height: 800 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Cpu = Record<string, number>;
interface Sample {
  t: number;
  footprint: number;
  rss: number;
  done: number | null;
  bar: string;
}
export interface ImportS3Output {
  n: number;
  bytes: number;
  /** `machine`: every process on the machine, by command name. */
  pipeline: { ms: number; made: number; cpu: [Cpu, Cpu]; machine: [Cpu, Cpu] };
  puts: { ms: number; bytes: number; cpu: [Cpu, Cpu] };
  import: {
    /** Files chosen → the owner's album counts every item and the upload bar is gone. */
    ownerMs: number;
    /** Files chosen → the second member's open album counts every item and shows thumbnails. */
    memberMs: number;
    ready: number;
    footprintBefore: number;
    rssBefore: number;
    peakFootprint: number;
    peakRss: number;
    half: { t: number; done: number; said: number; remained: number; bar: string } | null;
    cpu: [Cpu, Cpu];
    threads: [Cpu, Cpu];
    /** Every process on the machine, by command name. */
    machine: [Cpu, Cpu];
    /** The owner's browser process, by thread. */
    browserThreads: [Cpu, Cpu];
  };
}

/** The bucket as the test gateway's own address serves it, for presigning against `endpoint` and for cleaning up. */
function bucketClient(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: process.env.S3_TEST_REGION!,
    forcePathStyle: true,
    credentials: { accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID!, secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY! },
  });
}

/** Deletes every object under `prefix`: the gateway keeps them in memory. */
async function empty(s3: S3Client, prefix: string): Promise<void> {
  const Bucket = process.env.S3_TEST_BUCKET!;
  for (;;) {
    const page = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, MaxKeys: 1000 }));
    const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
    if (keys.length === 0) return;
    await s3.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
  }
}

test.use({ directBucket: true });

/** The album header's "N items ·" line and the grid's thumbnails, as a person sees them. */
async function albumState(page: Page, want: string) {
  return page.evaluate((w) => {
    const bar = document.querySelector('aside[aria-label="Upload progress"] .upload-bar__text');
    const counted = [...document.querySelectorAll('.page-header__text > p')].some((el) => el.textContent?.startsWith(w));
    const thumbs = [...document.querySelectorAll<HTMLImageElement>('img.tile__thumb')].filter((i) => i.complete && i.naturalWidth > 0).length;
    return { bar: bar?.textContent ?? '', counted, thumbs };
  }, want);
}

test('import a shoot into an album on Supabase and S3, against the pipeline alone and bare PUTs', async ({ world, signIn }) => {
  test.setTimeout(N * 10_000 + 600_000);
  const work = mkdtempSync(join(tmpdir(), 'shoebox-import-s3-'));
  const bucket = bucketClient(process.env.S3_TEST_ENDPOINT!);
  const benchPrefix = `bench-import-${Date.now()}/`;
  let albumPrefix: string | null = null;
  // The owner's browser reaches the project by name (bench/direct-gateway.ts), with no Playwright route in the
  // way; the second member's is routed as the end-to-end tests are. Both trust the bucket endpoint's certificate
  // everywhere (the app's service worker fetches thumbnails too, and a context's ignoreHTTPSErrors does not reach it).
  const appUpstream = test.info().project.use.baseURL!;
  const projectGateway = await startDirectGateway(world, appUpstream);
  const owner = await launchChromiumProfile({ baseURL: projectGateway.appOrigin, ignoreHTTPSErrors: true, viewport: VIEWPORT, args: [...chromiumArgs, ...projectGateway.chromiumArgs] });
  const second = await launchChromiumProfile({ baseURL: appUpstream, ignoreHTTPSErrors: true, viewport: VIEWPORT, args: [...chromiumArgs, '--ignore-certificate-errors'] });
  const pageServer = await serveStatic(join(work, 'page'));
  try {
    const shoot = await writeShoot(join(work, 'shoot'), N);
    await buildBenchPage('import-page', join(work, 'page'));

    // (a) and (b): the baselines, in a page of their own origin in the owner's browser.
    const bench = await owner.context.newPage();
    bench.on('pageerror', (e) => console.error('page error:', e.message));
    await bench.goto(`http://127.0.0.1:${(pageServer.address() as { port: number }).port}/index.html`);
    await bench.waitForFunction(() => document.body.dataset.ready === 'true');
    await bench.locator('#files').setInputFiles(shoot.paths);
    const p0 = cpuByKind(owner.dir);
    const pm0 = cpuByCommand();
    const pipeline = await bench.evaluate(() => window.benchPipeline());
    const p1 = cpuByKind(owner.dir);
    const pm1 = cpuByCommand();
    console.log(`pipeline alone: ${(pipeline.ms / 1000).toFixed(1)} s`);
    const signer = bucketClient(world.bucketOrigin);
    const urls = await Promise.all(
      shoot.paths.map((_, i) => getSignedUrl(signer, new PutObjectCommand({ Bucket: process.env.S3_TEST_BUCKET!, Key: `${benchPrefix}${i}` }), { expiresIn: 6 * 3600 })),
    );
    const u0 = cpuByKind(owner.dir);
    const puts = await bench.evaluate((u) => window.benchPut(u), urls);
    const u1 = cpuByKind(owner.dir);
    console.log(`bare PUTs: ${(puts.ms / 1000).toFixed(1)} s`);
    await bench.close();
    await empty(bucket, benchPrefix);

    // The owner makes the album; the second member is let in and opens it.
    const [olive, ben] = [await world.newPerson('Olive'), await world.newPerson('Ben')];
    const page = await owner.context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(olive.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).not.toHaveURL(/\/sign-in/);
    page.on('console', (m) => m.type() === 'error' && console.error('owner page:', m.text()));
    await page.getByRole('button', { name: /new album|create your first album/i }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New album' });
    await dialog.getByLabel('Title').fill('The shoot');
    await dialog.getByRole('button', { name: 'Create album' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'The shoot' })).toBeVisible();
    const albumId = /\/albums\/([\w-]+)/.exec(page.url())![1]!;
    albumPrefix = `albums/${albumId}/`;
    await world.query(`insert into public.album_members (album_id, user_id, role) values ($1, $2, 'viewer')`, [albumId, ben.id]);
    const member = await signIn(second.context, ben);
    await member.goto(`/albums/${albumId}`);
    await expect(member.getByRole('heading', { level: 1, name: 'The shoot' })).toBeVisible();

    const { pid: tab, rssBefore, footprintBefore } = await tabRenderer(page, renderersOf(owner.dir));
    const want = `${N.toLocaleString('en-US')} item${N === 1 ? '' : 's'} ·`;
    const samples: Sample[] = [];
    const c0 = cpuByKind(owner.dir);
    const m0 = cpuByCommand();
    let m1: Cpu | null = null;
    const th0 = cpuByThread(tab);
    const browserPid = browserProcessOf(owner.dir)!;
    const bt0 = cpuByThread(browserPid);
    const cdp = PROFILE ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await cdp.send('Profiler.start');
    }
    const t0 = performance.now();
    await page.getByTestId('add-files-input').first().setInputFiles(shoot.paths);
    const traced = cdp ? sleep(N * 300).then(() => traceMainThread(cdp, 10_000)) : null;
    let ownerMs: number | null = null;
    let memberMs: number | null = null;
    let c1: Cpu | null = null;
    let th1: Cpu | null = null;
    let bt1: Cpu | null = null;
    while (ownerMs === null || memberMs === null) {
      const t = performance.now() - t0;
      if (ownerMs === null) {
        const s = await albumState(page, want);
        const done = /Uploading ([\d,]+) of/.exec(s.bar);
        samples.push({ t, footprint: footprint(tab), rss: vmRss(tab), done: done ? Number(done[1]!.replace(/,/g, '')) : null, bar: s.bar });
        if (s.counted && !s.bar && s.thumbs > 0) {
          ownerMs = t;
          c1 = cpuByKind(owner.dir);
          m1 = cpuByCommand();
          th1 = cpuByThread(tab);
          bt1 = cpuByThread(browserPid);
        }
      }
      if (memberMs === null) {
        const s = await albumState(member, want);
        if (s.counted && s.thumbs > 0) memberMs = t;
      }
      if (t > N * 10_000) {
        const tile = await page.evaluate(() => document.querySelector('[role="gridcell"]')?.outerHTML);
        throw new Error(`the import did not finish: ${samples.at(-1)?.bar}; a tile: ${tile}`);
      }
      await sleep(250);
    }
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      const file = join(tmpdir(), 'import-s3.cpuprofile');
      writeFileSync(file, JSON.stringify(profile));
      console.log(`import ${(ownerMs! / 1000).toFixed(1)} s; the page's main thread ${cpuSpent(th0, th1!)}; the browser process ${cpuSpent(bt0, bt1!)}`);
      console.log(`where the page's main thread went (self time; the whole profile in ${file})\n${topSelfTime(profile, 40)}`);
      console.log(`the main thread's trace events, by their own time:\n${await traced}`);
      if (process.env.IMPORT_S3_RESULT) writeFileSync(process.env.IMPORT_S3_RESULT, JSON.stringify({ profiled: true }));
      return;
    }
    const [row] = await world.query<{ n: number }>(
      `select count(*)::int n from public.items where album_id = $1 and status = 'ready' and thumb_key is not null and preview_key is not null`,
      [albumId],
    );
    const half = samples.find((s) => s.done !== null && s.done >= N / 2 && secondsLeft(s.bar) !== null);
    const out: ImportS3Output = {
      n: N,
      bytes: shoot.bytes,
      pipeline: { ...pipeline, cpu: [p0, p1], machine: [pm0, pm1] },
      puts: { ...puts, cpu: [u0, u1] },
      import: {
        ownerMs,
        memberMs,
        ready: row!.n,
        footprintBefore,
        rssBefore,
        peakFootprint: Math.max(...samples.map((s) => s.footprint)),
        peakRss: Math.max(...samples.map((s) => s.rss)),
        half: half ? { t: half.t, done: half.done!, said: secondsLeft(half.bar)!, remained: (ownerMs - half.t) / 1000, bar: half.bar } : null,
        cpu: [c0, c1!],
        threads: [th0, th1!],
        machine: [m0, m1!],
        browserThreads: [bt0, bt1!],
      },
    };
    const file = process.env.IMPORT_S3_RESULT;
    if (file) writeFileSync(file, JSON.stringify(out, null, 2));
    else console.log(JSON.stringify(out, null, 2));
  } finally {
    await owner.close();
    await second.close();
    await projectGateway.stop();
    pageServer.close();
    if (albumPrefix) await empty(bucket, albumPrefix);
    await empty(bucket, benchPrefix);
    bucket.destroy();
    rmSync(work, { recursive: true, force: true });
  }
});
