/**
 * The project's own Auth (GoTrue) sends the invitation e-mail, with the service role key, so the mail comes
 * from the project's SMTP settings and templates and no mail provider's secret lives here.
 *
 * [Note: Invitation or magic link]
 * First `POST /auth/v1/invite` (what `auth.admin.inviteUserByEmail` sends): for an address with no account,
 * Auth creates one and sends its "Invite user" mail; for an account that was invited or signed up but never
 * confirmed, it sends the invitation again. Only for a confirmed account does it refuse with `email_exists`,
 * and then `POST /auth/v1/otp` with `create_user: false` (what `signInWithOtp` sends) makes Auth send its
 * "Magic Link" mail. Auth decides who has an account by its own rule, so there is no second copy of that
 * rule here. The admin `generate_link` was not chosen: it returns the link and sends nothing, which would
 * need a mail provider of our own. Both mails lead to `redirect_to` with a session.
 */
import { ConfigError, type Env, required } from '../_shared/config-error.ts';

export interface InviteMail {
  email: string;
  /** Where the mail's link leads once Auth has verified it: the app's `/invite/{token}`. */
  redirectTo: string;
  /** Stored on a new account's user_metadata and offered to the mail template as `.Data`. */
  data: Record<string, string>;
}

export type Sent = 'invite' | 'magic-link';

/** Auth refused the address itself (malformed, or a domain it does not mail): the caller's to correct. */
export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

/** Auth could not send the mail (down, not configured, over its mail rate limit). */
export class MailFailed extends Error {
  override name = 'MailFailed';
}

export type AuthMailer = (mail: InviteMail) => Promise<Sent>;

// Auth's error codes (its `X-Supabase-Api-Version: 2024-01-01` answers) that are about the address.
const ADDRESS_CODES = new Set(['validation_failed', 'email_address_invalid']);
const TIMEOUT_MS = 15_000;

export function authMailerFromEnv(env: Env): AuthMailer {
  const base = required(env, 'SUPABASE_URL');
  const key = required(env, 'SUPABASE_SERVICE_ROLE_KEY');
  let root: URL;
  try {
    root = new URL('/auth/v1/', base);
  } catch {
    throw new ConfigError('SUPABASE_URL is not a URL');
  }

  const post = async (path: 'invite' | 'otp', body: unknown, redirectTo: string) => {
    const url = new URL(path, root);
    url.searchParams.set('redirect_to', redirectTo);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          apikey: key,
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json;charset=UTF-8',
          'X-Supabase-Api-Version': '2024-01-01',
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (e) {
      throw new MailFailed(`Auth could not be reached: ${e instanceof Error ? e.message : e}`);
    }
    const answer = await res.json().catch(() => null) as { code?: unknown; error_code?: unknown; message?: unknown; msg?: unknown } | null;
    // 2024-01-01 answers carry the code in `code`; older ones in `error_code`.
    const code = typeof answer?.code === 'string' ? answer.code : typeof answer?.error_code === 'string' ? answer.error_code : '';
    return { ok: res.ok, status: res.status, code, said: String(answer?.message ?? answer?.msg ?? '') };
  };

  const fail = (what: string, r: { status: number; code: string; said: string }): never => {
    const text = `${what}: ${r.status} ${r.code} ${r.said}`.trim();
    if ((r.status === 400 || r.status === 422) && ADDRESS_CODES.has(r.code)) throw new AddressRefused(text);
    throw new MailFailed(text);
  };

  return async ({ email, redirectTo, data }) => {
    const invited = await post('invite', { email, data }, redirectTo);
    if (invited.ok) return 'invite';
    if (invited.code !== 'email_exists') return fail('Auth invite', invited);
    const linked = await post('otp', { email, create_user: false, data: {} }, redirectTo);
    if (linked.ok) return 'magic-link';
    return fail('Auth magic link', linked);
  };
}
