/**
 * The GoTrue (Supabase Auth) endpoints the Supabase adapter calls, served from the test database: users in
 * auth.users with a bcrypt hash (pgcrypto's crypt, as GoTrue stores them), sessions and rotating refresh
 * tokens in auth.sessions and auth.refresh_tokens, HS256 access tokens. The project it stands for has email
 * confirmation turned off, so sign-up answers with a session. Request and response shapes follow
 *   https://github.com/supabase/auth/blob/master/README.md (the endpoints and their bodies)
 *   https://supabase.com/docs/guides/auth/debugging/error-codes (error codes and statuses)
 *   https://github.com/supabase/auth/blob/master/internal/api/errors.go (the error body per API version)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Harness } from '../db-harness';
import { signJwt, verifyJwt, type Claims } from './jwt-hs256';
import { bearerToken, emptyResponse, jsonResponse, type WireRequest } from './wire-http';

/** The columns and tables of GoTrue's own schema that the endpoints below use, added to the fixture's auth.users. */
export const GOTRUE_SCHEMA_SQL = `
alter table auth.users
  add column if not exists encrypted_password text,
  add column if not exists email_confirmed_at timestamptz,
  add column if not exists last_sign_in_at timestamptz,
  add column if not exists raw_app_meta_data jsonb not null default '{}'::jsonb,
  add column if not exists updated_at timestamptz not null default now();
create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);
create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token text not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  parent text,
  revoked boolean not null default false,
  created_at timestamptz not null default now()
);`;

const API_VERSION_HEADER = 'X-Supabase-Api-Version';
const API_VERSION_2024 = '2024-01-01';
const MIN_PASSWORD_LENGTH = 6;

/** A refusal as GoTrue words it: HTTP status, error code and message (and extra fields such as weak_password). */
class AuthRefusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly extra: Record<string, unknown> = {},
  ) {}
}

/** Clients that send the 2024-01-01 API version get `{code, message}`; older ones `{code: status, error_code, msg}`. */
function refusalResponse(req: WireRequest, e: AuthRefusal): Response {
  const version = req.headers.get(API_VERSION_HEADER);
  if (version && version >= API_VERSION_2024) {
    return jsonResponse({ code: e.code, message: e.message, ...e.extra }, e.status, { [API_VERSION_HEADER]: API_VERSION_2024 });
  }
  return jsonResponse({ code: e.status, error_code: e.code, msg: e.message, ...e.extra }, e.status);
}

const invalidCredentials = () => new AuthRefusal(400, 'invalid_credentials', 'Invalid login credentials');

function validEmail(value: unknown): string {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new AuthRefusal(400, 'validation_failed', 'Unable to validate email address: invalid format');
  return email;
}

function strongPassword(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new AuthRefusal(400, 'validation_failed', 'Signup requires a valid password');
  if ([...value].length < MIN_PASSWORD_LENGTH) {
    throw new AuthRefusal(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, { weak_password: { reasons: ['length'] } });
  }
  return value;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AuthRefusal(400, 'bad_json', 'Could not parse request body as JSON');
  return body as Record<string, unknown>;
}

type UserJson = Record<string, unknown> & { id: string; email: string | null; app_metadata: unknown; user_metadata: unknown };

const USER_JSON_SQL = `
select json_build_object(
  'id', u.id, 'aud', 'authenticated', 'role', 'authenticated', 'email', u.email, 'phone', '',
  'email_confirmed_at', u.email_confirmed_at, 'confirmed_at', u.email_confirmed_at, 'last_sign_in_at', u.last_sign_in_at,
  'app_metadata', u.raw_app_meta_data, 'user_metadata', u.raw_user_meta_data,
  'created_at', u.created_at, 'updated_at', u.updated_at, 'is_anonymous', false
)::text as "user"
from auth.users u where u.id = $1`;

export interface GoTrueOptions {
  db: Harness;
  jwtSecret: string;
  /** The `iss` of access tokens: the project's auth URL. */
  issuer: string;
  accessTokenSeconds?: number;
}

export class GoTrueEmulator {
  private readonly expiresIn: number;

  constructor(private readonly opts: GoTrueOptions) {
    this.expiresIn = opts.accessTokenSeconds ?? 3600;
  }

