#!/usr/bin/env node
// A stand-in for the API gateway in front of Supabase Storage, for the tests: hosted Supabase and self-hosted
// Supabase (Kong) serve the storage server under `/storage/v1/` of the project's URL, and it is the gateway,
// never the storage server, that answers CORS. See [Note: What the storage gateway does].
//   node scripts/supabase-storage-gateway.mjs --upstream http://127.0.0.1:5000 --port 0 --ready-file <file>
// listens on 127.0.0.1 (port 0: a free one), then writes `{"port":…,"pid":…}` to the ready file. A port already in
// use is an error (exit 1), never shared. Started and stopped by scripts/supabase-storage-test-server.mjs.
import { createServer, request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

// [Note: What the storage gateway does]
// It does what Supabase's own gateway configuration does for the route `/storage/v1/` (supabase/cli
// internal/start/templates/kong.yml and the self-hosted docker/volumes/api/kong.yml: Kong with `strip_path`,
// the `cors` plugin with its defaults, and a request-transformer for Authorization):
// - `/storage/v1/<rest>` goes to the server as `/<rest>`, with `X-Forwarded-Prefix: /storage/v1` (the server,
//   run with REQUEST_ALLOW_X_FORWARDED_PATH=true, verifies S3 signatures over the path the client signed,
//   `/storage/v1/s3/…`) and Kong's X-Forwarded-Host/-Port/-Proto/-For (it checks the signed Host against them).
//   Any other path is Kong's 404 "no Route matched with those values".
// - A request without Authorization but with an `apikey` header is sent with `Authorization: Bearer <apikey>`.
// - CORS as Kong's plugin does with no settings: a preflight (OPTIONS with Origin and
//   Access-Control-Request-Method) is answered here, 200, `Access-Control-Allow-Origin: *`, the requested
//   headers echoed as allowed, and the methods GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT, without a
//   max age; any other response to a request with an Origin gets `Access-Control-Allow-Origin: *`.
//   The gateway exposes no response header: the server itself sends `Access-Control-Expose-Headers: etag` on
//   UploadPart (its fix for browsers' multipart uploads on hosted Supabase, which could not read the ETag),
//   and nothing on other answers, so a browser cannot read a PutObject's ETag there.
const PREFIX = '/storage/v1';
const KONG_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT';
// Hop-by-hop headers (RFC 9110 §7.6.1) are the proxy's own on each side.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function json(res, status, body, extraHeaders = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...extraHeaders });
  res.end(text);
}

function withoutHopByHop(headers) {
  const named = new Set(String(headers.connection ?? '').toLowerCase().split(',').map((h) => h.trim()).filter(Boolean));
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name) && !named.has(name)));
}

/** The gateway as a Node HTTP server forwarding to `upstream` (the storage server's base URL). */
export function createStorageGateway({ upstream }) {
  const target = new URL(upstream);
  return createServer((req, res) => {
    const origin = req.headers.origin;
    const path = req.url ?? '/';
    if (!path.startsWith(`${PREFIX}/`)) {
      json(res, 404, { message: 'no Route matched with those values' });
      return;
    }
    if (req.method === 'OPTIONS' && origin && req.headers['access-control-request-method']) {
      const requested = req.headers['access-control-request-headers'];
      res.writeHead(200, {
        'access-control-allow-origin': '*',
        ...(requested ? { 'access-control-allow-headers': requested } : {}),
        'access-control-allow-methods': KONG_METHODS,
        'content-length': '0',
      });
      res.end();
      return;
    }

    const headers = withoutHopByHop(req.headers);
    const hostName = String(req.headers.host ?? '').replace(/:\d+$/, '');
    // Like Kong with its trusted_ips (loopback here), the X-Forwarded-Proto/-Host/-Port of a proxy in front (the
    // TLS edge of a hosted project; the end-to-end tests' router) are passed on as received.
    const given = (name) => (typeof req.headers[name] === 'string' ? req.headers[name] : undefined);
    Object.assign(headers, {
      host: target.host,
      'x-forwarded-for': req.socket.remoteAddress ?? '',
      'x-forwarded-proto': given('x-forwarded-proto') ?? 'http',
      'x-forwarded-host': given('x-forwarded-host') ?? hostName,
      'x-forwarded-port': given('x-forwarded-port') ?? String(req.socket.localPort),
      'x-forwarded-path': path.split('?')[0],
      'x-forwarded-prefix': PREFIX,
      'x-real-ip': req.socket.remoteAddress ?? '',
    });
    if (!headers.authorization && typeof headers.apikey === 'string') headers.authorization = `Bearer ${headers.apikey}`;

    const forward = request(
      { host: target.hostname, port: target.port, method: req.method, path: path.slice(PREFIX.length), headers },
      (answer) => {
        const out = withoutHopByHop(answer.headers);
        if (origin) out['access-control-allow-origin'] = '*';
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    forward.on('error', () => {
      if (res.headersSent) res.destroy();
      else json(res, 502, { message: 'An invalid response was received from the upstream server' }, origin ? { 'access-control-allow-origin': '*' } : {});
    });
    // A client that goes away mid-request takes the upstream request with it.
    res.on('close', () => {
      if (!res.writableFinished) forward.destroy();
    });
    req.pipe(forward);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { upstream: { type: 'string' }, port: { type: 'string', default: '0' }, 'ready-file': { type: 'string' } } });
  if (!values.upstream || !values['ready-file']) {
    console.error('usage: supabase-storage-gateway.mjs --upstream <url> [--port <port>] --ready-file <file>');
    process.exit(2);
  }
  const server = createStorageGateway({ upstream: values.upstream });
  server.on('error', (err) => {
    console.error(`[supabase-storage-gateway] ${err.code === 'EADDRINUSE' ? `127.0.0.1:${values.port} is already in use by another server` : err.message}`);
    process.exit(1);
  });
  server.listen(Number(values.port), '127.0.0.1', () => {
    writeFileSync(values['ready-file'], JSON.stringify({ port: server.address().port, pid: process.pid }));
    console.error(`[supabase-storage-gateway] http://127.0.0.1:${server.address().port}${PREFIX}/ → ${values.upstream}`);
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)).closeAllConnections());
}
