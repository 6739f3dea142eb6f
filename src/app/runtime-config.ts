import { fromBase64UrlJson } from '../lib/base64url-json';
import { allowedOriginsFromEnv as originsFromEnv, parseOrigins } from '../lib/content-security-policy';
import { backendConfigFromEnv, overrideLimits, DEFAULT_BUCKET, DEFAULT_LIMITS, type BackendConfig, type Limits, type StorageConfig } from '../config';

/**
 * Which backend to use, decided once at start-up: the build's `VITE_SUPABASE_URL` and `VITE_SUPABASE_ANON_KEY`
 * when set, else a `config.json` served next to the bundle (so one build deploys anywhere), else the local
 * backend. A config that is there but wrong stops start-up with a clear message, never a blank page.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface RuntimeConfig {
  backend: BackendConfig;
  limits: Partial<Limits>;
  /** Origins beyond the backend the page may reach (Content-Security-Policy): an S3 bucket's endpoint. */
  allowedOrigins: string[];
}

const KNOWN_KEYS = new Set(['supabaseUrl', 'supabaseAnonKey', 'oauthProviders', 'storage', 'limits', 'allowedOrigins']);

const ORIGINS_HELP = 'allowedOrigins must be a list of origins, such as ["https://<account>.r2.cloudflarestorage.com"].';

/** VITE_ALLOWED_ORIGINS: origins separated by spaces or commas. */
export function allowedOriginsFromEnv(env: Record<string, string | undefined>): string[] {
  const origins = originsFromEnv(env);
  if (!origins) throw new ConfigError(`VITE_ALLOWED_ORIGINS must hold origins such as https://<account>.r2.cloudflarestorage.com, separated by spaces.`);
  return origins;
}

function parseAllowedOrigins(v: unknown): string[] {
  if (v === undefined) return [];
  const origins = Array.isArray(v) ? parseOrigins(v) : null;
  if (!origins) throw new ConfigError(ORIGINS_HELP);
  return origins;
}

/** Checks a parsed config.json. Exported for tests. */
export function parseRuntimeConfig(json: unknown): RuntimeConfig {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ConfigError('config.json must hold a JSON object.');
  }
  const o = json as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length) throw new ConfigError(`config.json has unknown settings: ${unknown.join(', ')}.`);
  const limits = parseLimits(o.limits);
  const allowedOrigins = parseAllowedOrigins(o.allowedOrigins);
  if (o.supabaseUrl === undefined && o.supabaseAnonKey === undefined) return { backend: { kind: 'local' }, limits, allowedOrigins };
  const url = o.supabaseUrl;
  const anonKey = o.supabaseAnonKey;
  if (typeof url !== 'string' || !isHttpUrl(url)) throw new ConfigError('supabaseUrl must be the https:// address of your Supabase project.');
  if (typeof anonKey !== 'string' || anonKey.trim() === '') throw new ConfigError('supabaseAnonKey must be your project’s anon (publishable) key.');
  assertPublishableKey(anonKey);
  const providers = o.oauthProviders ?? [];
  if (!Array.isArray(providers) || !providers.every((p) => typeof p === 'string' && /^[a-z0-9_-]{2,32}$/.test(p))) {
    throw new ConfigError('oauthProviders must be a list of provider names, such as ["google", "github"].');
  }
  const storage = parseStorage(o.storage);
  return {
    backend: { kind: 'supabase', url: url.replace(/\/+$/, ''), anonKey: anonKey.trim(), oauthProviders: providers as string[], ...(storage ? { storage } : {}) },
    limits,
    allowedOrigins,
  };
}

const STORAGE_HELP =
  'storage must be {"provider": "supabase", "region": "<your project\'s region>", "bucket": "shoebox"} (Supabase Storage) ' +
  'or {"provider": "s3"} (another S3 provider, through the storage-sign function).';

