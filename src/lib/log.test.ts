import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from './app-error';
import { log } from './log';

const PRESIGNED =
  'https://bucket.s3.example.com/albums/a/items/i/original?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20261121&X-Amz-Signature=deadbeef&X-Amz-Security-Token=SESSIONTOKEN';
const SECRETS = ['X-Amz-Signature', 'deadbeef', 'SESSIONTOKEN', 'AKIAEXAMPLE', 'apikey=', 'access_token'];

/** Everything the console received, as the text a person reading the log would see. */
function printed(spy: { mock: { calls: unknown[][] } }): string {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): string => {
    if (typeof v === 'string') return v;
    if (v === null || typeof v !== 'object') return String(v);
    if (seen.has(v)) return '';
    seen.add(v);
    const parts: string[] = [];
    for (const key of Reflect.ownKeys(v)) parts.push(String(key), walk((v as Record<PropertyKey, unknown>)[key]));
    if (v instanceof Error) parts.push(v.name, v.message, v.stack ?? '', walk(v.cause));
    return parts.join(' ');
  };
  return spy.mock.calls.map((args) => args.map(walk).join(' ')).join('\n');
}

describe('log', () => {
  let error: ReturnType<typeof vi.spyOn>;
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    error = vi.spyOn(console, 'error').mockImplementation(() => {});
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('logs a presigned URL in a message without its query string', () => {
    log.warn(`Upload failed: PUT ${PRESIGNED} answered 403`);
    const text = printed(warn);
    expect(text).toContain('https://bucket.s3.example.com/albums/a/items/i/original');
    for (const s of SECRETS) expect(text).not.toContain(s);
  });

  it('strips the query string inside an error message, its stack and a nested cause', () => {
    const fetchFailure = new TypeError(`Failed to fetch ${PRESIGNED}`);
    const wrapped = new Error(`Part 3 of ${PRESIGNED} failed`, { cause: { url: PRESIGNED, inner: fetchFailure } });
    const appError = new AppError('backend/unreachable', 'The server could not be reached.', { cause: wrapped });
    log.error('Upload failed', appError);
    const text = printed(error);
    expect(text).toContain('Upload failed');
    expect(text).toContain('Part 3 of https://bucket.s3.example.com/albums/a/items/i/original failed');
    expect(text).toContain('Failed to fetch https://bucket.s3.example.com/albums/a/items/i/original');
    for (const s of SECRETS) expect(text).not.toContain(s);
  });

  it('strips a realtime socket URL and a URL in an object, and survives a cycle', () => {
    const ctx: Record<string, unknown> = { socket: 'wss://ref.supabase.co/realtime/v1/websocket?apikey=anon&access_token=jwt&vsn=1.0.0' };
    ctx.self = ctx;
    log.error(ctx);
    const text = printed(error);
    expect(text).toContain('wss://ref.supabase.co/realtime/v1/websocket');
    for (const s of SECRETS) expect(text).not.toContain(s);
  });

  it('keeps what helps: the error name, code and message without a URL', () => {
    log.error(new AppError('storage/denied', 'Storage refused the request.'));
    const logged = error.mock.calls[0]?.[0];
    expect(logged).toBeInstanceOf(Error);
    expect((logged as Error).message).toBe('Storage refused the request.');
    expect((logged as { code?: string }).code).toBe('storage/denied');
  });
});
