import { describe, expect, it } from 'vitest';
import { fromBase64UrlJson, toBase64UrlJson } from './base64url-json';

describe('base64url JSON', () => {
  it('round-trips any JSON, non-ASCII included, with URL-safe characters only', () => {
    const value = { t: '2024-05-01T10:00:00.123456+00:00', id: 'é/+?', n: [1, 2] };
    const text = toBase64UrlJson(value);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fromBase64UrlJson(text)).toEqual(value);
  });

  it('reads a JWT payload and refuses what is not base64url JSON', () => {
    expect(fromBase64UrlJson(Buffer.from('{"role":"anon"}').toString('base64url'))).toEqual({ role: 'anon' });
    expect(fromBase64UrlJson('%%%')).toBeUndefined();
    expect(fromBase64UrlJson(Buffer.from('not json').toString('base64url'))).toBeUndefined();
  });
});
