/**
 * storage-sign: presigned S3 requests for buckets other than Supabase Storage, whose secret must stay on
 * the server. The caller is the verified JWT's subject (never a user id from the body); what they may do
 * to each key is asked of public.object_access in one transaction as that user, so the same rules as the
 * storage.objects policies decide.
 *
 *   POST { requests: SignRequest[] }  →  { expiresAt, results: (SignedRequest | { error })[] }  in order
 *   POST { stored: key[] }             →  { stored: ... }  (stored.ts: an upload has sent its last byte)
 *
 * Per request: `storage/denied` when the caller may not (a non-member learns nothing more),
 * `validation/invalid` when malformed, `upload/unsupported` when an upload asks for a type the object may not
 * be stored with, `upload/too-large` for a sidecar over 2 MiB (content-safety.ts). Whole call: 401
 * `auth/session-expired`, 400 `validation/invalid`, 405, 500 `backend/unreachable`.
 */
import { ConfigError, type Env } from '../_shared/config-error.ts';
import { type Sql, sqlFromEnv, transaction } from '../_shared/database.ts';
import { signedInCaller } from '../_shared/caller.ts';
import { failure, json, methodNotAllowed, preflight, readJsonObject } from '../_shared/http.ts';
import { type Claims, type TokenVerifier, tokenVerifierFromEnv } from '../_shared/jwt.ts';
import { s3SettingsFromEnv } from '../_shared/s3-target.ts';
import { mayStore, signedLength } from './content-safety.ts';
import { type ItemRow, overridesFor } from './overrides.ts';
import { createPresigner, type Presign, type SignedRequest } from './presign.ts';
import { ACTION_OF, MAX_REQUESTS, type ParsedRequest, parseSignRequest } from './sign-request.ts';
import { MAX_STORED, recordStored } from './stored.ts';

export interface SignDeps {
  verifyToken: TokenVerifier;
  sql: Sql;
  presign: Presign;
  /** Lifetime of the URLs in seconds, at most 3600. */
  expiresIn: number;
  now?: () => Date;
}

export const MAX_EXPIRES_IN = 3600;
const MAX_BODY_BYTES = 1024 * 1024;

export function signDepsFromEnv(env: Env): SignDeps {
  const raw = env.STORAGE_SIGN_EXPIRES_IN?.trim();
  const seconds = raw ? Number(raw) : MAX_EXPIRES_IN;
  if (!Number.isInteger(seconds) || seconds < 1) throw new ConfigError('STORAGE_SIGN_EXPIRES_IN must be a whole number of seconds');
  return {
    verifyToken: tokenVerifierFromEnv(env),
    sql: sqlFromEnv(env),
    presign: createPresigner(s3SettingsFromEnv(env)),
    expiresIn: Math.min(seconds, MAX_EXPIRES_IN),
  };
}

type Result = SignedRequest | { error: 'storage/denied' | 'validation/invalid' | 'upload/unsupported' | 'upload/too-large' };

export async function handle(request: Request, deps: SignDeps): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight();
  if (request.method !== 'POST') return methodNotAllowed();

  const claims = await signedInCaller(request, deps.verifyToken);
  if (claims instanceof Response) return claims;

  const raw = await readJsonObject(request, MAX_BODY_BYTES);
  if (Array.isArray(raw?.stored) && raw.stored.length >= 1 && raw.stored.length <= MAX_STORED) {
    try {
      return json(200, { stored: await recordStored(deps, claims, raw.stored, deps.now?.() ?? new Date()) });
    } catch (e) {
      console.error('storage-sign: stored', e instanceof Error ? e.message : e);
      return failure(500, 'backend/unreachable', 'The database or the storage service could not be reached.');
    }
  }
  const body = requestsOf(raw);
  if (!body) return failure(400, 'validation/invalid', `Send { "requests": [...] } with 1 to ${MAX_REQUESTS} requests, or { "stored": [...] } with 1 to ${MAX_STORED} keys.`);
  const parsed = body.map(parseSignRequest);

  let allowed: boolean[];
  let items: Map<string, ItemRow>;
  try {
    ({ allowed, items } = await askDatabase(deps.sql, claims, parsed));
  } catch (e) {
    console.error('storage-sign: database', e instanceof Error ? e.message : e);
    return failure(500, 'backend/unreachable', 'The database could not be reached.');
  }

  const now = deps.now?.() ?? new Date();
  try {
    const results = await Promise.all(parsed.map((p, i): Promise<Result> | Result => {
      if (!p) return { error: 'validation/invalid' };
      if (!allowed[i]) return { error: 'storage/denied' };
      if ((p.request.op === 'put' || p.request.op === 'create') && !mayStore(p.key.file, p.request.contentType)) return { error: 'upload/unsupported' };
      const length = signedLength(p.key.file, p.request);
      if (typeof length === 'string') return { error: length };
      const overrides = overridesFor(p, items.get(p.key.itemId));
      return deps.presign(p.request, length === null ? overrides : { ...overrides, contentLength: length }, deps.expiresIn, now);
    }));
    return json(200, { expiresAt: new Date(now.getTime() + deps.expiresIn * 1000).toISOString(), results });
  } catch (e) {
    console.error('storage-sign: presign', e instanceof Error ? e.message : e);
    return failure(500, 'backend/unreachable', 'The storage service is not configured correctly.');
  }
}

function requestsOf(body: Record<string, unknown> | null): unknown[] | null {
  const requests = body?.requests;
  if (!Array.isArray(requests) || requests.length < 1 || requests.length > MAX_REQUESTS) return null;
  return requests;
}

/**
 * One transaction as the caller: the role and JWT claims PostgREST would set, then object_access per
 * action, and the rows of the items whose originals are up- or downloaded (their type decides the headers).
 */
async function askDatabase(sql: Sql, claims: Claims, parsed: (ParsedRequest | null)[]) {
  const byAction = new Map<string, string[]>();
  for (const p of parsed) {
    if (!p) continue;
    const action = ACTION_OF[p.request.op];
    byAction.set(action, [...(byAction.get(action) ?? []), p.request.key]);
  }
  const originals = [...new Set(parsed.flatMap((p) =>
    p && p.key.file === 'original' && ['put', 'create', 'get'].includes(p.request.op) ? [p.key.itemId] : []))];

  return await transaction(sql, async (tx) => {
    await tx`set local role authenticated`;
    await tx`select set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
    const answers = new Map<string, Map<string, boolean>>();
    for (const [action, keys] of byAction) {
      const rows = await tx<{ key: string; allowed: boolean }[]>`
        select key, allowed from public.object_access(${tx.array([...new Set(keys)])}::text[], ${action})`;
      answers.set(action, new Map(rows.map((r) => [r.key, r.allowed])));
    }
    const items = new Map<string, ItemRow>();
    if (originals.length) {
      const rows = await tx<ItemRow[]>`
        select id::text as id, mime, filename from public.items where id = any (${tx.array(originals)}::uuid[])`;
      for (const r of rows) items.set(r.id, r);
    }
    const allowed = parsed.map((p) => !!p && answers.get(ACTION_OF[p.request.op])?.get(p.request.key) === true);
    return { allowed, items };
  });
}
