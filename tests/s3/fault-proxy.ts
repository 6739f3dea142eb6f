// A loopback HTTP proxy in front of the S3 test server that injects the faults real networks and providers
// produce: error statuses, dropped connections and uploads cut mid-body. Bodies stream through in both
// directions (a 1 GiB upload is never held in memory) and the Host header is forwarded unchanged, because
// SigV4 signs it. With `cors: true` it also answers CORS the way a provider's API gateway does (Supabase).
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface FaultRequestInfo {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** 0-based arrival order of the request at this proxy. */
  index: number;
}

export type FaultAction =
  | { type: 'pass' }
  /** Answers with this status and an S3-style XML error body; the request never reaches the server. */
  | { type: 'respond'; status: number; code?: string; message?: string; headers?: Record<string, string> }
  /** Destroys the connection before answering (the body is not read). */
  | { type: 'drop' }
  /** Forwards the first `afterBytes` bytes of the body, then destroys both connections. */
  | { type: 'cut'; afterBytes: number }
  /** Forwards the whole body with the byte at `atByte` flipped (a bit error no TCP checksum caught). */
  | { type: 'corrupt'; atByte: number };

/** Decides one request's fate; `undefined` means "not mine", and the next rule is asked. */
export type FaultRule = (req: FaultRequestInfo) => FaultAction | undefined;

export type FaultOutcome =
  /** Forwarded and answered by the server. */
  | 'ok'
  /** Answered with an error status by the proxy (an injected failure, or the server unreachable). */
  | 'failed'
  | 'dropped'
  | 'cut'
  /** The client went away before the answer was complete. */
  | 'aborted';

export interface FaultLogEntry {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The status sent to the client; null when no answer was sent. */
  status: number | null;
  /** Request-body bytes taken from the client (for a cut request: those forwarded before the cut). */
  bytesIn: number;
  outcome: FaultOutcome;
}

export interface FaultProxyOptions {
  target: string;
  rules?: FaultRule | FaultRule[];
  /** Adds CORS headers to every answer and answers OPTIONS preflights itself. */
  cors?: boolean;
  /** Listen port; 0 (default) picks a free one. */
  port?: number;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Finished requests, in the order they finished. */
  log: FaultLogEntry[];
  setRules(rules: FaultRule | FaultRule[]): void;
  close(): Promise<void>;
}

const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, PUT, POST, DELETE, HEAD, OPTIONS',
  'access-control-allow-headers':
    'authorization, content-type, content-md5, content-length, x-amz-date, x-amz-content-sha256, x-amz-security-token, x-amz-user-agent, x-amz-*, amz-sdk-invocation-id, amz-sdk-request, cache-control, range',
  'access-control-expose-headers': 'ETag, x-amz-request-id, x-amz-version-id',
  'access-control-max-age': '3600',
};

const ERROR_CODES: Record<number, string> = {
  400: 'BadRequest',
  403: 'AccessDenied',
  404: 'NoSuchKey',
  429: 'TooManyRequests',
  500: 'InternalError',
  502: 'BadGateway',
  503: 'SlowDown',
  504: 'GatewayTimeout',
};

// Connections are not kept alive upstream: a cut or dropped request must never poison a pooled socket.
const upstreamAgent = new Agent({ keepAlive: false });

