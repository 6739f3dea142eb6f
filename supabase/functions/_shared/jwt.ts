/**
 * Verifies Supabase access tokens. With SUPABASE_JWT_SECRET set, tokens are HS256 under that secret (the
 * project's legacy JWT secret); otherwise they are checked against the project's signing keys: the
 * SUPABASE_JWKS the platform provides, else the JWKS published at `${SUPABASE_URL}/auth/v1/.well-known/jwks.json`.
 * Only the algorithms of those keys are accepted, so `alg: none` and a token signed with another key fail.
 */
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { ConfigError, type Env } from './config-error.ts';

export interface Claims extends JWTPayload {
  role?: string;
  email?: string;
}

/** Resolves with the token's claims, or rejects when it is malformed, forged or expired. */
export type TokenVerifier = (token: string) => Promise<Claims>;

const ASYMMETRIC = ['ES256', 'RS256', 'EdDSA'];

export function tokenVerifierFromEnv(env: Env): TokenVerifier {
  const secret = env.SUPABASE_JWT_SECRET?.trim();
  if (secret) {
    const key = new TextEncoder().encode(secret);
    return async (token) => (await jwtVerify<Claims>(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] })).payload;
  }
  const inline = env.SUPABASE_JWKS?.trim();
  if (inline) {
    let set: JSONWebKeySet;
    try {
      set = JSON.parse(inline) as JSONWebKeySet;
    } catch {
      throw new ConfigError('SUPABASE_JWKS is not JSON');
    }
    const keys = createLocalJWKSet(set);
    return async (token) => (await jwtVerify<Claims>(token, keys, { algorithms: ASYMMETRIC, requiredClaims: ['exp'] })).payload;
  }
  const url = env.SUPABASE_URL?.trim();
  if (!url) throw new ConfigError('set SUPABASE_JWT_SECRET, or SUPABASE_URL to verify tokens with the project\'s JWKS');
  const keys = createRemoteJWKSet(new URL('/auth/v1/.well-known/jwks.json', url));
  return async (token) => (await jwtVerify<Claims>(token, keys, { algorithms: ASYMMETRIC, requiredClaims: ['exp'] })).payload;
}
