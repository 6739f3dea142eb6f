/// <reference types="vitest/config" />
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, runnerImport, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { playwright } from '@vitest/browser-playwright';
import { chromiumArgs, chromiumPath } from './scripts/chromium.mjs';
import { shareTargetFallback } from './scripts/share-target-fallback.mjs';
import { exifReaderBuild } from './scripts/vite-exifreader.mjs';

/** ExifReader's build configuration ([Note: The EXIF reader's build]). */
const EXIFREADER_BUILD = fileURLToPath(new URL('./scripts/exifreader-build.json', import.meta.url));

type PolicyModule = typeof import('./src/lib/content-security-policy');
// Loaded through Vite's module runner (as scripts/csp.mjs does), so the app's TypeScript builds the policy.
const loadPolicyModule = async () =>
  (await runnerImport<PolicyModule>(fileURLToPath(new URL('./src/lib/content-security-policy.ts', import.meta.url)))).module;

// The late decoders' file names, shared with the service worker (src/sw/decoder-assets.ts).
const { DECODER_ASSET_PREFIXES } = (
  await runnerImport<typeof import('./src/sw/decoder-assets')>(fileURLToPath(new URL('./src/sw/decoder-assets.ts', import.meta.url)))
).module;

/**
 * The late decoders' modules: libheif, libjxl, geotiff with what it brings (its own pako, LERC, Zstandard) and our
 * code that only they use. A chunk made of nothing else, and their WebAssembly, is named `decoder-…`, which
 * keeps it out of the precache and in the service worker's decoder cache (src/sw/decoder-assets.ts).
 */
const DECODER_MODULES =
  /node_modules[\\/](libheif-js|@jsquash[\\/]jxl|wasm-feature-detect|geotiff|lerc|zstddec|pako|xml-utils|quick-lru|@petamoriken[\\/]float16|parse-headers)[\\/]|src[\\/]media[\\/](heif-decode|heif-tiles|heif-tile-worker|jxl-decode|tiff-decode|tiff-lzw|raw-picture|raw-preview)\.ts$/;
const isDecoderChunk = (chunk: { facadeModuleId: string | null; moduleIds: readonly string[] }) => {
  // A decoder imported on its own (its chunk may carry helpers only it needs), or a chunk its imports share.
  if (chunk.facadeModuleId) return DECODER_MODULES.test(chunk.facadeModuleId);
  const real = chunk.moduleIds.filter((id) => !id.startsWith('\0'));
  return real.length > 0 && real.every((id) => DECODER_MODULES.test(id));
};
const decoderChunkName = (chunk: { facadeModuleId: string | null; moduleIds: readonly string[] }) =>
  isDecoderChunk(chunk) ? 'assets/decoder-[name]-[hash].js' : 'assets/[name]-[hash].js';
const decoderAssetName = (asset: { names: readonly string[] }) =>
  asset.names.some((name) => name.endsWith('.wasm')) ? 'assets/decoder-[name]-[hash][extname]' : 'assets/[name]-[hash][extname]';

type WireCommands = typeof import('./tests/browser/wire-commands');
type WireRequest = import('./tests/browser/wire-commands').WireRequest;
type SeedShareLink = import('./tests/db/share-link-seed').SeedShareLink;
let wireModule: Promise<WireCommands> | undefined;
// Loaded (once, by the first browser test that asks) through the module runner too: it starts a database.
const wireCommands = () =>
  (wireModule ??= runnerImport<WireCommands>(fileURLToPath(new URL('./tests/browser/wire-commands.ts', import.meta.url))).then((r) => r.module));

/**
 * Writes the Content-Security-Policy for the build's settings into index.html, and its header form into
 * `dist/_headers` (see [Note: Content-Security-Policy]).
 */
