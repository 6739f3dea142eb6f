/**
 * Open speed of a share link to a 100,000-item album, against a member opening the same album, in one run:
 * the production build in Chromium over the emulated Supabase project (tests/e2e/supabase-world.ts: the wire
 * emulator on PostgreSQL, share-open / share-links / storage-sign in Deno, the Ceph bucket). Run by
 * bench/share-open-bench.mjs, which turns what this writes to SHARE_OPEN_RESULT into the result table.
 *
 * Each round opens a fresh browser context and times, from the page's own clock (performance.now(), zero at
 * navigation start), the answers of the calls that matter and the moment the first grid thumbnail is decoded.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { createShareLink } from '../tests/e2e/share-helpers';
import { expect, test, type Person, type SupabaseWorld } from '../tests/e2e/supabase-world';

const ITEMS = Number(process.env.SHARE_OPEN_ITEMS ?? 100_000);
const ROUNDS = Number(process.env.SHARE_OPEN_ROUNDS ?? 5);
/** Thumbnails put in the bucket, for the newest items: the first screen shows a few dozen. */
const THUMBS = Number(process.env.SHARE_OPEN_THUMBS ?? 600);
const YEARS = 5;
const VIEWPORT = { width: 1280, height: 800 };
const root = new URL('..', import.meta.url).pathname;
const PHOTOS = ['tests/fixtures/location/rocket.jpg', 'tests/fixtures/location/coffee.webp', 'tests/fixtures/location/chelsea.png'];

interface Call {
  label: string;
  start: number;
  end: number;
}
interface Timing {
  firstThumb: number;
  calls: Call[];
}
export interface RoundResult {
  who: 'visitor' | 'member';
  /** First thumbnail decoded, ms from navigation start. */
  firstThumb: number;
  /** The first answer about the album's items: share-open `open` for the visitor, count_items_by_month for the member. */
  firstAnswer: number;
  /** Calls for pages of items started before the first thumbnail. */
  itemsCalls: number;
  calls: Call[];
}
export interface BenchOutput {
  items: number;
  thumbs: number;
  months: number;
  seedSeconds: number;
  rounds: RoundResult[];
}

/** One thumbnail per photograph, made as the app makes them (WebP, long edge 480), and its thumbhash. */
async function thumbnails() {
  return Promise.all(
    PHOTOS.map(async (p) => {
      const img = sharp(readFileSync(root + p)).resize(480, 480, { fit: 'inside' });
      const { data, info } = await img.clone().webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
      const small = await img.clone().resize(100, 100, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const hash = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64');
      return { webp: data, width: info.width, height: info.height, hash };
    }),
  );
}

async function seed(world: SupabaseWorld, owner: Person): Promise<{ albumId: string; months: number }> {
  const shots = await thumbnails();
  const [album] = await world.query<{ id: string }>(`insert into public.albums (owner_id, title, description) values ($1, 'Ten years of Sundays', 'Everything') returning id`, [owner.id]);
  const albumId = album!.id;
  await world.query(`insert into public.album_members (album_id, user_id, role) values ($1, $2, 'owner')`, [albumId, owner.id]);
  // One INSERT: the counter and broadcast triggers run once for the whole batch. Taken times spread evenly over
  // YEARS years, newest first by g; photograph g % 3 gives each row its size and thumbhash.
  const span = YEARS * 365 * 86_400;
  await world.query(
    `insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, width, height, original_key, thumb_key, thumbhash, taken_at, created_at)
     select s.id, $1::uuid, $2::uuid, 'image', 'ready', 'IMG_' || s.g || '.jpg', 'image/jpeg', 2000000 + s.g,
            ($4::int[])[s.g % 3 + 1], ($5::int[])[s.g % 3 + 1],
            'albums/' || $1::uuid || '/' || s.id || '/original', 'albums/' || $1::uuid || '/' || s.id || '/thumb.webp',
            ($6::text[])[s.g % 3 + 1],
            timestamptz '2025-06-30' - (s.g * ($7::float8 / $3::int) * interval '1 second'), timestamptz '2025-07-01' - (s.g * interval '1 second')
     from (select gen_random_uuid() id, g from generate_series(1, $3::int) g) s`,
    [albumId, owner.id, ITEMS, shots.map((s) => s.width), shots.map((s) => s.height), shots.map((s) => s.hash), span],
  );
  await world.query('analyze public.items');
  const newest = await world.query<{ id: string; width: number }>(
    `select id, width from public.items where album_id = $1 order by sort_taken desc, id desc limit $2`,
    [albumId, THUMBS],
  );
  const s3 = new S3Client({
    endpoint: process.env.S3_TEST_ENDPOINT!,
    region: process.env.S3_TEST_REGION!,
    forcePathStyle: true,
    credentials: { accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID!, secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY! },
  });
  const queue = [...newest];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let row = queue.shift(); row; row = queue.shift()) {
        const shot = shots.find((s) => s.width === row.width) ?? shots[0]!;
        await s3.send(new PutObjectCommand({ Bucket: process.env.S3_TEST_BUCKET!, Key: `albums/${albumId}/${row.id}/thumb.webp`, Body: shot.webp, ContentType: 'image/webp' }));
      }
    }),
  );
  s3.destroy();
  const [m] = await world.query<{ n: number }>(`select count(distinct date_trunc('month', sort_taken))::int n from public.items where album_id = $1`, [albumId]);
  return { albumId, months: m!.n };
}

