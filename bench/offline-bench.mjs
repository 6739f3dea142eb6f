// Offline browsing of a 10,000-item album seen online (bench/offline.bench.ts in Playwright, on the emulated
// Supabase project and the Ceph bucket, with the app's service worker). Targets: at least 95% of the
// thumbnails the grid asks for offline are answered from the worker's cache, and that cache stays under its byte
// cap (300 MB, src/sw/byte-capped-cache.ts). `--quick`: 1,000 items. Needs PostgreSQL and S3 as
// bench/bench-services.mjs describes.
import { writeResult } from './bench-utils.mjs';
import { mib, runPlaywrightBench, startServices, stopServices, stopServicesOnSignal } from './bench-services.mjs';

const TARGET_SHARE = 0.95;
const quick = process.argv.includes('--quick');

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const n = (x) => x.toLocaleString('en-US');

stopServicesOnSignal();

try {
  startServices();
  const data = runPlaywrightBench('offline', 'OFFLINE_RESULT', quick ? { OFFLINE_ITEMS: '1000', OFFLINE_DISTINCT_THUMBS: '100' } : {});
  const { online, offline, cache, reload } = data;
  const shares = (p) => ({ asked: p.requests, share: p.requests > 0 ? p.fromWorker / p.requests : 0, drawn: p.tiles > 0 ? p.drawn / p.tiles : 0 });
  // Offline means offline: had the network answered anything in an offline pass, its count would mean nothing.
  const passOk = (p) => {
    const s = shares(p);
    return p.otherFromNetwork === 0 && p.fromNetwork === 0 && s.asked > 0 && s.share >= TARGET_SHARE && s.drawn >= TARGET_SHARE && p.tiles >= data.items * TARGET_SHARE;
  };
  const okShare = passOk(offline) && passOk(reload);
  const row = (label, p) => {
    const s = shares(p);
    return [
      [`${label}: thumbnail requests answered from the worker cache`, `${n(p.fromWorker)} of ${n(s.asked)} (${pct(s.share)})`, `≥ ${pct(TARGET_SHARE)}`],
      [`${label}: tiles seen, and of those drawn`, `${n(p.tiles)} of ${n(data.items)} seen, ${n(p.drawn)} drawn (${pct(s.drawn)})`, `≥ ${pct(TARGET_SHARE)}`],
    ];
  };
  const okCap = cache.indexBytes <= cache.cap;
  const pass = (p) => `${n(p.tiles)} tiles in view over ${n(p.screens)} screens, ${n(p.drawn)} drawn; ${n(p.requests)} thumbnail requests: ${n(p.fromWorker)} from the worker, ${n(p.fromNetwork)} from the network, ${n(p.failed)} failed; other requests answered by the network: ${n(p.otherFromNetwork)}; ${p.seconds.toFixed(0)} s`;
  writeResult(
    'offline',
    `Offline browsing of a ${n(data.items)}-item album seen online (emulated Supabase, Ceph, the app's service worker, headless Chromium)`,
    ['measure', 'value', 'target'],
    [
      ...row('offline, same page', offline),
      ...row('offline, after a reload', reload),
      ["the worker cache's bytes, its own accounting (entries)", `${mib(cache.indexBytes)} (${n(cache.indexEntries)} entries; ${n(cache.cacheEntries)} in the Cache API)`, `≤ ${mib(cache.cap)}`],
      ['the origin\'s storage, navigator.storage.estimate() usage (quota)', `${mib(cache.usage)} (${mib(cache.quota)})`, ''],
      ['thumbnail objects in the bucket for the album', `${n(data.items)} objects, ${mib(data.thumbBytes)}`, ''],
      ['online pass', pass(online), ''],
      ['offline pass', pass(offline), ''],
      ['offline pass after a reload', `${pass(reload)}; navigator.onLine ${reload.onLine}; the page first shows: “${reload.shows}”`, ''],
      ['seeding (not part of the measure)', `${data.seedSeconds.toFixed(0)} s`, ''],
    ],
    [
      okShare && okCap ? 'Targets met.' : 'Targets NOT met.',
      `The album: ${n(data.items)} ready photos one hour apart, inserted with one SQL statement, each with a thumbnail object of its own in the Ceph bucket (${n(data.items)} keys, ${mib(data.thumbBytes)} in all). The thumbnails are ${n(data.distinctThumbs)} different WebP pictures made as the app makes them (long edge 480, quality 0.8) from 4:3 and 3:4 views of Debian's mate-backgrounds photographs (nature); object g holds picture g mod ${n(data.distinctThumbs)}, so the worker caches ${n(data.items)} distinct objects.`,
      'Online: signed in through the sign-in screen in a context at 1600×2400 where the worker controls the page, the album opened, and the grid scrolled a screenful (its own height) at a time from the top to the end, each screenful waited for until every tile in view had its thumbnail complete (or 20 s passed). Then the worker cache was left to settle (its entry count still for a second).',
      "Offline, same page: `context.setOffline(true)`, the page's memory and HTTP caches bypassed through the DevTools protocol (Network.setCacheDisabled, which still goes through the service worker) so that every thumbnail a tile shows is a request the worker must answer, every request that still leaves the page or the worker refused as a dropped connection (the emulated project and the bucket answer through Playwright's routing, which fulfils a request without the network and so is not stopped by going offline alone), and the same screenful-by-screenful pass from the top. A request counts as from the worker when Playwright's `response.fromServiceWorker()` is true with status 200; failed is a failed request or another status. A tile counts as drawn when its `img.tile__thumb` is complete with naturalWidth > 0 at some screenful.",
      "Offline, after a reload: the same page reloaded with the network still off, as an app started without it, up to 30 s for the first tile, then the same pass from the top. The shell comes from the precache, the album's rows and their (by then expired or refused) signed URLs from the query cache kept in IndexedDB ([Note: The query cache kept on the device]), the thumbnails from the worker's cache, which answers by object whatever the signature.",
      `The cap is the byte-capped cache's default (${mib(cache.cap)}); its accounting is read from its IndexedDB index (shoebox-thumbnails-index, the running total) in the page, which shares the origin with the worker.`,
    ],
  );
  if (!okShare || !okCap) process.exitCode = 1;
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  stopServices();
}
