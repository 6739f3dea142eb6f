/** The signed-in user a function acts for: the verified JWT of `Authorization: Bearer …`, never the body. */
import { ConfigError } from './config-error.ts';
import { bearerToken, failure } from './http.ts';
import type { Claims, TokenVerifier } from './jwt.ts';

/** The caller's claims, or the response to answer with: 401 `auth/session-expired`, or 500 when the keys cannot be read. */
export async function signedInCaller(request: Request, verifyToken: TokenVerifier): Promise<Claims & { sub: string } | Response> {
  const expired = () => failure(401, 'auth/session-expired', 'Sign in again.');
  const token = bearerToken(request);
  if (!token) return expired();
  let claims: Claims;
  try {
    claims = await verifyToken(token);
  } catch (e) {
    if (e instanceof ConfigError) return failure(500, 'backend/unreachable', 'The sign-in keys could not be read.');
    return expired();
  }
  // The anon key is a valid token too, but of nobody: only a signed-in user's session counts.
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string') return expired();
  return claims as Claims & { sub: string };
}
