#!/usr/bin/env node
// The JavaScript budgets, from the production build and its import graph (no browser, no timing):
//   - the first screen: every script the albums screen loads on the local backend with nothing configured,
//     at most 1.30× the peer (react + react-dom + @supabase/supabase-js, esbuild-minified) measured in the
//     same run, both gzip -9;
//   - the upload path: the scripts the first photo added to an album loads, beyond those already loaded;
//   - the media worker's script.
// `node scripts/bundle-budget.mjs [--report file.json]` builds into dist/ (as `vite build` does), prints the
// table and exits 1 when a budget is exceeded (2 when the build or the graph cannot be read). `npm test` runs
// it (step `budget`), and the end-to-end tests then serve that same dist/. bench/bundle-bench.mjs counts the
// same scripts in Chromium. See [Note: What the first screen loads].
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const root = new URL('..', import.meta.url).pathname;

/**
 * [Note: What the first screen loads]
 * A module's static imports load with it; an `import()` loads when the code reaches it. The first screen is
 * the entry chunk and its static imports, plus the dynamic imports the start always reaches: FIRST_SCREEN
 * names them (the boot path's before the first render, the service worker's registration right after it).
 * Every other dynamic import reachable from the first screen's modules must be named in ON_DEMAND with what
 * loads it: a new `import()` in that code fails the check until someone says which it is, so a lazy load that
 * is in fact always taken cannot hide from the count. The Chromium count (`npm run bench -- bundle`) is the
 * other side of the same question and lists any script the two disagree on.
 */
export const FIRST_SCREEN = {
  // The boot path, before the first render: the app (React, the router, the albums screen) and the backend.
  'src/app/mount.tsx': 'the app, imported by main.tsx once config.json and the backend are under way',
  'src/backend/local/create-local-backend.ts': 'the local backend, the one chosen with nothing configured',
  // Right after the first render.
  'node_modules/workbox-window/build/workbox-window.prod.es5.mjs': 'the service worker registration (virtual:pwa-register)',
};

/** Dynamic imports reachable from the first screen that it does not take, and what does take them. */
export const ON_DEMAND = {
  'src/app/query-persistence.ts': 'backends with a server (the kept query cache)',
  'src/backend/supabase/create-supabase-backend.ts': 'a configured Supabase project',
  'src/backend/link/visitor-backend.ts': 'a public link opened',
  'src/backend/link/guest-backend.ts': 'a public link with guest uploads',
  'src/backend/link/guest-upload-client.ts': 'a public link with guest uploads',
  'src/upload/upload-engine.ts': 'work for the queue: files added, unfinished uploads, another tab uploading, the Uploads screen',
  'src/features/devices/this-device.ts': 'the device heartbeat on backends with accounts; the Account screen',
  'src/features/devices/forget-device-data.ts': "a session that ended on a backend with accounts (deleting what it kept); an older version's queue to move",
  'src/lib/platform.ts': 'install help where the client hints do not tell the browser (phones, Safari, Firefox)',
  'src/features/install/install-sheet.tsx': 'Install app clicked',
  'src/features/albums/album-form-dialog.tsx': 'New album clicked (or the Add photos shortcut)',
  'src/lib/validation.ts': 'the local backend checking text or metadata it is given to write',
  'src/backend/local/local-item-pages.ts': "an album's items (the album screen)",
  'src/backend/local/local-members.ts': "an album's members (the album screen)",
  'src/backend/local/local-social.ts': 'comments and hearts (the album screen), deleting an album',
  'src/backend/local/local-item-writes.ts': 'adding files, moving items to the trash and back',
  'src/backend/local/local-pending-items.ts': "others' unfinished uploads (never asked on the local backend)",
  'src/backend/local/local-trash-purge.ts': 'emptying the trash',
  'src/backend/local/local-search.ts': 'a search (the search screen, an album\'s search)',
  'src/backend/local/local-words-fill.ts': 'the first open after an upgrade to search words, or a search',
  'src/backend/local/local-clock-fill.ts': 'the first open after an upgrade that files photos by the clock where they were taken',
  'src/lib/xmp-sidecar.ts': "an item's details edited (its sidecar written beside the original)",
  'src/backend/sidecar-writer.ts': "an item's details edited on the local backend, or a moment after the start (owed sidecar writes)",
  'src/backend/sidecar-outbox.ts': 'with the sidecar writer, on the local backend',
  'src/ui/toast-list.tsx': 'the first toast',
  'src/app/routes/album-route.tsx': 'an album opened',
  'src/app/routes/viewer-route.tsx': 'an item opened',
  'src/app/routes/album-settings-route.tsx': 'album settings opened',
  'src/app/routes/uploads-route.tsx': 'the Uploads screen',
  'src/app/routes/search-route.tsx': 'the Search screen',
  'src/app/routes/search-viewer-route.tsx': 'a search result opened',
  'src/app/routes/share-inbox-route.tsx': 'files shared into the app',
  'src/app/routes/account-route.tsx': 'the Account screen',
  'src/app/routes/sign-in-route.tsx': 'signing in (backends with accounts)',
  'src/app/routes/invite-route.tsx': 'an invitation link',
  'src/app/routes/link-page-route.tsx': 'a public link',
  'src/app/routes/link-page-viewer-route.tsx': 'an item of a public link',
  'src/app/routes/auth-callback-route.tsx': 'coming back from a sign-in link',
};

