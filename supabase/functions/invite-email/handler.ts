/**
 * invite-email: the album's owner invites someone by e-mail address. The invitation is made by
 * `public.create_invite` as the caller (the verified JWT's subject), so the database decides who may invite
 * exactly as it does for a link; the project's Auth then mails the link (auth-mail.ts).
 *
 *   POST { albumId, email, role, expiresInDays?, redirectOrigin }  →  200 { invite }
 *
 * The answer is the invitation as its owner lists it, never its token (only the mail carries it), and it is
 * the same whether or not the address has an account. The invitation is bound to the address: only a session
 * with that e-mail can accept it. Errors: 401 `auth/session-expired`; 400 `validation/invalid` (the field in
 * `details`; an origin not in SHOEBOX_SITE_URL among them, so the function cannot mail links to other sites);
 * 404 `album/not-found` (also a stranger); 403 `album/forbidden` (any member but the owner); 429
 * `validation/invalid` with `{ field: 'email', rule: 'too-many' }` past the hourly limit; 502
 * `backend/unreachable` when Auth cannot send the mail, and then no invitation is left behind.
 */
import { signedInCaller } from '../_shared/caller.ts';
import { ConfigError, type Env, required } from '../_shared/config-error.ts';
import { type Sql, sqlFromEnv } from '../_shared/database.ts';
import { ALBUM_REFUSALS, failure, json, methodNotAllowed, preflight, readJsonObject, sqlRefusal } from '../_shared/http.ts';
import { type TokenVerifier, tokenVerifierFromEnv } from '../_shared/jwt.ts';
import { AddressRefused, type AuthMailer, authMailerFromEnv, MailFailed } from './auth-mail.ts';

export interface InviteEmailDeps {
  verifyToken: TokenVerifier;
  sql: Sql;
  sendMail: AuthMailer;
  /** The app's origins, where the mailed links may lead. */
  siteOrigins: readonly string[];
  /** E-mail invitations one album may send in an hour. */
  hourlyLimit: number;
}

