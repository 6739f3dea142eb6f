/**
 * HS256 JSON Web Tokens (RFC 7519) with node:crypto: what a Supabase project signs its access tokens and API
 * keys with, and what its REST gateway checks before it runs a query as the token's role.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Claims = Record<string, unknown> & { exp?: number; role?: string; sub?: string };

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function signature(secret: string, signingInput: string): Buffer {
  return createHmac('sha256', secret).update(signingInput).digest();
}

export function signJwt(claims: Claims, secret: string): string {
  const input = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${input}.${signature(secret, input).toString('base64url')}`;
}

/** The verified claims, or why the token is refused (the reason servers put in their error message). */
export type Verified = { ok: true; claims: Claims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

/** `leewaySeconds`: how long after `exp` a token is still taken (clock skew between servers). */
export function verifyJwt(token: string, secret: string, leewaySeconds = 0, nowSeconds = Math.floor(Date.now() / 1000)): Verified {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [header, payload, sig] = parts as [string, string, string];
  let claims: Claims;
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    if (head.alg !== 'HS256') return { ok: false, reason: 'signature' };
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const expected = signature(secret, `${header}.${payload}`);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  if (typeof claims.exp === 'number' && nowSeconds > claims.exp + leewaySeconds) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}
