/**
 * A small HTTP server answering `POST /auth/v1/invite` and `POST /auth/v1/otp` as Supabase Auth documents
 * them (auth-js GoTrueAdminApi.inviteUserByEmail and GoTrueClient.signInWithOtp; answers in the
 * `X-Supabase-Api-Version: 2024-01-01` shape `{ code, message }`), recording every request. Who has an
 * account is read from the test database's auth.users (confirmed, as Auth's own rows would be once signed
 * up); addresses it invited are remembered as invited but unconfirmed, which Auth invites again.
 * Only test files import this.
 */
import type { Sql } from '../_shared/database.ts';

export const SERVICE_ROLE_KEY = `service-role-${crypto.randomUUID()}`;

export interface MailRequest {
  path: string;
  redirectTo: string | null;
  apikey: string | null;
  authorization: string | null;
  body: Record<string, unknown>;
}

export interface GoTrueStub {
  url: string;
  requests: MailRequest[];
  /** What Auth answers instead, for example a mail server that is down. */
  failWith: { status: number; code: string; message: string } | null;
  close(): Promise<void>;
}

// The shape of address Auth accepts (its validateEmail).
const ADDRESS = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const answer = (status: number, body: unknown) =>
  Response.json(body, { status, headers: { 'X-Supabase-Api-Version': '2024-01-01' } });

export function startGoTrueStub(sql: Sql): GoTrueStub {
  const invited = new Set<string>();
  const hasAccount = async (email: string) =>
    (await sql`select 1 from auth.users where lower(email) = lower(${email})`).length > 0;

  const stub: GoTrueStub = {
    url: '',
    requests: [],
    failWith: null,
    close: () => server.shutdown(),
  };
  const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => undefined }, async (req) => {
    const url = new URL(req.url);
    const body = await req.json().catch(() => ({})) as Record<string, unknown>;
    stub.requests.push({
      path: url.pathname,
      redirectTo: url.searchParams.get('redirect_to'),
      apikey: req.headers.get('apikey'),
      authorization: req.headers.get('authorization'),
      body,
    });
    if (req.method !== 'POST') return answer(405, { code: 'method_not_allowed', message: 'Method not allowed' });
    if (req.headers.get('apikey') !== SERVICE_ROLE_KEY) return answer(401, { code: 'no_authorization', message: 'Invalid API key' });
    if (stub.failWith) return answer(stub.failWith.status, { code: stub.failWith.code, message: stub.failWith.message });
    const email = typeof body.email === 'string' ? body.email.toLowerCase() : '';
    if (!ADDRESS.test(email)) {
      return answer(400, { code: 'validation_failed', message: 'Unable to validate email address: invalid format' });
    }

    if (url.pathname === '/auth/v1/invite') {
      // An admin endpoint: the service role's token, not just its key.
      if (req.headers.get('authorization') !== `Bearer ${SERVICE_ROLE_KEY}`) return answer(403, { code: 'not_admin', message: 'User not allowed' });
      if (await hasAccount(email)) return answer(422, { code: 'email_exists', message: 'A user with this email address has already been registered' });
      invited.add(email);
      return answer(200, { id: crypto.randomUUID(), aud: 'authenticated', role: 'authenticated', email, invited_at: new Date().toISOString(), user_metadata: body.data ?? {} });
    }
    if (url.pathname === '/auth/v1/otp') {
      const known = invited.has(email) || await hasAccount(email);
      if (!known && body.create_user === false) return answer(422, { code: 'otp_disabled', message: 'Signups not allowed for otp' });
      return answer(200, {});
    }
    return answer(404, { code: 'not_found', message: 'Not found' });
  });
  stub.url = `http://127.0.0.1:${server.addr.port}`;
  return stub;
}
