// Importing a shoot end to end on Supabase and S3 (bench/import-s3.bench.ts in Playwright, on the emulated Supabase
// project): N camera JPEGs (IMPORT_BENCH_N, default 1,000) from the owner's files to every one in a second
// member's grid, against the media pipeline alone and bare XMLHttpRequest PUTs of the same bytes to the same bucket
// from the same browser. Targets: the import within 1.25× the larger baseline; the owner's tab under 500 MB (its
// private memory footprint; the resident set beside it); the time left at halfway within 20% of what remained.
// Needs a PostgreSQL server and the Ceph S3 gateway: those at DATABASE_URL / S3_TEST_*, or started here (and then
// stopped here). The gateway keeps objects in memory: 1,000 photos with their previews are about 7.5 GiB of it.
// Run: node bench/import-s3-bench.mjs   (writes bench/results/import-s3.md; IMPORT_BENCH_PROFILE=1 profiles instead)
import { cpus, loadavg } from 'node:os';
import { writeResult } from './bench-utils.mjs';
import { runPlaywrightBench, startServices, stopServices, stopServicesOnSignal } from './bench-services.mjs';
import { cpuSpent } from './chromium-procs.mjs';

/** The CPU seconds every process on the machine used between two `cpuByCommand` readings. */
const machineBusy = ([before, after]) => Object.entries(after).reduce((sum, [name, s]) => sum + Math.max(0, s - (before[name] ?? 0)), 0);

const TARGET = { vsBaseline: 1.25, tabBytes: 500e6, etaError: 0.2 };
const MiB = 1024 * 1024;
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const met = (ok) => (ok ? 'met' : 'NOT met');

stopServicesOnSignal();
const started = Date.now();
const loadBefore = loadavg();
try {
  startServices();
  const r = runPlaywrightBench('import-s3', 'IMPORT_S3_RESULT');
  // IMPORT_BENCH_PROFILE=1 prints where the owner's main thread went, and writes no result.
  if (!r.profiled) report(r);
} finally {
  stopServices();
}

/** Writes bench/results/import-s3.md from the Playwright run's output `r`, and fails the run when a target is missed. */
function report(r) {
  const { n, import: imp } = r;
  const baseline = Math.max(r.pipeline.ms, r.puts.ms);
  const done = Math.max(imp.ownerMs, imp.memberMs);
  const ratio = done / baseline;
  const etaError = imp.half ? Math.abs(imp.half.said - imp.half.remained) / imp.half.remained : null;
  const row = (what, ms) => [what, s(ms), `${(ms / n).toFixed(0)} ms`, (ms / baseline).toFixed(2)];
  writeResult(
    'import-s3',
    `Importing ${n.toLocaleString('en-US')} camera photos (24 MP JPEG) into an album, Supabase and S3`,
    ['what', 'time', 'per photo', 'of the larger baseline'],
    [
      row('the media pipeline alone (app media client, queue concurrency)', r.pipeline.ms),
      row('bare XMLHttpRequest PUTs of the same bytes to the bucket (presigned, queue concurrency)', r.puts.ms),
      row('the import, owner: files chosen → every photo in the album, upload bar gone', imp.ownerMs),
      row('the import, second member: files chosen → every photo counted in their open album, told live', imp.memberMs),
    ],
    [
      `Photos: ${n} files, ${(r.bytes / MiB).toFixed(0)} MiB (${(r.bytes / n / MiB).toFixed(1)} MiB each), 6000×4000 quality 90. The production build over the emulated Supabase project (wire emulator on PostgreSQL, storage-sign in Deno) and the Ceph gateway (memstore) behind its https endpoint on loopback. ${imp.ready} of ${n} items ready with preview and thumbnail in the database at the end.`,
      `Import (until the second member has every photo) vs the larger baseline: ${ratio.toFixed(2)}× (target ≤ ${TARGET.vsBaseline}) — ${met(ratio <= TARGET.vsBaseline)}.`,
      `The owner's tab (page and media workers), private memory footprint: ${(imp.footprintBefore / MiB).toFixed(0)} MiB before, peak ${(imp.peakFootprint / MiB).toFixed(0)} MiB (${(imp.peakFootprint / 1e6).toFixed(0)} MB) (target < 500 MB) — ${met(imp.peakFootprint < TARGET.tabBytes)}. Resident set: ${(imp.rssBefore / MiB).toFixed(0)} MiB before, peak ${(imp.peakRss / MiB).toFixed(0)} MiB.`,
      imp.half
        ? `Time left at halfway (${imp.half.done} of ${n} done, ${s(imp.half.t)} in): the bar said ${imp.half.said} s ("${imp.half.bar.split('·').pop().trim()}"), ${imp.half.remained.toFixed(0)} s remained: ${(etaError * 100).toFixed(0)}% off (target ≤ 20%) — ${met(etaError <= TARGET.etaError)}.`
        : 'Time left at halfway: the bar gave none — NOT met.',
      `The owner's Chromium, CPU by process kind (${cpus().length} cores): the pipeline alone ${cpuSpent(...r.pipeline.cpu)}; the bare PUTs ${cpuSpent(...r.puts.cpu)}; the import ${cpuSpent(...imp.cpu)}. The tab by thread over the import: ${cpuSpent(...imp.threads)}; the browser process by thread: ${cpuSpent(...imp.browserThreads)}.`,
      `The machine's CPU by program (${cpus().length} cores, ${((machineBusy(imp.machine) / (imp.ownerMs / 1000) / cpus().length) * 100).toFixed(0)}% busy over the import, ${((machineBusy(r.pipeline.machine) / (r.pipeline.ms / 1000) / cpus().length) * 100).toFixed(0)}% over the pipeline alone): the import ${cpuSpent(...imp.machine)}; the pipeline alone ${cpuSpent(...r.pipeline.machine)}.`,
      `The owner's browser runs with no Playwright route (bench/direct-gateway.ts serves the project by name): with one, Chromium's DevTools interceptor would read every blob-bodied request (the queue's copies, the previews) on the browser's main thread, 30 s over 40 photos when this was measured through routing. Its browser process's main thread here: ${((imp.browserThreads[1].chromium ?? 0) - (imp.browserThreads[0].chromium ?? 0)).toFixed(1)} s. The second member's browser is routed as in the end-to-end tests.`,
      `Machine: ${cpus().length} cores, load ${loadBefore.map((l) => l.toFixed(1)).join(' ')} at the start; the gateway, PostgreSQL, the emulator and Deno share it with the browser. Whole benchmark: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    ],
  );
  const ok = ratio <= TARGET.vsBaseline && imp.peakFootprint < TARGET.tabBytes && etaError !== null && etaError <= TARGET.etaError && imp.ready === n;
  if (!ok) process.exitCode = 1;
}
