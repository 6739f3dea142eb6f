/**
 * The emulated project on the network rather than in Playwright's routing, for a benchmark browser that must run
 * as a person's does. While a context has any Playwright route, Chromium's DevTools interceptor holds every
 * request, and reads the body of each one that is a blob on the browser's main thread (an upload queue's files):
 * a cost no browser without automation pays. So the browser is routed by name instead:
 *   - an https server on loopback answers for the project's host (--host-resolver-rules points the name at it),
 *     each request served as tests/e2e/emulated-gateway.ts serves a routed one, preflights answered as the
 *     hosted gateway does, and the Realtime WebSocket passed frame for frame to the emulator's server;
 *   - an http server is the app's origin: the production build (the Playwright run's preview server, passed
 *     through) with the world's config.json.
 * The certificate is made for this run; the browser is started with --ignore-certificate-errors.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Route } from '@playwright/test';
import { WebSocket, WebSocketServer } from 'ws';
import { makeCertificate } from '../tests/e2e/bucket-endpoint';
import { serveProject } from '../tests/e2e/emulated-gateway';
import { worldWiring, type SupabaseWorld } from '../tests/e2e/supabase-world';

export interface DirectGateway {
  /** The app's origin for the browser (http://127.0.0.1:<port>). */
  appOrigin: string;
  /** Chromium's switches that send the project's name to this gateway and trust its certificate. */
  chromiumArgs: string[];
  stop(): Promise<void>;
}

/** A certificate made for this run (bucket-endpoint.ts's; the browser is told to trust any). */
function certificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'shoebox-gateway-tls-'));
  try {
    const files = makeCertificate(dir);
    return { key: readFileSync(files.key), cert: readFileSync(files.cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const bodyOf = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** A Node request and its response, read and fulfilled as a Playwright Route is. */
function asRoute(req: IncomingMessage, body: Buffer, res: ServerResponse, origin: string): Route {
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
  const request = {
    url: () => `${origin}${req.url}`,
    method: () => req.method ?? 'GET',
    headers: () => headers,
    allHeaders: async () => headers,
    postDataBuffer: () => (body.length > 0 ? body : null),
  };
  const fulfill = async (answer: { status?: number; headers?: Record<string, string>; body?: string | Buffer; json?: unknown }) => {
    const json = answer.json !== undefined;
    const out = json ? Buffer.from(JSON.stringify(answer.json)) : Buffer.from(answer.body ?? '');
    res.writeHead(answer.status ?? 200, { ...(json ? { 'content-type': 'application/json' } : {}), ...answer.headers, 'content-length': String(out.length) });
    res.end(out);
  };
  return { request: () => request, fulfill } as unknown as Route;
}

const listen = (server: Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** Starts the gateway for `world`, its app origin passing everything but config.json to `appUpstream`. */
export async function startDirectGateway(world: SupabaseWorld, appUpstream: string): Promise<DirectGateway> {
  const { targets, appConfig } = worldWiring(world);
  const project = new URL(targets.projectUrl);
  const realtime = targets.wire.realtime;
  if (!realtime) throw new Error('the wire emulator was started without Realtime');
  const sockets = new Set<Socket>();
  const track = (server: Server) => server.on('connection', (s: Socket) => (sockets.add(s), s.on('close', () => sockets.delete(s))));

  const api = createHttpsServer(certificate(), (req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', project).pathname;
      // The hosted gateway answers CORS preflights for the API itself; an edge function answers its own.
      if (req.method === 'OPTIONS' && !path.startsWith('/functions/')) {
        res.writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
          'access-control-max-age': '3600',
        });
        return res.end();
      }
      await serveProject(asRoute(req, await bodyOf(req), res, project.origin), targets);
    })().catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(e));
    });
  });
  const wss = new WebSocketServer({ noServer: true });
  api.on('upgrade', (req, socket, head) => {
    const upstream = new WebSocket(`${realtime.url.replace(/^http/, 'ws')}${req.url}`);
    wss.handleUpgrade(req, socket, head, (page) => {
      const waiting: { data: Buffer; binary: boolean }[] = [];
      upstream.on('open', () => {
        for (const m of waiting.splice(0)) upstream.send(m.data, { binary: m.binary });
      });
      page.on('message', (data: Buffer, binary) => (upstream.readyState === WebSocket.OPEN ? upstream.send(data, { binary }) : waiting.push({ data, binary })));
      upstream.on('message', (data: Buffer, binary) => page.send(data, { binary }));
      upstream.on('close', () => page.close());
      upstream.on('error', () => page.terminate());
      page.on('close', () => upstream.close());
    });
  });
  track(api);
  const apiPort = await listen(api);

  const upstream = new URL(appUpstream);
  const app = createHttpServer((req, res) => {
    if (req.url === '/config.json') {
      const out = Buffer.from(JSON.stringify(appConfig));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(out.length), 'cache-control': 'no-store' });
      return void res.end(out);
    }
    const out = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.writeHead(502).end());
    req.pipe(out);
  });
  track(app);
  const appPort = await listen(app);

  return {
    appOrigin: `http://127.0.0.1:${appPort}`,
    chromiumArgs: [`--host-resolver-rules=MAP ${project.hostname} 127.0.0.1:${apiPort}`, '--ignore-certificate-errors'],
    stop: async () => {
      wss.close();
      for (const s of sockets) s.destroy();
      await Promise.all([api, app].map((s) => new Promise((r) => s.close(r))));
    },
  };
}
