/**
 * What stands between a browser and an emulated Supabase project in the end-to-end tests, in the place of the
 * hosted API gateway and the bucket's own address:
 *   https://<project>/auth|rest|realtime/v1/*  → the wire emulator's `fetch` (tests/db/wire), with the CORS
 *                                                 headers the hosted gateway adds;
 *   https://<project>/functions/v1/<name>      → the edge function served by real Deno (it answers CORS itself);
 *   wss://<project>/realtime/v1/websocket      → the Realtime emulator's WebSocket server, frame for frame;
 *   https://<bucket origin>/*                  → the Ceph gateway, with the Host the URL was signed for, so Ceph
 *                                                 checks every signature and answers CORS by the bucket's rules
 *                                                 (the edge functions reach the same origin over real TLS:
 *                                                 bucket-endpoint.ts);
 *   https://<project>/storage/v1/*             → in a world whose files go to Supabase Storage, the real storage
 *                                                 server's gateway stand-in, with the Host the app signed for.
 * The app is configured with https/wss origins because the build's Content-Security-Policy (before
 * config.json narrows it) admits only those for a backend; the emulators themselves listen on plain loopback.
 * Anything else sent to the project is refused and listed in `unserved`, so a gap fails the test.
 */
import { request as httpRequest } from 'node:http';
import type { BrowserContext, Route } from '@playwright/test';
import { WebSocket } from 'ws';
import type { WireEmulator } from '../db/wire/wire-emulator';

export interface GatewayTargets {
  /** The project URL the app is given: https, resolved only here. */
  projectUrl: string;
  wire: WireEmulator;
  /** Edge functions by name: where each is served (`http://127.0.0.1:<port>`). */
  functions: Record<string, string>;
  /** The bucket's address as the app and the functions know it (https), and where the S3 gateway really listens (none when the files are on Supabase Storage). */
  s3?: { publicOrigin: string; upstream: string };
  /** Where `/storage/v1/*` goes, when the project's files are on Supabase Storage (scripts/supabase-storage-test-server.mjs). */
  storage?: { upstream: string };
  /** Requests the gateway could not route, as `METHOD url: why`. */
  unserved: string[];
}

/** Headers a proxy sets itself, never passes on. */
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

function forwardedHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase()) && !k.startsWith(':')));
}

/** The hosted gateway's CORS answer on every API response (its preflights Playwright answers while routing). */
const GATEWAY_CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': '*' };

async function fulfillFrom(route: Route, response: Response, extra: Record<string, string> = {}): Promise<void> {
  const headers: Record<string, string> = {};
  // fetch has already decoded the body: its length and encoding no longer describe it.
  response.headers.forEach((value, key) => {
    if (key !== 'content-encoding' && key !== 'content-length') headers[key] = value;
  });
  await route.fulfill({ status: response.status, headers: { ...headers, ...extra }, body: Buffer.from(await response.arrayBuffer()) });
}

/** Answers one request to the project (`route` may be any object that reads and fulfills like Playwright's). */
export async function serveProject(route: Route, t: GatewayTargets): Promise<void> {
  const req = route.request();
  const url = new URL(req.url());
  const body = req.postDataBuffer();
  const init = { method: req.method(), headers: forwardedHeaders(await req.allHeaders()), ...(body ? { body: new Uint8Array(body) } : {}) };
  const fn = /^\/functions\/v1\/([^/]+)(\/.*)?$/.exec(url.pathname);
  if (fn) {
    const target = t.functions[fn[1]!];
    if (!target) {
      t.unserved.push(`${req.method()} ${url.pathname}: no such edge function`);
      return route.fulfill({ status: 404, headers: GATEWAY_CORS, json: { message: 'Function not found' } });
    }
    // As Kong does, the gateway adds the address it was called from to X-Forwarded-For: the browser's, here.
    const sent = init.headers['x-forwarded-for'];
    const headers = { ...init.headers, 'x-forwarded-for': sent ? `${sent}, 127.0.0.1` : '127.0.0.1' };
    return fulfillFrom(route, await fetch(`${target}${fn[2] ?? '/'}${url.search}`, { ...init, headers }));
  }
  // The https edge in front of the project's gateway: Storage checks S3 signatures against the host, port and
  // scheme it says the browser used.
  if (t.storage && url.pathname.startsWith('/storage/v1/')) {
    return forward(route, t.storage.upstream, { 'x-forwarded-proto': 'https', 'x-forwarded-host': url.hostname, 'x-forwarded-port': '443' });
  }
  if (/^\/(auth|rest|realtime)\/v1\//.test(url.pathname)) {
    return fulfillFrom(route, await t.wire.fetch(new Request(url, init)), GATEWAY_CORS);
  }
  t.unserved.push(`${req.method()} ${url.pathname}: no such route`);
  return route.fulfill({ status: 404, headers: GATEWAY_CORS, json: { message: 'no Route matched with those values' } });
}