export const DEFAULT_HOURLY_LIMIT = 20;
const MAX_BODY_BYTES = 16 * 1024;
const MAX_DAYS = 365;
const ROLES = ['editor', 'contributor', 'viewer'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The rule of the invites table's check constraint.
const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function inviteEmailDepsFromEnv(env: Env): InviteEmailDeps {
  const raw = env.INVITE_EMAIL_HOURLY_LIMIT?.trim();
  const hourlyLimit = raw ? Number(raw) : DEFAULT_HOURLY_LIMIT;
  if (!Number.isInteger(hourlyLimit) || hourlyLimit < 1) throw new ConfigError('INVITE_EMAIL_HOURLY_LIMIT must be a whole number');
  return {
    verifyToken: tokenVerifierFromEnv(env),
    sql: sqlFromEnv(env),
    sendMail: authMailerFromEnv(env),
    siteOrigins: siteOriginsOf(required(env, 'SHOEBOX_SITE_URL')),
    hourlyLimit,
  };
}

/** SHOEBOX_SITE_URL: the app's origins, comma-separated (`https://photos.example.org,http://localhost:5173`). */
export function siteOriginsOf(value: string): string[] {
  return value.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      throw new ConfigError(`SHOEBOX_SITE_URL: ${s} is not a URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`SHOEBOX_SITE_URL: ${s} is not http(s)`);
    return url.origin;
  });
}

interface Asked {
  albumId: string;
  email: string;
  role: (typeof ROLES)[number];
  expiresInDays: number | null;
  origin: string;
}

interface InviteRow {
  id: string;
  album_id: string;
  role: string;
  email: string | null;
  expires_at: Date;
  max_uses: number | null;
  use_count: number;
  created_by: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

/** Thrown inside the transaction to roll it back with an answer. */
class Answer extends Error {
  constructor(readonly response: Response) {
    super('answer');
  }
}

const invalid = (field: string, message: string, rule = 'invalid') =>
  failure(400, 'validation/invalid', message, {}, { field, rule });

export async function handle(request: Request, deps: InviteEmailDeps): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight();
  if (request.method !== 'POST') return methodNotAllowed();

  const caller = await signedInCaller(request, deps.verifyToken);
  if (caller instanceof Response) return caller;

  const asked = parse(await readJsonObject(request, MAX_BODY_BYTES), deps.siteOrigins);
  if (asked instanceof Response) return asked;

  try {
    const invite = await deps.sql.begin(async (tx) => {
      await tx`set local role authenticated`;
      await tx`select set_config('request.jwt.claims', ${JSON.stringify(caller)}, true)`;
      const expiresAt = asked.expiresInDays === null ? null : new Date(Date.now() + asked.expiresInDays * 86_400_000);
      const [created] = await tx<{ invite_id: string; token: string }[]>`
        select invite_id, token from public.create_invite(${asked.albumId}::uuid, ${asked.role}::text, ${asked.email}::text, ${expiresAt}::timestamptz, null::int)`;
      // Counted after create_invite, which has already refused anyone but the owner (who alone reads invites).
      const [sent] = await tx<{ n: number }[]>`
        select count(*)::int as n from public.invites
        where album_id = ${asked.albumId}::uuid and email is not null and created_at > now() - interval '1 hour'`;
      if (sent!.n > deps.hourlyLimit) {
        throw new Answer(failure(429, 'validation/invalid', `At most ${deps.hourlyLimit} invitations by e-mail an hour for one album.`,
          { 'Retry-After': '3600' }, { field: 'email', rule: 'too-many', limit: deps.hourlyLimit }));
      }
      const [named] = await tx<{ title: string; inviter: string }[]>`
        select a.title, coalesce((select p.display_name from public.profiles p where p.id = ${caller.sub}::uuid), '') as inviter
        from public.albums a where a.id = ${asked.albumId}::uuid`;
      // The mail goes out before the invitation is committed: when it cannot be sent, nothing is left behind.
      await deps.sendMail({
        email: asked.email,
        redirectTo: `${asked.origin}/invite/${created!.token}`,
        data: { album_title: named?.title ?? '', inviter_name: named?.inviter ?? '' },
      });
      const [row] = await tx<InviteRow[]>`
        select id, album_id, role, email, expires_at, max_uses, use_count, created_by, created_at, revoked_at
        from public.invites where id = ${created!.invite_id}::uuid`;
      return row!;
    });
    return json(200, { invite: toInvite(invite) });
  } catch (e) {
    return answerFor(e);
  }
}

function answerFor(e: unknown): Response {
  if (e instanceof Answer) return e.response;
  if (e instanceof AddressRefused) {
    console.error('invite-email: auth refused the address:', e.message);
    return invalid('email', 'This e-mail address cannot receive invitations.');
  }
  if (e instanceof MailFailed) {
    console.error('invite-email: mail', e.message);
    return failure(502, 'backend/unreachable', 'The invitation could not be mailed.');
  }
  const refused = sqlRefusal(e, ALBUM_REFUSALS);
  if (refused) return refused;
  console.error('invite-email: database', e instanceof Error ? e.message : e);
  return failure(500, 'backend/unreachable', 'The database could not be reached.');
}


function parse(body: Record<string, unknown> | null, origins: readonly string[]): Asked | Response {
  if (!body) return failure(400, 'validation/invalid', 'Send { albumId, email, role, expiresInDays?, redirectOrigin }.');
  const { albumId, email, role, expiresInDays, redirectOrigin } = body;
  if (typeof albumId !== 'string' || !UUID.test(albumId)) return invalid('albumId', 'albumId is not an album id.');
  const address = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (!address) return invalid('email', 'Give an e-mail address.', 'empty');
  if (address.length > 320) return invalid('email', 'An e-mail address has at most 320 characters.', 'too-long');
  if (!EMAIL.test(address)) return invalid('email', 'This is not an e-mail address.');
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) return invalid('role', 'Invite as editor, contributor or viewer.');
  if (expiresInDays !== undefined && expiresInDays !== null &&
    (typeof expiresInDays !== 'number' || !Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > MAX_DAYS)) {
    return invalid('expiresInDays', `An invitation lasts 1 to ${MAX_DAYS} days.`);
  }
  // Compared as written: `https://app.example/` or `https://app.example.evil.test` is not `https://app.example`.
  if (typeof redirectOrigin !== 'string' || !origins.includes(redirectOrigin)) {
    return invalid('redirectOrigin', 'Invitations lead only to the sites this project names.');
  }
  return {
    albumId: albumId.toLowerCase(),
    email: address,
    role: role as Asked['role'],
    expiresInDays: typeof expiresInDays === 'number' ? expiresInDays : null,
    origin: redirectOrigin,
  };
}

function toInvite(r: InviteRow) {
  return {
    id: r.id,
    albumId: r.album_id,
    role: r.role,
    email: r.email,
    expiresAt: r.expires_at.toISOString(),
    maxUses: r.max_uses,
    useCount: r.use_count,
    createdBy: r.created_by,
    createdAt: r.created_at.toISOString(),
    revokedAt: r.revoked_at?.toISOString() ?? null,
  };
}