function parseStorage(v: unknown): StorageConfig | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError(STORAGE_HELP);
  const o = v as Record<string, unknown>;
  if (o.provider === 's3' && Object.keys(o).length === 1) return { provider: 's3' };
  if (o.provider !== 'supabase') throw new ConfigError(STORAGE_HELP);
  const unknown = Object.keys(o).filter((k) => !['provider', 'region', 'bucket', 'projectRef'].includes(k));
  if (unknown.length) throw new ConfigError(`storage has unknown settings: ${unknown.join(', ')}.`);
  if (typeof o.region !== 'string' || !/^[a-z0-9-]{2,40}$/.test(o.region)) throw new ConfigError('storage.region must be your Supabase project\'s region, such as "eu-central-1".');
  const bucket = o.bucket ?? DEFAULT_BUCKET;
  if (typeof bucket !== 'string' || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) throw new ConfigError('storage.bucket must be a bucket name, such as "shoebox".');
  if (o.projectRef !== undefined && (typeof o.projectRef !== 'string' || !/^[a-z0-9-]{1,64}$/.test(o.projectRef))) {
    throw new ConfigError('storage.projectRef must be your project reference (the first part of its supabase.co address).');
  }
  return { provider: 'supabase', region: o.region, bucket, ...(typeof o.projectRef === 'string' ? { projectRef: o.projectRef } : {}) };
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || (u.protocol === 'http:' && (u.hostname === 'localhost' || u.hostname === '127.0.0.1'));
  } catch {
    return false;
  }
}

/** A secret key in the browser would hand every visitor the whole database: refuse to start with one. */
export function assertPublishableKey(key: string): void {
  if (key.startsWith('sb_secret_')) throw new ConfigError('This is a secret key. Use the anon (publishable) key: the secret key must never reach a browser.');
  const parts = key.split('.');
  if (parts.length === 3) {
    const payload = fromBase64UrlJson(parts[1] ?? '');
    if (typeof payload !== 'object' || payload === null) throw new ConfigError('supabaseAnonKey is not a valid key.');
    if ((payload as { role?: unknown }).role === 'service_role') {
      throw new ConfigError('This is the service_role key. Use the anon (publishable) key: the service_role key must never reach a browser.');
    }
  }
}

function parseLimits(v: unknown): Partial<Limits> {
  if (v === undefined) return {};
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConfigError('limits must be an object.');
  const out: Partial<Limits> = {};
  for (const [k, n] of Object.entries(v)) {
    if (!(k in DEFAULT_LIMITS)) throw new ConfigError(`limits.${k} is not a setting Shoebox knows.`);
    if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0) throw new ConfigError(`limits.${k} must be a positive number.`);
    out[k as keyof Limits] = n;
  }
  return out;
}

/** Reads the configuration at start-up and applies its limits. */
export async function loadRuntimeConfig(env: Record<string, string | undefined>, fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const fromEnv = backendConfigFromEnv(env);
  if (fromEnv.kind === 'supabase') {
    assertPublishableKey(fromEnv.anonKey);
    return { backend: fromEnv, limits: {}, allowedOrigins: allowedOriginsFromEnv(env) };
  }
  let json: unknown;
  try {
    const res = await fetchImpl('/config.json', { cache: 'no-store', headers: { accept: 'application/json' } });
    // No config.json (or a host's HTML fallback for unknown paths): the local backend.
    if (!res.ok || !(res.headers.get('content-type') ?? '').includes('json')) json = null;
    else {
      try {
        json = await res.json();
      } catch {
        throw new ConfigError('config.json is not valid JSON.');
      }
    }
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    // Offline: the configuration seen last, so a deployed app does not fall back to the local backend.
    json = readCachedConfig();
  }
  const config: RuntimeConfig = json === null ? { backend: { kind: 'local' }, limits: {}, allowedOrigins: [] } : parseRuntimeConfig(json);
  writeCachedConfig(json);
  overrideLimits(config.limits);
  return config;
}

const CACHE_KEY = 'shoebox.config';

/**
 * Whether the configuration seen last chose a server backend: a start can fetch that backend's code while
 * config.json is still on its way. A guess only; what config.json says still decides.
 */
export function lastConfigChoseServer(env: Record<string, string | undefined>): boolean {
  if (backendConfigFromEnv(env).kind === 'supabase') return true;
  const last = readCachedConfig();
  return typeof last === 'object' && last !== null && 'supabaseUrl' in last;
}

function readCachedConfig(): unknown {
  try {
    const raw = globalThis.localStorage?.getItem(CACHE_KEY);
    return raw ? (JSON.parse(raw) as unknown) : null;
  } catch {
    return null;
  }
}

function writeCachedConfig(json: unknown): void {
  try {
    if (json === null) globalThis.localStorage?.removeItem(CACHE_KEY);
    else globalThis.localStorage?.setItem(CACHE_KEY, JSON.stringify(json));
  } catch {
    // Private mode or full storage: the next start reads config.json again.
  }
}