function xmlEscape(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function s3ErrorXml(code: string, message: string, requestId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${xmlEscape(code)}</Code><Message>${xmlEscape(message)}</Message><RequestId>${xmlEscape(requestId)}</RequestId></Error>`;
}

function parseQuery(search: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of search) query[key] = value;
  return query;
}

function decide(rules: FaultRule[], info: FaultRequestInfo): FaultAction {
  for (const rule of rules) {
    const action = rule(info);
    if (action) return action;
  }
  return { type: 'pass' };
}

export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(opts.target);
  let rules: FaultRule[] = [opts.rules ?? []].flat();
  const log: FaultLogEntry[] = [];
  let arrivals = 0;
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const info: FaultRequestInfo = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: parseQuery(url.searchParams),
      headers: req.headers,
      index: arrivals++,
    };
    const track = tracker({ method: info.method, path: info.path, query: info.query, status: null, bytesIn: 0, outcome: 'ok' });
    const cors = opts.cors ? CORS_HEADERS : {};
    const action = decide(rules, info);

    if (action.type === 'drop') {
      track.finish('dropped', null);
      req.socket.destroy();
      return;
    }
    if (action.type === 'respond') {
      // The body is read (and discarded) first, so the client reliably sees the status rather than a reset.
      req.on('data', (chunk: Buffer) => (track.entry.bytesIn += chunk.length));
      req.on('end', () => {
        const code = action.code ?? ERROR_CODES[action.status] ?? 'InternalError';
        const body = s3ErrorXml(code, action.message ?? `Injected ${action.status} by the fault proxy`, `fault-${info.index}`);
        res.writeHead(action.status, { ...cors, 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), ...action.headers });
        res.end(body, () => track.finish('failed', action.status));
      });
      res.on('close', () => track.finish('aborted', null));
      return;
    }
    if (opts.cors && info.method === 'OPTIONS') {
      req.resume();
      res.writeHead(204, cors);
      res.end(() => track.finish('ok', 204));
      return;
    }
    forward(req, res, info, track, action.type === 'cut' ? action.afterBytes : null, cors, action.type === 'corrupt' ? action.atByte : null);
  });

  interface Tracker {
    entry: FaultLogEntry;
    done: boolean;
    /** Records the request's outcome once; later calls are ignored. */
    finish(outcome: FaultOutcome, status: number | null): void;
  }

  function tracker(entry: FaultLogEntry): Tracker {
    const t: Tracker = {
      entry,
      done: false,
      finish(outcome, status) {
        if (t.done) return;
        t.done = true;
        entry.outcome = outcome;
        entry.status = status;
        log.push(entry);
      },
    };
    return t;
  }

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    info: FaultRequestInfo,
    track: Tracker,
    cutAfter: number | null,
    cors: Record<string, string>,
    corruptAt: number | null,
  ) {
    const { entry } = track;
    const headers = { ...req.headers };
    delete headers.connection;
    delete headers['keep-alive'];
    const upstream = httpRequest({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      method: info.method,
      path: req.url,
      headers, // Host included, unchanged: the signature covers it.
      agent: upstreamAgent,
    });

    const cutNow = () => {
      track.finish('cut', null);
      upstream.destroy();
      req.socket.destroy();
    };

    upstream.on('response', (upRes) => {
      if (track.done) return upRes.destroy();
      const outHeaders: Record<string, string | string[]> = {};
      for (const [key, value] of Object.entries(upRes.headers)) {
        if (value !== undefined && key !== 'connection' && key !== 'keep-alive') outHeaders[key] = value;
      }
      res.writeHead(upRes.statusCode ?? 502, { ...outHeaders, ...cors });
      upRes.pipe(res);
      upRes.on('error', () => {
        track.finish('aborted', upRes.statusCode ?? null);
        res.destroy();
      });
      res.on('finish', () => track.finish('ok', upRes.statusCode ?? null));
    });
    upstream.on('error', () => {
      if (track.done) return;
      if (res.headersSent) {
        track.finish('aborted', res.statusCode);
        res.destroy();
        return;
      }
      const body = s3ErrorXml('BadGateway', 'The S3 server could not be reached', `fault-${info.index}`);
      res.writeHead(502, { ...cors, 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
      res.end(body, () => track.finish('failed', 502));
    });
    res.on('close', () => {
      if (!res.writableFinished) {
        track.finish('aborted', res.headersSent ? res.statusCode : null);
        upstream.destroy();
      }
    });

    if (cutAfter !== null && cutAfter <= 0) {
      upstream.flushHeaders();
      cutNow();
      return;
    }
    // Streams the body with backpressure, counting bytes and cutting at the limit.
    req.on('data', (chunk: Buffer) => {
      if (track.done) return;
      if (cutAfter !== null && entry.bytesIn + chunk.length >= cutAfter) {
        const keep = cutAfter - entry.bytesIn;
        entry.bytesIn += keep;
        req.pause();
        upstream.write(chunk.subarray(0, keep), () => cutNow());
        return;
      }
      if (corruptAt !== null && corruptAt >= entry.bytesIn && corruptAt < entry.bytesIn + chunk.length) {
        chunk = Buffer.from(chunk);
        const at = corruptAt - entry.bytesIn;
        chunk[at] = chunk[at]! ^ 0x20;
      }
      entry.bytesIn += chunk.length;
      if (!upstream.write(chunk)) {
        req.pause();
        upstream.once('drain', () => req.resume());
      }
    });
    req.on('end', () => {
      if (!track.done) upstream.end();
    });
    req.on('error', () => upstream.destroy());
  }

  // Large uploads through the proxy may take minutes.
  server.requestTimeout = 0;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    setRules(next) {
      rules = [next].flat();
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}

/** Requests that match, or all when no matcher is given. */
export type FaultMatch = (req: FaultRequestInfo) => boolean;

/** A part of a multipart upload (PUT with partNumber and uploadId). */
export const isUploadPart: FaultMatch = (req) => req.method === 'PUT' && 'partNumber' in req.query && 'uploadId' in req.query;

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a failing run can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fails about a fraction `p` of the matching requests with `status` (S3-style error body), deterministically by seed. */
export function failFraction(p: number, seed: number, match: FaultMatch = () => true, status = 503): FaultRule {
  const random = seededRandom(seed);
  return (req) => {
    if (!match(req)) return undefined;
    return random() < p ? { type: 'respond', status } : { type: 'pass' };
  };
}

/** Cuts every matching request after `n` body bytes have been forwarded. */
export function cutAfterBytes(n: number, match: FaultMatch = () => true): FaultRule {
  return (req) => (match(req) ? { type: 'cut', afterBytes: n } : undefined);
}

/** Applies `rule` to at most `count` requests it claims; later ones fall through to the next rule. */
export function times(count: number, rule: FaultRule): FaultRule {
  let left = count;
  return (req) => {
    if (left <= 0) return undefined;
    const action = rule(req);
    if (action && action.type !== 'pass') left--;
    return action;
  };
}