/**
 * Times every call the grid makes (wrapping fetch before the app's scripts run: the page's CSP refuses inline
 * scripts, not init scripts) and the first grid thumbnail decoded.
 */
async function instrument(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __calls: Call[]; __firstThumb?: number };
    w.__calls = [];
    const send = window.fetch.bind(window);
    const labelOf = (url: string, body: unknown): string | null => {
      if (url.includes('/functions/v1/share-open')) {
        try {
          return `share-open ${(JSON.parse(String(body)) as { op: string }).op}`;
        } catch {
          return 'share-open';
        }
      }
      const fn = /\/functions\/v1\/([\w-]+)/.exec(url);
      if (fn) return fn[1]!;
      const rpc = /\/rest\/v1\/rpc\/(\w+)/.exec(url);
      if (rpc) return `rpc ${rpc[1]}`;
      const table = /\/rest\/v1\/(\w+)/.exec(url);
      if (table) return `rest ${table[1]}`;
      return null;
    };
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const label = labelOf(url, init?.body);
      const start = performance.now();
      const res = await send(input, init);
      // Answered once the whole body is in, as the app reads it.
      if (label) void res.clone().arrayBuffer().then(() => w.__calls.push({ label, start, end: performance.now() }), () => undefined);
      return res;
    };
    const tick = () => {
      const img = document.querySelector<HTMLImageElement>('img.tile__thumb');
      if (img && img.complete && img.naturalWidth > 0) w.__firstThumb = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

async function measure(page: Page, url: string): Promise<Timing> {
  await instrument(page);
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { __firstThumb?: number }).__firstThumb !== undefined, null, { timeout: 60_000 });
  return page.evaluate(() => {
    const w = window as unknown as { __calls: Call[]; __firstThumb: number };
    return { firstThumb: w.__firstThumb, calls: [...w.__calls].sort((a, b) => a.start - b.start) };
  });
}

function round(who: RoundResult['who'], t: Timing, firstAnswerLabel: string, itemsLabel: string): RoundResult {
  const first = t.calls.find((c) => c.label === firstAnswerLabel);
  if (!first) throw new Error(`${who}: no ${firstAnswerLabel} call seen (${t.calls.map((c) => c.label).join(', ')})`);
  const before = t.calls.filter((c) => c.start < t.firstThumb);
  return { who, firstThumb: t.firstThumb, firstAnswer: first.end, itemsCalls: before.filter((c) => c.label === itemsLabel).length, calls: before };
}

async function freshContext(browser: Browser) {
  return browser.newContext({ viewport: VIEWPORT });
}

test('share link vs member: first thumbnails of a 100,000-item album', async ({ browser, world, signIn, visit }) => {
  test.setTimeout(30 * 60_000);
  const owner = await world.newPerson('Olive');
  const seedStart = Date.now();
  const { albumId, months } = await seed(world, owner);
  const seedSeconds = (Date.now() - seedStart) / 1000;

  const ownerPage = await signIn(await freshContext(browser), owner);
  const { token } = await createShareLink(ownerPage, world, owner, { albumId, label: 'Everyone', allowDownload: true, allowGuestUpload: false });
  await ownerPage.context().close();

  const rounds: RoundResult[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // The visitor: no account, nothing cached but the app itself (a first page loads the bundle, as the
    // member's sign-in page does for the member).
    const visitorContext = await freshContext(browser);
    const warm = await visit(visitorContext);
    await warm.goto('/sign-in');
    await expect(warm.getByLabel('Email')).toBeVisible();
    await warm.close();
    const v = await measure(await visitorContext.newPage(), `/s/${token}`);
    await visitorContext.close();
    rounds.push(round('visitor', v, 'share-open open', 'share-open items'));

    // The member: signed in in a fresh context, then the album in a fresh page.
    const memberContext = await freshContext(browser);
    await (await signIn(memberContext, owner)).close();
    const m = await measure(await memberContext.newPage(), `/albums/${albumId}`);
    await memberContext.close();
    rounds.push(round('member', m, 'rpc count_items_by_month', 'rest items'));
  }

  const out: BenchOutput = { items: ITEMS, thumbs: THUMBS, months, seedSeconds, rounds };
  const file = process.env.SHARE_OPEN_RESULT;
  if (file) writeFileSync(file, JSON.stringify(out, null, 2));
  else console.log(JSON.stringify(out, null, 2));
});
