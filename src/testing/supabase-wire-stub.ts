/**
 * The HTTP side of a Supabase project as tests see it: a `fetch` that records every request and answers with
 * the documented PostgREST and GoTrue responses the test sets up, and a WebSocket that never connects.
 */
import { toBase64UrlJson } from '../lib/base64url-json';

export interface RecordedRequest {
  method: string;
  url: URL;
  path: string;
  headers: Headers;
  body: unknown;
}

type Responder = (req: RecordedRequest) => Response | Promise<Response>;

interface Route {
  method: string;
  path: string;
  respond: Responder;
  once: boolean;
}

export const PROJECT_URL = 'https://abcdefghijklmnop.supabase.co';
export const ANON_KEY = 'anon-key-for-tests';

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers } });
}

export class WireStub {
  readonly requests: RecordedRequest[] = [];
  private readonly routes: Route[] = [];

  /** Answers `method path` (path without the query string) with `respond`, every time or once. */
  on(method: string, path: string, respond: Responder | Response | object, opts: { once?: boolean } = {}): this {
    const responder: Responder =
      typeof respond === 'function' ? (respond as Responder) : respond instanceof Response ? () => respond.clone() : () => json(respond);
    // Newest first, so a test can override a default answer.
    this.routes.unshift({ method, path, respond: responder, once: opts.once ?? false });
    return this;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.signal.aborted) throw new DOMException('This operation was aborted', 'AbortError');
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
    let body: unknown = text === '' ? undefined : text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    const recorded: RecordedRequest = { method: request.method, url, path: url.pathname, headers: request.headers, body };
    this.requests.push(recorded);
    const index = this.routes.findIndex((r) => r.method === request.method && r.path === url.pathname);
    const route = this.routes[index];
    if (!route) return json({ message: `no stub for ${request.method} ${url.pathname}` }, 599);
    if (route.once) this.routes.splice(index, 1);
    return route.respond(recorded);
  };

  /** The requests to one path, in order. */
  to(path: string, method?: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path && (!method || r.method === method));
  }

  last(path: string, method?: string): RecordedRequest {
    const all = this.to(path, method);
    const found = all[all.length - 1];
    if (!found) throw new Error(`no request to ${method ?? ''} ${path}; saw ${this.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    return found;
  }

  clear(): void {
    this.requests.length = 0;
  }
}

/** A WebSocket that stays connecting: Realtime can be created in Node 20 and sends nothing. */
export class SilentWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly readyState = 0;
  binaryType = 'arraybuffer';
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: (() => void) | null = null;
  constructor(readonly url: string) {}
  send(): void {}
  close(): void {}
  addEventListener(): void {}
  removeEventListener(): void {}
}

function base64Url(value: unknown): string {
  // The app's own encoder, so the stub works in the browser as well as in Node.
  return toBase64UrlJson(value);
}

/** An access token shaped like GoTrue's (a JWT; the signature is not checked by the client). */
export function accessToken(userId: string, expiresAt: number): string {
  return `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url({ sub: userId, exp: expiresAt, role: 'authenticated', aud: 'authenticated' })}.c2lnbmF0dXJl`;
}

export interface StubUser {
  id: string;
  email: string;
  user_metadata?: Record<string, unknown>;
}

/** The body of `POST /auth/v1/token?grant_type=password` on success, as GoTrue documents it. */
export function tokenResponse(user: StubUser, expiresIn = 3600): Record<string, unknown> {
  const expiresAt = Math.floor(Date.now() / 1000) + expiresIn;
  return {
    access_token: accessToken(user.id, expiresAt),
    token_type: 'bearer',
    expires_in: expiresIn,
    expires_at: expiresAt,
    refresh_token: 'refresh-token-1',
    user: {
      id: user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email: user.email,
      email_confirmed_at: '2024-01-01T00:00:00Z',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: user.user_metadata ?? {},
      created_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
    },
  };
}