/** Passes the request to `to` as it came, with the Host the URL names: S3 signatures cover it. */
async function forward(route: Route, to: string, extraHeaders: Record<string, string> = {}): Promise<void> {
  const req = route.request();
  const url = new URL(req.url());
  const upstream = new URL(to);
  const body = req.postDataBuffer();
  const answer = await new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>((resolve, reject) => {
    const out = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method(),
        path: `${url.pathname}${url.search}`,
        // The signature covers the host the URL names.
        headers: { ...forwardedHeaders(req.headers()), ...extraHeaders, host: url.host, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Record<string, string> = {};
          // The body is fulfilled whole, so its own length is set anew; a HEAD's length is the object's, kept as said.
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && (k !== 'content-length' || req.method() === 'HEAD')) headers[k] = Array.isArray(v) ? v.join(', ') : v;
          resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body ?? undefined);
  });
  await route.fulfill(answer);
}

const serveBucket = (route: Route, bucket: { upstream: string }) => forward(route, bucket.upstream);

/** Closing codes a peer may send (1005, 1006 and 1015 only describe a close, they are never sent). */
const sendable = (code: number | undefined): code is number =>
  code !== undefined && code >= 1000 && code <= 4999 && ![1004, 1005, 1006, 1015].includes(code);

/**
 * A round trip's worth of delay on every routed request, for benchmarks that compare starts on a phone-like
 * network: a routed request is fulfilled in-process, so DevTools' network emulation does not slow it.
 */
export const gatewayLatencyMs = Number(process.env.GATEWAY_LATENCY_MS ?? 0);
const roundTrip = (): Promise<void> | undefined => (gatewayLatencyMs > 0 ? new Promise((r) => setTimeout(r, gatewayLatencyMs)) : undefined);

/** Serves a route after that round trip; a page closed meanwhile no longer wants the answer. */
export async function afterRoundTrip(serve: () => Promise<void>): Promise<void> {
  if (gatewayLatencyMs <= 0) return serve();
  await roundTrip();
  await serve().catch((e: unknown) => {
    if (!/has been closed/.test(String(e))) throw e;
  });
}

/** Routes `context`'s requests to the project and the bucket as described above; resolves to a function that hangs up its sockets. */
export async function routeThroughGateway(context: BrowserContext, t: GatewayTargets): Promise<() => void> {
  const realtime = t.wire.realtime;
  if (!realtime) throw new Error('the wire emulator was started without Realtime');
  const wsOrigin = realtime.url.replace(/^http/, 'ws');
  const sockets = new Set<WebSocket>();
  await context.route(`${t.projectUrl}/**`, (route) => afterRoundTrip(() => serveProject(route, t)));
  const bucket = t.s3;
  if (bucket) await context.route(`${bucket.publicOrigin}/**`, (route) => afterRoundTrip(() => serveBucket(route, bucket)));
  await context.routeWebSocket(`${t.projectUrl.replace(/^http/, 'ws')}/**`, (page) => {
    const url = new URL(page.url());
    const server = new WebSocket(`${wsOrigin}${url.pathname}${url.search}`);
    sockets.add(server);
    server.on('close', () => sockets.delete(server));
    const waiting: (string | Buffer)[] = [];
    server.on('open', () => {
      for (const m of waiting.splice(0)) server.send(m);
    });
    page.onMessage((m) => (server.readyState === WebSocket.OPEN ? server.send(m) : waiting.push(m)));
    server.on('message', (data, isBinary) => page.send(isBinary ? Buffer.from(data as Buffer) : data.toString()));
    server.on('close', (code, reason) => void page.close(sendable(code) ? { code, reason: reason.toString() } : {}).catch(() => undefined));
    server.on('error', () => void page.close({ code: 1011 }).catch(() => undefined));
    page.onClose((code) => server.close(sendable(code) ? code : 1000));
  });
  return () => {
    for (const s of sockets) s.terminate();
  };
}
