// The JavaScript the first screen loads (gzip -9), against react + react-dom + @supabase/supabase-js bundled
// alone in the same run. Target: at most 1.3× that.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { buildApp, kib, launchChromium, root, serveDist, writeResult } from './bench-utils.mjs';

const gz = (buf) => gzipSync(buf, { level: 9 }).length;

async function peerSize() {
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
  return gz(result.outputFiles[0].contents);
}

async function firstScreenScripts() {
  await buildApp();
  const server = await serveDist(4181);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const scripts = new Set();
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await page.goto(server.url);
    await page.getByRole('heading', { level: 1, name: 'Albums', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    return [...scripts].map((p) => ({ path: p, gzip: gz(readFileSync(join(root, 'dist', p))) }));
  } finally {
    await browser.close();
    await server.close();
  }
}

const scripts = await firstScreenScripts();
const ours = scripts.reduce((n, s) => n + s.gzip, 0);
const peer = await peerSize();
const ratio = ours / peer;
writeResult(
  'bundle',
  'First-screen JavaScript (gzip -9)',
  ['what', 'KiB gzip', 'ratio to peer', 'target'],
  [
    ['Shoebox: every script the albums screen loads', kib(ours), ratio.toFixed(2), '≤ 1.30'],
    ['peer: react + react-dom + @supabase/supabase-js alone (esbuild, minified)', kib(peer), '1.00', ''],
    ...scripts.sort((a, b) => b.gzip - a.gzip).map((s) => [`  ${s.path}`, kib(s.gzip), '', '']),
  ],
  [ratio <= 1.3 ? 'Target met.' : 'Target NOT met.'],
);
if (ratio > 1.3) process.exitCode = 1;
