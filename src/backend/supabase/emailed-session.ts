/**
 * [Note: Sessions from e-mailed links]
 * An invitation mailed by the project's Auth (invite-email: `inviteUserByEmail` for a new address, a magic
 * link for an existing account) is made on the server, where no PKCE verifier exists, so the link comes back
 * to `/invite/:token` with the session in the fragment (`#access_token=…&refresh_token=…&type=invite`) rather
 * than with a `?code=` to exchange. supabase-js, set to PKCE, refuses such a fragment. The adapter takes it
 * itself before supabase-js starts: the fragment is removed from the address at once (tokens never stay in
 * the history or a shared URL), and the session is adopted with `setSession`, which asks Auth whether the
 * access token is good before keeping it. Only the link types our own mails produce are taken; an error
 * fragment (an expired link) is removed and the visitor signs in as usual.
 */
export interface EmailedSession {
  accessToken: string;
  refreshToken: string;
}

const ADOPTED_TYPES = new Set(['invite', 'magiclink']);

/** Reads and removes the session fragment of an e-mailed link; null when the address carries none. */
export function takeEmailedSession(location: Pick<Location, 'hash' | 'pathname' | 'search'>, replace: (url: string) => void): EmailedSession | null {
  if (!location.hash || location.hash.length < 2) return null;
  const params = new URLSearchParams(location.hash.slice(1));
  const accessToken = params.get('access_token');
  const refreshToken = params.get('refresh_token');
  const isError = params.has('error') || params.has('error_code');
  if (!isError && !(accessToken && refreshToken)) return null;
  replace(`${location.pathname}${location.search}`);
  if (isError || !accessToken || !refreshToken || !ADOPTED_TYPES.has(params.get('type') ?? '')) return null;
  return { accessToken, refreshToken };
}
