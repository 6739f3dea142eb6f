// Open speed of a share link to a 100,000-item album against a member opening the same album, in the same run
// (bench/share-open.bench.ts in Playwright, on the emulated Supabase project). Targets: the visitor's first
// thumbnail within 1 s of share-open's `open` answer; and within 1.25× of the member's time from their own first
// answer about the album's items to their first thumbnail.
// Needs a PostgreSQL server and the Ceph S3 gateway: those at DATABASE_URL / S3_TEST_*, or started here (and
// then stopped here) with scripts/postgres-test-server.mjs and scripts/s3-test-server.mjs.
import { writeResult } from './bench-utils.mjs';
import { median, ms, runPlaywrightBench, startServices, stopServices, stopServicesOnSignal, worst } from './bench-services.mjs';

const TARGET_MS = 1000;
const TARGET_RATIO = 1.25;

const pair = (xs) => `${ms(median(xs))} (worst ${ms(worst(xs))})`;

/**
 * Where one round's time went after its first answer: waiting before the first page of items was asked for,
 * the pages one after the other (a month shows once all its pages are in), and from the last page to a decoded
 * thumbnail (URLs, the image itself, layout).
 */
function breakdown(r, itemsLabel) {
  const pages = r.calls.filter((c) => c.label === itemsLabel);
  if (pages.length === 0) return 'no pages of items';
  const firstAsked = Math.min(...pages.map((c) => c.start));
  const lastIn = Math.max(...pages.map((c) => c.end));
  const each = pages.map((c) => (c.end - c.start).toFixed(0)).join(' + ');
  return `${(firstAsked - r.firstAnswer).toFixed(0)} ms until the first page was asked for, ${(lastIn - firstAsked).toFixed(0)} ms of pages (${pages.length}: ${each} ms each), ${(r.firstThumb - lastIn).toFixed(0)} ms from the last page to the thumbnail`;
}

/** The round whose time from first answer to first thumbnail is the median one. */
const medianRound = (rs) => [...rs].sort((a, b) => a.firstThumb - a.firstAnswer - (b.firstThumb - b.firstAnswer))[Math.floor(rs.length / 2)];

/** The calls of one round up to its first thumbnail, as "label start→end", times from navigation start. */
const profile = (r) => r.calls.map((c) => `${c.label} ${c.start.toFixed(0)}→${c.end.toFixed(0)}`).join('; ');

stopServicesOnSignal();

try {
  startServices();
  const data = runPlaywrightBench('share-open', 'SHARE_OPEN_RESULT');
  const visitor = data.rounds.filter((r) => r.who === 'visitor');
  const member = data.rounds.filter((r) => r.who === 'member');
  const vAfter = visitor.map((r) => r.firstThumb - r.firstAnswer);
  const mAfter = member.map((r) => r.firstThumb - r.firstAnswer);
  const ratio = median(vAfter) / median(mAfter);
  // The median of the rounds: one box runs the database, the functions, the S3 gateway and the browser on 2 cores.
  const okTarget = median(vAfter) <= TARGET_MS;
  const okRatio = ratio <= TARGET_RATIO;
  const slowest = (rs) => rs.reduce((a, b) => (b.firstThumb - b.firstAnswer > a.firstThumb - a.firstAnswer ? b : a));
  writeResult(
    'share-open',
    `Share link open speed, ${data.items.toLocaleString('en-US')}-item album (emulated Supabase, Deno functions, Ceph, headless Chromium)`,
    ['measure', 'value', 'target'],
    [
      ['visitor: first thumbnail after share-open `open` answered, median (worst)', pair(vAfter), `≤ ${TARGET_MS} ms (median)`],
      ['visitor: first thumbnail from navigation start', pair(visitor.map((r) => r.firstThumb)), ''],
      ['visitor: share-open `open` answered from navigation start', pair(visitor.map((r) => r.firstAnswer)), ''],
      ['member: first thumbnail after `count_items_by_month` answered', pair(mAfter), ''],
      ['member: first thumbnail from navigation start', pair(member.map((r) => r.firstThumb)), ''],
      ['visitor ÷ member, time from first answer to first thumbnail (medians)', `${ratio.toFixed(2)}×`, `≤ ${TARGET_RATIO}×`],
      ['visitor: share-open `items` calls before the first thumbnail (median, worst)', `${median(visitor.map((r) => r.itemsCalls))}, ${worst(visitor.map((r) => r.itemsCalls))}`, 'a few (keyset pages)'],
      ['member: `items` reads before the first thumbnail (median, worst)', `${median(member.map((r) => r.itemsCalls))}, ${worst(member.map((r) => r.itemsCalls))}`, ''],
      ['seeding the album (not part of the measure)', `${data.seedSeconds.toFixed(1)} s`, ''],
    ],
    [
      okTarget && okRatio ? 'Targets met.' : 'Targets NOT met.',
      `${data.rounds.length / 2} rounds, visitor then member, each in a fresh browser context at 1280×800; both load the app once first (the member's sign-in page, a visitor's /sign-in page), so neither starts with a cold bundle and both start with no thumbnails cached.`,
      `The album: ${data.items.toLocaleString('en-US')} ready photos over ${data.months} months (${Math.round(data.items / data.months)} a month), inserted with one SQL statement. Real WebP thumbnails (three photographs from tests/fixtures/location, long edge 480) are in the bucket for the newest ${data.thumbs} items; the first screen shows a few dozen.`,
      "Why these two starting points: share-open's `open` answer carries the album and its month counts, after which the visitor's grid asks for pages of items; the member's equivalent is the answer of `count_items_by_month`, after which the member's grid asks PostgREST for pages of items and storage-sign for URLs. Each is timed when its whole body has arrived (fetch wrapped in an init script), the first thumbnail when the first `img.tile__thumb` is complete with naturalWidth > 0.",
      `Where the time goes, median visitor round: ${breakdown(medianRound(visitor), 'share-open items')}.`,
      `Where the time goes, median member round: ${breakdown(medianRound(member), 'rest items')}.`,
      `Calls up to the first thumbnail, slowest visitor round (ms from navigation start): ${profile(slowest(visitor))}.`,
      `Calls up to the first thumbnail, slowest member round: ${profile(slowest(member))}.`,
    ],
  );
  if (!okTarget || !okRatio) process.exitCode = 1;
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  stopServices();
}