/** What adding the first photo to an album loads: the engine, the media code, the backend's writes and checks. */
export const UPLOAD_PATH = [
  'src/upload/upload-engine.ts',
  'src/media/media-client.ts',
  'src/media/sniff-type.ts',
  'src/media/location-patches.ts',
  'src/backend/local/local-item-writes.ts',
  'src/lib/validation.ts',
];
/** Where files are added: the album screen and the local backend's reads it makes, loaded before the first file. */
export const ALBUM_SCREEN = [
  'src/app/routes/album-route.tsx',
  'src/backend/local/local-item-pages.ts',
  'src/backend/local/local-members.ts',
  'src/backend/local/local-social.ts',
];
export const MEDIA_WORKER = /^assets\/media-worker-[\w-]+\.js$/;

export const BUDGETS = {
  firstScreenRatio: 1.3,
  // No peer does this work: these held what each weighed when set (37.1 and 61.8 KiB) with about 10% room, so
  // that growing past them is a decision rather than drift. The upload path has since taken on the location
  // walkers of every format, the choice for files that keep their place and the types the worker decodes late
  // (41.6 KiB): raised to 43 for that. Storing text files compressed added what every upload carries for it (the
  // media client's compress request, the stored form on reserve, the compressed copy's place in the queue,
  // progress in the file's own bytes: 42.8 to 43.2 KiB, the text check itself loading only for files): 43.5.
  // Search on this device: an item written on the local backend carries its search words, cut when it is
  // finished (lib/search-words.ts and the list fields, 0.8 KiB, which left the first screen for this path): 44.5.
  // The queue keeps a done upload's thumbnail for the uploads list and hands it out (a few dozen bytes): 44.6.
  // The queue takes an original's MD5 in the read for its SHA-256 and hands it to the single PUT, which then
  // reads the file once instead of twice (a few dozen bytes; 1,000 small files 0.62x to 0.87x bare PUTs): 44.7.
  // The media client runs a worker per core (the pool, its start and its routing; 45.2 KiB) and the location
  // walkers read ahead: 24 MP photos made 1.5x as fast on 2 cores, the import of 40 of them 1.2x: 45.5.
  // The pool runs one worker per 2 GiB of the device's memory where the browser says it (50 bytes): 45.6.
  // Location removal for camcorders' AVCHD video: only its dispatch (110 bytes); the walker, 2.3 KiB, loads with
  // the first transport stream: 45.7.
  // The queue reads and processes the next file while it sends the last ([Note: Reading and sending overlap]:
  // local and network slots, and the hand-over between them; about 200 bytes): 45.9.
  // The scheduler counts its runs once per pass instead of five times per queued task (about 40 bytes): 46.0.
  // A file's network stage that fails with a 5xx or 429 is tried again after a backoff instead of stopping the
  // file until Try again ([Note: A file's upload tried again]; the wait, shared with the S3 adapter, and the
  // task runner's retry, about 0.5 KiB), and the queue says when it tries again (about 80 bytes): 46.6.
  // The queue's totals say when all of it waits to be tried again, instead of "finishing" (30 bytes): 46.7.
  // The rarer containers' walkers (Matroska, AVI, RAF, MPEG transport and program streams, Flash, Windows Media)
  // are told apart in a module that loads with the first file the common walkers do not know (46.4 KiB): 46.5.
  uploadPathKiB: 46.5,
  // EXIF read with ExifReader built for the tags the app reads, in place of exifr: 63.4 to 48.4 KiB. Lowered
  // from 68 to 53, so the room freed is not used up unnoticed.
  mediaWorkerKiB: 53,
};

