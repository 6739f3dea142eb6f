// The production build, made with secrets present in the build environment, must ship none of them: no S3
// secret, no service-role key, no JWT secret, and no JWT other than the anon key, in the bundle or its source
// maps. The AWS SDK must not be part of the first screen either (it loads with the first upload).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = new URL('../..', import.meta.url).pathname;

function b64url(o: object): string {
  return Buffer.from(JSON.stringify(o)).toString('base64url');
}
/** A JWT-shaped key with this role (the signature part is not checked by anything here). */
function keyWithRole(role: string): string {
  return [b64url({ alg: 'HS256', typ: 'JWT' }), b64url({ iss: 'supabase', ref: 'abcdefghijklmnop', role, iat: 1700000000, exp: 2000000000 }), `sig${role}`].join('.');
}

const anonKey = keyWithRole('anon');
const secrets = {
  SUPABASE_SERVICE_ROLE_KEY: keyWithRole('service_role'),
  SUPABASE_JWT_SECRET: ['super', 'secret', 'jwt', 'signing', 'value', '0123456789'].join('-'),
  S3_SECRET_ACCESS_KEY: ['wJalrXUtnFEMI', 'K7MDENG', 'bPxRfiCYEXAMPLEKEY'].join('/'),
  AWS_SECRET_ACCESS_KEY: ['aws', 'secret', 'from', 'the', 'build', 'machine'].join('_'),
  S3_ACCESS_KEY_ID: ['AKIA', 'IOSFODNN7', 'EXAMPLE'].join(''),
};

let outDir = '';
let files: string[] = [];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'shoebox-dist-'));
  const saved = { ...process.env };
  Object.assign(process.env, secrets, {
    VITE_SUPABASE_URL: 'https://abcdefghijklmnop.supabase.co',
    VITE_SUPABASE_ANON_KEY: anonKey,
    VITE_STORAGE_PROVIDER: 'supabase',
    VITE_STORAGE_REGION: 'eu-central-1',
  });
  try {
    const { build } = await import('vite');
    await build({ root, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env = saved;
  }
  files = walk(outDir);
}, 600_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('the production bundle', () => {
  it('has JavaScript and source maps to scan', () => {
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('.js.map'))).toBe(true);
  });

  it('contains no secret from the build environment, in code or source maps', () => {
    for (const file of files) {
      const text = readFileSync(file, 'latin1');
      for (const [name, value] of Object.entries(secrets)) {
        expect(text.includes(value), `${name} found in ${file.slice(outDir.length)}`).toBe(false);
      }
      // The app names the prefix to refuse such keys; a key itself would follow it.
      expect(/sb_secret_[A-Za-z0-9_-]{8,}/.test(text), `a secret key in ${file}`).toBe(false);
    }
  });

  it('contains no JWT but the anon key', () => {
    const jwt = /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+/g;
    const found = new Set<string>();
    for (const file of files) for (const m of readFileSync(file, 'latin1').matchAll(jwt)) found.add(m[0]);
    expect([...found]).toEqual([anonKey]);
  });

  it('leaves the AWS SDK out of the first screen', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const entry = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(entry.length).toBeGreaterThan(0);
    for (const f of entry) {
      const code = readFileSync(join(outDir, f), 'utf8');
      expect(code.includes('S3RequestPresigner') || code.includes('@aws-sdk'), `${f} holds the SDK`).toBe(false);
    }
    // …but it is in the build, for the first upload.
    expect(files.some((f) => f.endsWith('.js') && readFileSync(f, 'utf8').includes('x-amz-security-token'))).toBe(true);
  });
});
