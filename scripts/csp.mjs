#!/usr/bin/env node
/**
 * Prints the Content-Security-Policy for a deployment, to serve as a header (README "Content-Security-Policy").
 *
 *   node scripts/csp.mjs                      # for the build's settings: VITE_* in the environment or .env files
 *   node scripts/csp.mjs dist/config.json     # for a deployment configured by config.json
 *   node scripts/csp.mjs --local              # for a deployment on the local backend only (no config.json)
 *   node scripts/csp.mjs --meta               # the <meta> form the build writes (no frame-ancestors)
 *   node scripts/csp.mjs dist/config.json --headers > dist/_headers   # the whole `_headers` file a static host reads
 *
 * The policy is built by the app's own code (src/lib/content-security-policy.ts), so header and meta agree.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEnv, runnerImport } from 'vite';

const args = process.argv.slice(2);
const delivery = args.includes('--meta') ? 'meta' : 'header';
const file = args.find((a) => !a.startsWith('--'));
const root = fileURLToPath(new URL('..', import.meta.url));
const load = async (path) => (await runnerImport(fileURLToPath(new URL(path, import.meta.url)))).module;

const csp = await load('../src/lib/content-security-policy.ts');
let sources;
if (args.includes('--local')) {
  sources = { backend: { kind: 'local' }, allowedOrigins: [] };
} else if (file) {
  const { parseRuntimeConfig } = await load('../src/app/runtime-config.ts');
  const config = parseRuntimeConfig(JSON.parse(readFileSync(file, 'utf8')));
  sources = { backend: config.backend, allowedOrigins: config.allowedOrigins };
} else {
  sources = csp.policySourcesFromEnv({ ...loadEnv('production', root, 'VITE_'), ...process.env });
}
const policy = csp.contentSecurityPolicy(sources, delivery);
process.stdout.write(args.includes('--headers') ? csp.headersFile(policy) : `${policy}\n`);