export const gzipSize = (code) => gzipSync(code, { level: 9 }).length;
export const kib = (bytes) => (bytes / 1024).toFixed(1);

/** react + react-dom + @supabase/supabase-js bundled alone, minified, gzip -9: what a plain React app on Supabase ships. */
export async function peerGzip() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    stdin: {
      contents: "import * as React from 'react'; import * as ReactDOM from 'react-dom/client'; import { createClient } from '@supabase/supabase-js'; globalThis.__peer = [React, ReactDOM, createClient];",
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'warning',
  });
  return gzipSize(result.outputFiles[0].contents);
}

/**
 * Builds the app into dist/ as `vite build` does, and returns its output files and module graph: chunks
 * (file, code, static and dynamic imports, modules) and each module's dynamic imports.
 */
export async function buildGraph() {
  const { build } = await import('vite');
  const seen = [];
  await build({
    root,
    logLevel: 'warn',
    plugins: [
      {
        name: 'shoebox:bundle-graph',
        generateBundle(_options, bundle) {
          const dynamicImports = new Map();
          for (const id of this.getModuleIds()) dynamicImports.set(id, this.getModuleInfo(id)?.dynamicallyImportedIds ?? []);
          seen.push({ bundle, dynamicImports });
        },
      },
    ],
  });
  // The app's own build (the service worker's is another): the one whose entry is index.html.
  const app = seen.find(({ bundle }) => Object.values(bundle).some((c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId?.endsWith('/index.html')));
  if (!app) throw new Error('No build with index.html as its entry');
  const chunks = new Map();
  const assets = new Map();
  const chunkOfModule = new Map();
  for (const out of Object.values(app.bundle)) {
    if (out.type === 'asset') {
      assets.set(out.fileName, out.source);
      continue;
    }
    chunks.set(out.fileName, { file: out.fileName, code: out.code, imports: out.imports, dynamicImports: out.dynamicImports, modules: out.moduleIds.map(rel), isEntry: out.isEntry });
    for (const id of out.moduleIds) chunkOfModule.set(rel(id), out.fileName);
  }
  const dynamicImportsOf = new Map([...app.dynamicImports].map(([id, targets]) => [rel(id), targets.map(rel)]));
  return { chunks, assets, chunkOfModule, dynamicImportsOf };
}

function rel(id) {
  return relative(root, id.replace(/\?.*$/, ''));
}

/** The files a set of chunk files loads: each with its static imports, recursively. */
export function staticClosure(graph, files) {
  const out = new Set();
  const stack = [...files];
  while (stack.length) {
    const f = stack.pop();
    if (out.has(f)) continue;
    out.add(f);
    const c = graph.chunks.get(f);
    if (!c) throw new Error(`No chunk ${f}`);
    stack.push(...c.imports);
  }
  return out;
}

function chunkOf(graph, module) {
  const file = graph.chunkOfModule.get(module);
  if (!file) throw new Error(`${module} is in no chunk of the build: is its name in scripts/bundle-budget.mjs out of date?`);
  return file;
}

// The files as written to dist/ and served: the chunks' code seen by the plugin is not final yet (Vite fills
// in the preload lists and the source map comments after it).
const sized = (files) => [...files].map((f) => ({ file: f, gzip: gzipSize(readFileSync(join(root, 'dist', f))) })).sort((a, b) => b.gzip - a.gzip);
const total = (rows) => rows.reduce((n, r) => n + r.gzip, 0);

/** The first screen's scripts, and the problems with the classification of dynamic imports (none when sound). */
export function firstScreen(graph) {
  const entries = [...graph.chunks.values()].filter((c) => c.isEntry).map((c) => c.file);
  const files = staticClosure(graph, [...entries, ...Object.keys(FIRST_SCREEN).map((m) => chunkOf(graph, m))]);
  const problems = [];
  const reached = new Set();
  for (const f of files) {
    for (const module of graph.chunks.get(f).modules) {
      for (const target of graph.dynamicImportsOf.get(module) ?? []) {
        reached.add(target);
        if (files.has(graph.chunkOfModule.get(target))) continue;
        if (!(target in FIRST_SCREEN) && !(target in ON_DEMAND)) {
          problems.push(`${module} imports ${target} with import(): name it in FIRST_SCREEN (the albums screen always loads it) or ON_DEMAND (what loads it) in scripts/bundle-budget.mjs`);
        }
      }
    }
  }
  for (const m of Object.keys(FIRST_SCREEN)) if (!reached.has(m)) problems.push(`FIRST_SCREEN names ${m}, which nothing on the first screen imports with import() any more`);
  return { scripts: sized(files), files, problems };
}

/** The scripts the first photo added loads, beyond the first screen's and the album screen's. */
export function uploadPath(graph, firstScreenFiles) {
  const before = new Set([...firstScreenFiles, ...staticClosure(graph, ALBUM_SCREEN.map((m) => chunkOf(graph, m)))]);
  const files = [...staticClosure(graph, UPLOAD_PATH.map((m) => chunkOf(graph, m)))].filter((f) => !before.has(f));
  return { scripts: sized(files) };
}

/** The media worker's script, with any chunk it imports (it has been one file so far). */
export function mediaWorker(graph) {
  const workers = [...graph.assets.keys()].filter((f) => MEDIA_WORKER.test(f));
  if (workers.length !== 1) throw new Error(`Expected one media worker script in the build, found ${workers.length}`);
  const files = new Set();
  const stack = [...workers];
  while (stack.length) {
    const f = stack.pop();
    if (files.has(f)) continue;
    files.add(f);
    const code = readFileSync(join(root, 'dist', f), 'utf8');
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.\/[^"']+\.js)["']/g)) stack.push(`assets/${m[1].slice(2)}`);
  }
  return { scripts: sized(files) };
}

/** The three budgets, measured: rows for the table and whether each is met. */
export async function measure(graph) {
  const first = firstScreen(graph);
  const upload = uploadPath(graph, first.files);
  const worker = mediaWorker(graph);
  const peer = await peerGzip();
  const firstTotal = total(first.scripts);
  const firstLimit = peer * BUDGETS.firstScreenRatio;
  return {
    peer,
    problems: first.problems,
    budgets: [
      {
        what: 'first screen: every script the albums screen loads (local backend, nothing configured)',
        gzip: firstTotal,
        limit: firstLimit,
        budget: `≤ ${kib(firstLimit)} (${BUDGETS.firstScreenRatio.toFixed(2)}× peer; now ${(firstTotal / peer).toFixed(2)}×)`,
        scripts: first.scripts,
      },
      { what: 'upload path: what the first photo added to an album loads', gzip: total(upload.scripts), limit: BUDGETS.uploadPathKiB * 1024, budget: `≤ ${BUDGETS.uploadPathKiB.toFixed(1)}`, scripts: upload.scripts },
      { what: 'media worker: its script, loaded with the first photo', gzip: total(worker.scripts), limit: BUDGETS.mediaWorkerKiB * 1024, budget: `≤ ${BUDGETS.mediaWorkerKiB.toFixed(1)}`, scripts: worker.scripts },
    ],
  };
}

export function table({ peer, budgets }) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const rows = [line(['what', 'KiB gzip', 'budget (KiB gzip)', '']), line(['---', '---', '---', '---'])];
  for (const b of budgets) {
    rows.push(line([`**${b.what}**`, kib(b.gzip), b.budget, b.gzip <= b.limit ? 'ok' : '**over**']));
    for (const s of b.scripts) rows.push(line([`  ${s.file}`, kib(s.gzip), '', '']));
  }
  rows.push(line(['peer: react + react-dom + @supabase/supabase-js alone (esbuild, minified)', kib(peer), '', '']));
  return rows.join('\n');
}

async function main() {
  const reportAt = process.argv.indexOf('--report');
  const report = reportAt > 0 ? process.argv[reportAt + 1] : null;
  let result;
  try {
    result = await measure(await buildGraph());
  } catch (e) {
    console.error(e);
    process.exit(2);
  }
  console.log(`\nJavaScript budgets (gzip -9), from the production build's import graph:\n\n${table(result)}\n`);
  for (const p of result.problems) console.log(`✗ ${p}`);
  const over = result.budgets.filter((b) => b.gzip > b.limit);
  for (const b of over) console.log(`✗ ${b.what}: ${kib(b.gzip)} KiB, over its budget ${b.budget}`);
  const failed = over.length + (result.problems.length > 0 ? 1 : 0);
  if (report) writeFileSync(report, JSON.stringify({ numPassedTests: result.budgets.length + 1 - failed, numFailedTests: failed }));
  console.log(failed === 0 ? 'Every budget met.' : `${failed} budget check${failed === 1 ? '' : 's'} failed.`);
  process.exit(failed === 0 ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
