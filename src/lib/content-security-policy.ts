/**
 * [Note: Content-Security-Policy]
 * The built app runs under a strict policy: scripts only from its own origin (plus compiling WebAssembly,
 * which the hashers need), no plugins, no <base>, no frames inside it, no form posts; images and media from itself,
 * blob: and data: (local files, thumbnails being made, video posters) and the storage origins; connections to
 * itself and the configured backend (the Supabase URL over https, its wss for Realtime, the storage origins).
 * Styles come from the bundle's CSS file: React sets style attributes through the CSSOM, which CSP does not
 * govern, so no 'unsafe-inline' is needed.
 *
 * Delivery: a <meta> written into index.html at build time (vite.config.ts), from the same settings the app
 * reads (VITE_SUPABASE_URL, VITE_STORAGE_*, VITE_ALLOWED_ORIGINS). A build that does not know its backend
 * (config.json decides at run time) cannot name it, so its meta allows any https:/wss: origin for
 * connections, images and media, and the app adds a second, exact policy as soon as config.json is read
 * (policies only ever narrow: the browser enforces both). `frame-ancestors` works only as a header; the
 * header form of the policy includes it, and the build writes it into `dist/_headers`, the file static hosts
 * read (headersFile); scripts/csp.mjs prints it for a deployment's own config.json (README
 * "Content-Security-Policy").
 */
import { backendConfigFromEnv, type BackendConfig } from '../config';

/** `https://host[:port]` (or http on loopback, for development), or null when `value` is not an origin. */
export function originOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const u = new URL(value);
    const loopback = u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]';
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && loopback)) return null;
    if (u.username || u.password || u.search || u.hash || (u.pathname !== '/' && u.pathname !== '')) return null;
    return u.origin;
  } catch {
    return null;
  }
}

/** The origins named in a list such as VITE_ALLOWED_ORIGINS ("https://a.example https://b.example"); null if one is not an origin. */
export function parseOrigins(list: readonly unknown[]): string[] | null {
  const out: string[] = [];
  for (const item of list) {
    const origin = originOf(item);
    if (!origin) return null;
    out.push(origin);
  }
  return out;
}

export interface PolicySources {
  /** The backend, or null when config.json decides at run time (then any https:/wss: origin is allowed). */
  backend: BackendConfig | null;
  /** More origins to fetch from and show files from: an S3 bucket's endpoint, a CDN in front of it. */
  allowedOrigins?: readonly string[];
}

export function contentSecurityPolicy({ backend: config, allowedOrigins = [] }: PolicySources, delivery: 'meta' | 'header' = 'meta'): string {
  const connect = ["'self'"];
  const files = ["'self'", 'blob:', 'data:'];
  if (config === null) {
    connect.push('https:', 'wss:');
    files.push('https:');
  } else if (config.kind === 'supabase') {
    const origin = new URL(config.url).origin;
    connect.push(origin, origin.replace(/^http/, 'ws'));
    // Supabase Storage's S3 endpoint and its presigned URLs live on the project's own origin.
    if (config.storage?.provider === 'supabase') files.push(origin);
    // Another S3 provider: its endpoint is a secret of the storage-sign function; without VITE_ALLOWED_ORIGINS
    // (or config.json's allowedOrigins) naming it, presigned URLs may point anywhere on https.
    if (config.storage?.provider === 's3' && allowedOrigins.length === 0) {
      connect.push('https:');
      files.push('https:');
    }
  }
  connect.push(...allowedOrigins);
  files.push(...allowedOrigins);
  const list = (sources: string[]) => [...new Set(sources)].join(' ');
  const directives = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    // The dialogs' and menus' scroll lock (Radix, through react-remove-scroll) writes a <style> element sized
    // to the scrollbar at run time, so no hash can name it. CSS runs no script, and user text is never HTML.
    "style-src-elem 'self' 'unsafe-inline'",
    `img-src ${list(files)}`,
    `media-src ${list(files)}`,
    `connect-src ${list(connect)}`,
    "worker-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    ...(delivery === 'header' ? ["frame-ancestors 'none'"] : []),
  ];
  return directives.join('; ');
}

/** VITE_ALLOWED_ORIGINS (origins separated by spaces or commas); null when one of them is not an origin. */
export function allowedOriginsFromEnv(env: Record<string, string | undefined>): string[] | null {
  return parseOrigins((env.VITE_ALLOWED_ORIGINS ?? '').split(/[\s,]+/).filter(Boolean));
}

/**
 * What the build knows: a backend named by VITE_SUPABASE_* (then config.json is never read), or none
 * (then config.json may name any backend at run time, and the app narrows the policy once it has read it).
 */
export function policySourcesFromEnv(env: Record<string, string | undefined>): PolicySources {
  const config = backendConfigFromEnv(env);
  const allowedOrigins = allowedOriginsFromEnv(env);
  if (!allowedOrigins) throw new Error('VITE_ALLOWED_ORIGINS must hold origins such as https://<account>.r2.cloudflarestorage.com, separated by spaces.');
  return { backend: config.kind === 'supabase' ? config : null, allowedOrigins };
}

/**
 * The headers of every response in the `_headers` form static hosts read (Netlify, Cloudflare Pages, and
 * `vite preview` here): the policy as a header, which alone carries `frame-ancestors 'none'` and also covers the
 * workers, with nosniff and a referrer policy that gives other origins no path (a share link's token is in it).
 */
export function headersFile(policy: string): string {
  return ['/*', `  Content-Security-Policy: ${policy}`, '  X-Content-Type-Options: nosniff', '  Referrer-Policy: strict-origin-when-cross-origin', ''].join('\n');
}

/** The headers a `_headers` file gives every path (`/*`), as name → value. */
export function parseHeadersFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  let all = false;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      all = line.trim() === '/*';
      continue;
    }
    const colon = line.indexOf(':');
    if (all && colon > 0) out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}