function contentSecurityPolicyMeta(): Plugin {
  let policy = '';
  let headers = '';
  return {
    name: 'shoebox:content-security-policy',
    apply: 'build',
    async configResolved(config) {
      const { contentSecurityPolicy, headersFile, policySourcesFromEnv } = await loadPolicyModule();
      const sources = policySourcesFromEnv(config.env);
      policy = contentSecurityPolicy(sources);
      headers = headersFile(contentSecurityPolicy(sources, 'header'));
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: headers });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const charset = /<meta charset="UTF-8" \/>/i;
        if (!charset.test(html)) throw new Error('index.html needs <meta charset="UTF-8" /> for the policy to follow');
        return html.replace(charset, (m) => `${m}\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
      },
    },
  };
}

/** `vite preview` serves dist/ as a static host does: with the headers its `_headers` file names. */
function previewHeaders(): Plugin {
  return {
    name: 'shoebox:preview-headers',
    async configurePreviewServer(server) {
      const file = join(server.config.root, server.config.build.outDir, '_headers');
      if (!existsSync(file)) return;
      const headers = (await loadPolicyModule()).parseHeadersFile(readFileSync(file, 'utf8'));
      server.middlewares.use((_req, res, next) => {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [
    exifReaderBuild(EXIFREADER_BUILD),
    react(),
    contentSecurityPolicyMeta(),
    previewHeaders(),
    shareTargetFallback(),
    // The app shell is precached so Shoebox opens offline; the web app manifest is public/manifest.webmanifest.
    // Our own worker (src/sw.ts) so that it can also serve streamed downloads (see [Note: Downloads served by the service worker]).
    // A new version waits for the person's "Reload" (src/features/app-update, which also registers the worker).
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        // The built index.html (with its Content-Security-Policy meta), scripts, styles, the SVG logo the boot
        // screen shows, fonts and the manifest's icons; not the README or store screenshots.
        globPatterns: ['**/*.{js,css,html,svg,wasm,webmanifest,woff2}', 'icons/*.png'],
        // The late decoders (HEIF about 470 KiB gzip, JPEG XL about 310 KiB, TIFF) only once such a photo is met:
        // src/sw.ts caches them then.
        globIgnores: DECODER_ASSET_PREFIXES.map((prefix) => `**/${prefix}[-.]*`),
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
    }),
  ],
  // Plugins of the app's bundle do not reach a worker's: the media worker reads EXIF too.
  worker: { format: 'es', plugins: () => [exifReaderBuild(EXIFREADER_BUILD)], rolldownOptions: { output: { entryFileNames: decoderChunkName, chunkFileNames: decoderChunkName, assetFileNames: decoderAssetName } } },
  // Pre-bundled up front, so the browser test runner never re-optimises (and reloads) in the middle of a run.
  optimizeDeps: { include: ['react', 'react/jsx-runtime', 'react-dom/client', 'react-router', '@tanstack/react-query', 'idb', 'thumbhash', 'zod/mini', 'clsx', '@radix-ui/react-dialog', '@radix-ui/react-dropdown-menu', '@radix-ui/react-popover', '@radix-ui/react-switch', '@radix-ui/react-tabs', '@radix-ui/react-toast', 'react-day-picker', 'qrcode.react', 'axe-core', 'libheif-js/libheif-wasm/libheif.js', '@jsquash/jxl/decode', 'geotiff', 'hash-wasm', 'pako'], exclude: ['exifreader'] },
  build: {
    target: 'es2022',
    sourcemap: true,
    // The first screen stays small; heavy modules (viewer, codecs, SDKs) are split out by import().
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // TanStack Query in one chunk: split by which screens share which of its modules, its pieces compressed
        // apart cost the first screen 0.9 KiB more than together.
        codeSplitting: { groups: [{ name: 'react-query', test: /node_modules[\\/]@tanstack[\\/](react-)?query-core|node_modules[\\/]@tanstack[\\/]react-query/ }] },
        chunkFileNames: decoderChunkName,
        assetFileNames: decoderAssetName,
      },
    },
  },
  server: { port: 5173 },
  preview: { port: 4173 },
  test: {
    // ExifReader goes through Vite in tests too, so they read EXIF with the build the app ships.
    server: { deps: { inline: ['exifreader'] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          exclude: ['**/*.browser.test.ts', '**/*.live.test.ts', 'node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          // The port contracts against a real Supabase project: run by `npm test` only when SUPABASE_TEST_URL is set.
          name: 'live',
          environment: 'node',
          include: ['src/**/*.live.test.ts'],
          testTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // SQL, Row Level Security and functions on a real Postgres: PGlite in-process, or the server at
          // DATABASE_URL when it is set.
          name: 'db',
          environment: 'node',
          include: ['tests/db/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // Against a real S3 server (Ceph RADOS Gateway on loopback), started by scripts/test.mjs.
          name: 's3',
          environment: 'node',
          include: ['tests/s3/**/*.test.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['src/**/*.browser.test.{ts,tsx}', 'tests/browser/**/*.browser.test.{ts,tsx}'],
          testTimeout: 60_000,
          fileParallelism: false,
          // The S3 test server's settings (S3_TEST_*, exported by scripts/test.mjs) for tests/browser/s3-*.
          provide: { s3Test: Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('S3_TEST_'))) },
          browser: {
            enabled: true,
            headless: true,
            // Chromium can take half a minute to start on a busy 2-core machine.
            connectTimeout: 180_000,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
            }),
            instances: [{ browser: 'chromium' }],
            // An emulated Supabase project on our real SQL for screens with several people (tests/browser/browser-wire.ts).
            commands: {
              wireStart: async (_ctx, opts?: { realtime?: boolean; functions?: string[] }) => (await wireCommands()).wireStart(opts),
              wireFetch: async (_ctx, id: string, req: WireRequest) => (await wireCommands()).wireFetch(id, req),
              wireUnserved: async (_ctx, id: string) => (await wireCommands()).wireUnserved(id),
              wireExpireInvite: async (_ctx, id: string, inviteId: string) => (await wireCommands()).wireExpireInvite(id, inviteId),
              wirePlaceOriginal: async (_ctx, id: string, albumId: string, itemId: string) => (await wireCommands()).wirePlaceOriginal(id, albumId, itemId),
              wireShareLink: async (_ctx, id: string, link: SeedShareLink) => (await wireCommands()).wireShareLink(id, link),
              wireGuestItems: async (_ctx, id: string, linkId: string, name: string, count: number) => (await wireCommands()).wireGuestItems(id, linkId, name, count),
              wireGuestShareLink: async (_ctx, id: string, albumId: string, ownerId: string, guestMaxFiles?: number | null) =>
                (await wireCommands()).wireGuestShareLink(id, albumId, ownerId, guestMaxFiles),
              wireStop: async (_ctx, id: string) => (await wireCommands()).wireStop(id),
            },
          },
        },
      },
    ],
  },
});