  /** Answers a request to `/auth/v1/<path>`, or null when GoTrue has no such route. */
  async handle(req: WireRequest, path: string): Promise<Response | null> {
    const route = `${req.method} ${path}`;
    try {
      switch (route) {
        case 'POST /signup':
          return await this.signUp(req);
        case 'POST /token':
          return await this.token(req);
        case 'GET /user':
          return jsonResponse(await this.user((await this.session(req)).sub));
        case 'PUT /user':
          return await this.updateUser(req);
        case 'POST /logout':
          return await this.logout(req);
        default:
          return null;
      }
    } catch (e) {
      if (e instanceof AuthRefusal) return refusalResponse(req, e);
      throw e;
    }
  }

  private async user(id: string): Promise<UserJson> {
    const [row] = await this.opts.db.query<{ user: string }>(USER_JSON_SQL, [id]);
    if (!row) throw new AuthRefusal(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return JSON.parse(row.user) as UserJson;
  }

  /** A new session with its first refresh token, and the token response that carries both. */
  private async startSession(userId: string): Promise<Response> {
    const sessionId = randomUUID();
    const refreshToken = randomBytes(9).toString('base64url');
    await this.opts.db.query(
      `with s as (insert into auth.sessions (id, user_id) values ($1, $2) returning id, user_id)
       insert into auth.refresh_tokens (token, user_id, session_id) select $3, user_id, id from s`,
      [sessionId, userId, refreshToken],
    );
    return this.tokenResponse(userId, sessionId, refreshToken, 'password');
  }

  private async tokenResponse(userId: string, sessionId: string, refreshToken: string, method: string): Promise<Response> {
    const user = await this.user(userId);
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = now + this.expiresIn;
    const claims: Claims = {
      aud: 'authenticated',
      exp: expiresAt,
      iat: now,
      iss: this.opts.issuer,
      sub: user.id,
      email: user.email,
      phone: '',
      app_metadata: user.app_metadata,
      user_metadata: user.user_metadata,
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method, timestamp: now }],
      session_id: sessionId,
      is_anonymous: false,
    };
    return jsonResponse({
      access_token: signJwt(claims, this.opts.jwtSecret),
      token_type: 'bearer',
      expires_in: this.expiresIn,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user,
    });
  }

  private async signUp(req: WireRequest): Promise<Response> {
    const body = objectBody(req.body);
    const email = validEmail(body.email);
    const password = strongPassword(body.password);
    const data = body.data && typeof body.data === 'object' && !Array.isArray(body.data) ? body.data : {};
    // Inserting into auth.users fires the project's own triggers (the profile), as on a real project.
    const [created] = await this.opts.db.query<{ id: string }>(
      `insert into auth.users (id, email, encrypted_password, raw_user_meta_data, raw_app_meta_data, email_confirmed_at, last_sign_in_at)
       select $1, $2, extensions.crypt($3, extensions.gen_salt('bf')), $4::jsonb, '{"provider":"email","providers":["email"]}'::jsonb, now(), now()
       where not exists (select 1 from auth.users where lower(email) = $2)
       returning id`,
      [randomUUID(), email, password, JSON.stringify(data)],
    );
    if (!created) throw new AuthRefusal(422, 'user_already_exists', 'User already registered');
    return this.startSession(created.id);
  }

  private async token(req: WireRequest): Promise<Response> {
    const grant = req.url.searchParams.get('grant_type');
    const body = objectBody(req.body);
    if (grant === 'password') {
      if (typeof body.email !== 'string' || typeof body.password !== 'string') throw invalidCredentials();
      const [user] = await this.opts.db.query<{ id: string }>(
        `update auth.users set last_sign_in_at = now()
         where lower(email) = lower($1) and encrypted_password is not null and encrypted_password = extensions.crypt($2, encrypted_password)
         returning id`,
        [body.email.trim(), body.password],
      );
      if (!user) throw invalidCredentials();
      return this.startSession(user.id);
    }
    if (grant === 'refresh_token') {
      const old = typeof body.refresh_token === 'string' ? body.refresh_token : '';
      const next = randomBytes(9).toString('base64url');
      // Rotation: the token used is revoked and its successor issued in one statement.
      const [rotated] = await this.opts.db.query<{ user_id: string; session_id: string }>(
        `with old as (update auth.refresh_tokens set revoked = true where token = $1 and not revoked returning user_id, session_id, token)
         insert into auth.refresh_tokens (token, user_id, session_id, parent) select $2, user_id, session_id, token from old
         returning user_id, session_id`,
        [old, next],
      );
      if (!rotated) {
        const [known] = await this.opts.db.query(`select 1 from auth.refresh_tokens where token = $1`, [old]);
        throw known
          ? new AuthRefusal(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used')
          : new AuthRefusal(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
      }
      return this.tokenResponse(rotated.user_id, rotated.session_id, next, 'token_refresh');
    }
    return jsonResponse({ error: 'unsupported_grant_type', error_description: 'unsupported_grant_type' }, 400);
  }

  /** The caller's verified access token, whose session must still exist. */
  private async session(req: WireRequest): Promise<{ sub: string; sessionId: string }> {
    const token = bearerToken(req.headers);
    if (!token) throw new AuthRefusal(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
    const verified = verifyJwt(token, this.opts.jwtSecret);
    if (!verified.ok) {
      const why = verified.reason === 'expired' ? 'token has invalid claims: token is expired' : 'signature is invalid';
      throw new AuthRefusal(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${why}`);
    }
    const { sub, session_id: sessionId } = verified.claims;
    if (typeof sub !== 'string' || typeof sessionId !== 'string') throw new AuthRefusal(403, 'bad_jwt', 'invalid claim: missing sub claim');
    const [live] = await this.opts.db.query(`select 1 from auth.sessions where id = $1 and user_id = $2`, [sessionId, sub]);
    if (!live) throw new AuthRefusal(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');
    return { sub, sessionId };
  }

  private async updateUser(req: WireRequest): Promise<Response> {
    const { sub } = await this.session(req);
    const body = objectBody(req.body);
    if (body.password !== undefined) {
      const password = strongPassword(body.password);
      const [same] = await this.opts.db.query(`select 1 from auth.users where id = $1 and encrypted_password = extensions.crypt($2, encrypted_password)`, [sub, password]);
      if (same) throw new AuthRefusal(422, 'same_password', 'New password should be different from the old password.');
      await this.opts.db.query(`update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf')), updated_at = now() where id = $1`, [sub, password]);
    }
    if (body.email !== undefined) {
      const email = validEmail(body.email);
      const [taken] = await this.opts.db.query(`select 1 from auth.users where lower(email) = $1 and id <> $2`, [email, sub]);
      if (taken) throw new AuthRefusal(422, 'email_exists', 'A user with this email address has already been registered');
      // Email confirmation is off for this project: the change applies at once.
      await this.opts.db.query(`update auth.users set email = $2, updated_at = now() where id = $1`, [sub, email]);
    }
    if (body.data !== undefined) {
      if (!body.data || typeof body.data !== 'object' || Array.isArray(body.data)) throw new AuthRefusal(400, 'validation_failed', 'data must be an object');
      // Top-level keys merge into user_metadata; a null value removes its key.
      await this.opts.db.query(
        `update auth.users set updated_at = now(), raw_user_meta_data = (
           select coalesce(jsonb_object_agg(k, v), '{}'::jsonb) from jsonb_each(raw_user_meta_data || $2::jsonb) as e(k, v) where v <> 'null'::jsonb)
         where id = $1`,
        [sub, JSON.stringify(body.data)],
      );
    }
    return jsonResponse(await this.user(sub));
  }

  private async logout(req: WireRequest): Promise<Response> {
    const { sub, sessionId } = await this.session(req);
    const scope = req.url.searchParams.get('scope') ?? 'global';
    if (scope === 'local') await this.opts.db.query(`delete from auth.sessions where id = $1`, [sessionId]);
    else if (scope === 'others') await this.opts.db.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [sub, sessionId]);
    else if (scope === 'global') await this.opts.db.query(`delete from auth.sessions where user_id = $1`, [sub]);
    else throw new AuthRefusal(400, 'validation_failed', `Unsupported logout scope "${scope}"`);
    return emptyResponse(204);
  }
}
