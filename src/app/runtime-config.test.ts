import { afterEach, describe, expect, it } from 'vitest';
import { limits } from '../config';
import { resetLimits } from '../testing/limits';
import { ConfigError, loadRuntimeConfig, parseRuntimeConfig } from './runtime-config';

const jwt = (payload: object) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;
const anon = jwt({ role: 'anon', iss: 'supabase' });

function serve(body: string | null, type = 'application/json', status = 200): typeof fetch {
  return async () => (body === null ? new Response('not found', { status: 404 }) : new Response(body, { status, headers: { 'content-type': type } }));
}

afterEach(() => resetLimits());

describe('runtime configuration', () => {
  it('uses the local backend when nothing is configured', async () => {
    expect((await loadRuntimeConfig({}, serve(null))).backend).toEqual({ kind: 'local' });
    // A static host answering unknown paths with the app's HTML is "nothing configured" too.
    expect((await loadRuntimeConfig({}, serve('<!doctype html>', 'text/html'))).backend).toEqual({ kind: 'local' });
  });

  it('prefers the build environment, then config.json', async () => {
    const env = { VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: anon, VITE_SUPABASE_OAUTH_PROVIDERS: 'google, github' };
    expect((await loadRuntimeConfig(env, serve(null))).backend).toEqual({ kind: 'supabase', url: 'https://abc.supabase.co', anonKey: anon, oauthProviders: ['google', 'github'] });
    const fromFile = await loadRuntimeConfig({}, serve(JSON.stringify({ supabaseUrl: 'https://xyz.supabase.co/', supabaseAnonKey: anon, limits: { maxUploadBytes: 1024 } })));
    expect(fromFile.backend).toMatchObject({ kind: 'supabase', url: 'https://xyz.supabase.co' });
    expect(limits().maxUploadBytes).toBe(1024);
  });

  it('refuses a secret key anywhere it could come from', async () => {
    const service = jwt({ role: 'service_role' });
    expect(() => parseRuntimeConfig({ supabaseUrl: 'https://a.supabase.co', supabaseAnonKey: service })).toThrow(/service_role/);
    // Shaped like a secret key, assembled here so secret scanners of the source tree do not take it for one.
    const secretShaped = ['sb', 'secret', 'abc'].join('_');
    expect(() => parseRuntimeConfig({ supabaseUrl: 'https://a.supabase.co', supabaseAnonKey: secretShaped })).toThrow(/secret/);
    await expect(loadRuntimeConfig({ VITE_SUPABASE_URL: 'https://a.supabase.co', VITE_SUPABASE_ANON_KEY: service }, serve(null))).rejects.toBeInstanceOf(ConfigError);
  });

  it('says precisely what is wrong with a bad config.json', async () => {
    await expect(loadRuntimeConfig({}, serve('{ nope'))).rejects.toThrow('config.json is not valid JSON.');
    expect(() => parseRuntimeConfig([])).toThrow(/object/);
    expect(() => parseRuntimeConfig({ supabaseURL: 'x' })).toThrow(/unknown settings: supabaseURL/);
    expect(() => parseRuntimeConfig({ supabaseUrl: 'ftp://x', supabaseAnonKey: anon })).toThrow(/https/);
    expect(() => parseRuntimeConfig({ supabaseUrl: 'https://a.supabase.co' })).toThrow(/anon/);
    expect(() => parseRuntimeConfig({ limits: { partSize: -1 } })).toThrow(/limits.partSize/);
    expect(() => parseRuntimeConfig({ limits: { colour: 1 } })).toThrow(/limits.colour/);
    expect(() => parseRuntimeConfig({ supabaseUrl: 'https://a.supabase.co', supabaseAnonKey: anon, storage: { provider: 'minio' } })).toThrow(/storage must be/);
    expect(() => parseRuntimeConfig({ supabaseUrl: 'https://a.supabase.co', supabaseAnonKey: anon, storage: { provider: 'supabase' } })).toThrow(/storage.region/);
    expect(() => parseRuntimeConfig({ allowedOrigins: 'https://b.example' })).toThrow(/allowedOrigins/);
    expect(() => parseRuntimeConfig({ allowedOrigins: ['https://b.example/path'] })).toThrow(/allowedOrigins/);
    expect(() => parseRuntimeConfig({ allowedOrigins: ["'unsafe-inline'"] })).toThrow(/allowedOrigins/);
    expect(parseRuntimeConfig({ supabaseUrl: 'https://a.supabase.co', supabaseAnonKey: anon, allowedOrigins: ['https://b.example/'] }).allowedOrigins).toEqual(['https://b.example']);
  });

  it('reads where files are stored: Supabase Storage with its region, or another provider through storage-sign', () => {
    const base = { supabaseUrl: 'https://a.supabase.co', supabaseAnonKey: anon };
    expect(parseRuntimeConfig({ ...base, storage: { provider: 'supabase', region: 'eu-central-1' } }).backend).toMatchObject({
      storage: { provider: 'supabase', region: 'eu-central-1', bucket: 'shoebox' },
    });
    expect(parseRuntimeConfig({ ...base, storage: { provider: 's3' } }).backend).toMatchObject({ storage: { provider: 's3' } });
  });

  it('keeps the last configuration when config.json cannot be fetched (offline)', async () => {
    const store = new Map<string, string>();
    (globalThis as { localStorage?: unknown }).localStorage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    try {
      await loadRuntimeConfig({}, serve(JSON.stringify({ supabaseUrl: 'https://xyz.supabase.co', supabaseAnonKey: anon })));
      const offline: typeof fetch = async () => {
        throw new TypeError('Failed to fetch');
      };
      expect((await loadRuntimeConfig({}, offline)).backend).toMatchObject({ kind: 'supabase', url: 'https://xyz.supabase.co' });
    } finally {
      delete (globalThis as { localStorage?: unknown }).localStorage;
    }
  });
});
