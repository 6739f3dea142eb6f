// The JavaScript the first screen loads (gzip -9), against react + react-dom + @supabase/supabase-js bundled
// alone in the same run (target: at most 1.3× that), counted in Chromium: every script the albums screen
// fetches on the local backend with nothing configured, until the network is idle. Then, on an album's
// screen, the scripts the first photo added fetches (the upload path) and the media worker's script. Each is
// set beside the count scripts/bundle-budget.mjs makes from the build's import graph (the check `npm test`
// runs), and any script the two disagree on is listed (see [Note: What the first screen loads]).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGraph, gzipSize, kib, measure, MEDIA_WORKER } from '../scripts/bundle-budget.mjs';
import { launchChromium, root, serveDist } from '../scripts/built-app.mjs';
import { writeResult } from './bench-utils.mjs';

const photo = join(root, 'tests', 'fixtures', 'orientation-6.jpg');

/** Scripts fetched by a page, in the order first asked, each under the phase it was first asked in. */
function recordScripts(page) {
  const seen = new Map();
  const recorder = { phase: 'start', seen };
  page.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (path.endsWith('.js') && !seen.has(path)) seen.set(path, recorder.phase);
  });
  return recorder;
}

const inPhase = (recorder, phase) => [...recorder.seen].filter(([, p]) => p === phase).map(([path]) => path.replace(/^\//, ''));

async function chromiumCounts(url) {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    // The albums screen, on a first visit.
    const first = await context.newPage();
    const onFirst = recordScripts(first);
    await first.goto(url);
    await first.getByRole('heading', { level: 1, name: 'Albums', exact: true }).waitFor();
    await first.waitForLoadState('networkidle');
    const firstScreen = inPhase(onFirst, 'start');
    // An album to add to, made through the screens; then that album opened in a page of its own, so that what
    // making it loaded (the form, its text rules) is not counted as the upload's.
    onFirst.phase = 'create';
    await first.getByRole('button', { name: /new album|create your first album/i }).first().click();
    const dialog = first.getByRole('dialog', { name: 'New album' });
    await dialog.getByLabel('Title').fill('Budget');
    await dialog.getByRole('button', { name: 'Create album' }).click();
    await first.getByRole('heading', { level: 1, name: 'Budget' }).waitFor();
    const albumUrl = first.url();
    await first.close();
    const album = await context.newPage();
    const onAlbum = recordScripts(album);
    await album.goto(albumUrl);
    await album.getByRole('heading', { level: 1, name: 'Budget' }).waitFor();
    await album.waitForLoadState('networkidle');
    onAlbum.phase = 'upload';
    await album.getByTestId('add-files-input').first().setInputFiles([photo]);
    await album.getByRole('gridcell', { name: 'orientation-6.jpg', exact: true }).locator('img.tile__thumb').waitFor({ timeout: 60_000 });
    await album.waitForLoadState('networkidle');
    const upload = inPhase(onAlbum, 'upload');
    return {
      firstScreen,
      upload: upload.filter((p) => !MEDIA_WORKER.test(p)),
      worker: upload.filter((p) => MEDIA_WORKER.test(p)),
    };
  } finally {
    await browser.close();
  }
}

const graph = await buildGraph();
const budget = await measure(graph);
const server = await serveDist(4181);
let chromium;
try {
  chromium = await chromiumCounts(server.url);
} finally {
  await server.close();
}

const sizeOf = (p) => gzipSize(readFileSync(join(root, 'dist', p)));
const sum = (paths) => paths.reduce((n, p) => n + sizeOf(p), 0);
const [firstBudget, uploadBudget, workerBudget] = budget.budgets;
const groups = [
  { name: 'first screen', chromium: chromium.firstScreen, budget: firstBudget },
  { name: 'upload path', chromium: chromium.upload, budget: uploadBudget },
  { name: 'media worker', chromium: chromium.worker, budget: workerBudget },
];
const disagreements = [];
for (const g of groups) {
  const fromGraph = new Set(g.budget.scripts.map((s) => s.file));
  const inChromium = new Set(g.chromium);
  for (const p of inChromium) if (!fromGraph.has(p)) disagreements.push(`${g.name}: ${p} loaded in Chromium, not counted from the build graph`);
  for (const p of fromGraph) if (!inChromium.has(p)) disagreements.push(`${g.name}: ${p} counted from the build graph, not loaded in Chromium`);
}

const peer = budget.peer;
const ours = sum(chromium.firstScreen);
const ratio = ours / peer;
const rows = [];
for (const g of groups) {
  const chromiumKiB = sum(g.chromium);
  const isFirst = g === groups[0];
  rows.push([
    `**${g.budget.what}**`,
    kib(chromiumKiB),
    kib(g.budget.gzip),
    isFirst ? ratio.toFixed(2) : '',
    isFirst ? '≤ 1.30' : `≤ ${(g.budget.limit / 1024).toFixed(1)} KiB`,
  ]);
  for (const p of [...g.chromium].sort((a, b) => sizeOf(b) - sizeOf(a))) rows.push([`  /${p}`, kib(sizeOf(p)), '', '', '']);
}
rows.push(['peer: react + react-dom + @supabase/supabase-js alone (esbuild, minified)', kib(peer), kib(peer), '1.00', '']);

writeResult(
  'bundle',
  'First-screen JavaScript (gzip -9)',
  ['what', 'KiB gzip, Chromium', 'KiB gzip, build graph', 'ratio to peer', 'target / budget'],
  rows,
  [
    ratio <= 1.3 ? 'Target met.' : 'Target NOT met.',
    disagreements.length === 0
      ? 'Chromium and the build graph (scripts/bundle-budget.mjs, run by `npm test`) count the same scripts.'
      : `Chromium and the build graph disagree: ${disagreements.join('; ')}.`,
    'Chromium: the albums screen on a first visit until the network is idle; then an album opened in a new page and one photo (tests/fixtures/orientation-6.jpg) added, counting the scripts fetched from the moment it is added until its thumbnail shows.',
  ],
);
if (ratio > 1.3 || disagreements.length > 0) process.exitCode = 1;
