// Warm start of the installed app (service worker warm, albums screen seen before) to the first album cover,
// against a cold start without the service worker, in the same run (bench/warm-start.bench.ts in Playwright,
// on the emulated Supabase project and the Ceph bucket). Target: warm ≤ 0.5× cold, medians of the rounds.
// `--quick`: 2 rounds each instead of 5. Needs PostgreSQL and S3 as bench/bench-services.mjs describes.
import { writeResult } from './bench-utils.mjs';
import { median, ms, runPlaywrightBench, startServices, stopServices, stopServicesOnSignal, worst } from './bench-services.mjs';

const TARGET_RATIO = 0.5;
/** The emulated project and bucket answer in-process: each of their answers waits this long, as one round trip. */
const LATENCY_MS = 150;
const quick = process.argv.includes('--quick');

const pair = (xs) => `${ms(median(xs))} (worst ${ms(worst(xs))})`;
const kbytes = (b) => `${(b / 1024).toFixed(0)} KiB`;

/** The round whose cover time is the median one, and where its time went. */
const medianRound = (rs) => [...rs].sort((a, b) => a.cover - b.cover)[Math.floor(rs.length / 2)];
const profile = (r) =>
  `document in at ${ms(r.documentIn)}, scripts in at ${ms(r.scriptsIn)}; then ${r.calls.map((c) => `${c.label} ${c.start.toFixed(0)}→${c.end.toFixed(0)}`).join('; ')}; cover drawn at ${ms(r.cover)}`;

stopServicesOnSignal();

try {
  startServices();
  const data = runPlaywrightBench('warm-start', 'WARM_START_RESULT', { GATEWAY_LATENCY_MS: String(LATENCY_MS), ...(quick ? { WARM_START_ROUNDS: '2' } : {}) });
  const cold = data.rounds.filter((r) => r.kind === 'cold');
  const warm = data.rounds.filter((r) => r.kind === 'warm');
  const ratio = median(warm.map((r) => r.cover)) / median(cold.map((r) => r.cover));
  const ok = ratio <= TARGET_RATIO;
  const n = data.network;
  writeResult(
    'warm-start',
    `Warm start of the installed app to the first album cover, against a cold start without the service worker (emulated Supabase, Ceph, headless Chromium)`,
    ['measure', 'cold (no service worker)', 'warm (installed, seen before)', 'target'],
    [
      ['first album cover drawn, from navigation start, median (worst)', pair(cold.map((r) => r.cover)), pair(warm.map((r) => r.cover)), ''],
      ['warm ÷ cold, medians', '', `${ratio.toFixed(2)}×`, `≤ ${TARGET_RATIO}×`],
      ['first album card in the page, median', ms(median(cold.map((r) => r.card))), ms(median(warm.map((r) => r.card))), ''],
      ['requests until the cover (median), of which the service worker answered', `${median(cold.map((r) => r.requests))}, ${median(cold.map((r) => r.fromWorker))}`, `${median(warm.map((r) => r.requests))}, ${median(warm.map((r) => r.fromWorker))}`, ''],
      ['bytes over the network until the cover (median)', kbytes(median(cold.map((r) => r.networkBytes))), kbytes(median(warm.map((r) => r.networkBytes))), ''],
    ],
    [
      ok ? 'Target met.' : 'Target NOT met.',
      `${cold.length} rounds each, alternating cold then warm, each in a new browser context at 412×915 (a phone), the person signed in through the sign-in screen first (the session in localStorage), then \`/\` opened in a new page and timed on that page's clock.`,
      `Network for both measured pages, through the DevTools protocol (Network.emulateNetworkConditions): ${n.latency} ms round trip, ${((n.downloadThroughput * 8) / 1024 / 1024).toFixed(0)} Mbit/s down, ${((n.uploadThroughput * 8) / 1024 / 1024).toFixed(0)} Mbit/s up. It throttles the page's own requests that reach the network (the bundle, from the preview server). The emulated project, the bucket and config.json answer in-process through Playwright's routing, which that emulation does not slow, so each of their answers waits ${LATENCY_MS} ms, one round trip (GATEWAY_LATENCY_MS). The service worker's own requests to the network (none for a warm cover already kept) are not slowed.`,
      `Cold: service workers blocked for the context (\`serviceWorkers: 'block'\`) and the HTTP cache emptied (Network.clearBrowserCache) after signing in, so the bundle, config.json, the API answers, the signed cover URLs and the covers all come over the throttled network.`,
      `Warm: the app's worker installed and in control, the albums screen seen once with its covers drawn and kept in the worker's thumbnail cache, the page closed and a new one opened, as an installed app starts. The shell comes from the worker's precache, the albums list and the cover URLs from the query cache kept in IndexedDB ([Note: The query cache kept on the device]), shown while the fresh answers are fetched, and the covers from the worker's thumbnail cache. config.json and the adapter's code start before the app's own code is fetched ([Note: A small entry], [Note: Opening the backend before the first render]), and the profile kept on the device stands in while the row is read ([Note: The profile kept on the device]). What a warm start still waits on over the network: config.json. The rest is the worker answering the page's ~45 requests (the app's code in some 30 chunks, then the covers) one after another.`,
      `The person has ${data.albums} albums of 3 photos each; each cover is a different photograph from Debian's mate-backgrounds (nature), made into a WebP thumbnail as the app makes them (long edge 480, quality 0.8), ${kbytes(data.coverBytes / data.albums)} each on average.`,
      `Where the time goes, median cold round (ms from navigation start): ${profile(medianRound(cold))}.`,
      `Where the time goes, median warm round: ${profile(medianRound(warm))}.`,
      'The first cover counts as drawn when the first `.album-card__cover img` that is the photograph (not the blurred placeholder drawn from a data: URL under it) is complete with naturalWidth > 0, polled every animation frame.',
    ],
  );
  if (!ok) process.exitCode = 1;
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  stopServices();
}
