/**
 * share-links: owners and editors make public links and set their passwords. The role check is the
 * database's: `create_share_link` (and `managed_share_link_album`) run as the caller, the verified JWT's
 * subject; the password's PBKDF2 hash (password-hash.ts) is then written in the same transaction with the
 * function's own rights, the only way a hash reaches `share_links.password_hash`.
 *
 *   POST { op: "create", albumId, label?, password?, expiresAt?, allowDownload, allowGuestUpload, maxViews?,
 *          guestMaxFiles?, guestMaxBytes? }          →  200 { link, token }   (the token is shown once)
 *   POST { op: "set-password", linkId, password }   →  200 { link }          (null removes the password)
 *
 * Errors: 401 `auth/session-expired`; 400 `validation/invalid` (with details.field); 404 `album/not-found`;
 * 403 `album/forbidden`; 500 `backend/unreachable`.
 */
import { signedInCaller } from '../_shared/caller.ts';
import type { Env } from '../_shared/config-error.ts';
import { type Sql, sqlFromEnv, transaction, type Tx } from '../_shared/database.ts';
import { ALBUM_REFUSALS, failure, json, methodNotAllowed, preflight, readJsonObject, sqlRefusal } from '../_shared/http.ts';
import { type Claims, type TokenVerifier, tokenVerifierFromEnv } from '../_shared/jwt.ts';
import { hashPassword } from '../_shared/password-hash.ts';
import { type CreateInput, parseRequest } from './share-links-request.ts';
import { readShareLink } from './share-link-row.ts';

export interface ShareLinksDeps {
  verifyToken: TokenVerifier;
  sql: Sql;
  /** PBKDF2 iterations; only tests of other things lower it. */
  iterations?: number;
}

export function shareLinksDepsFromEnv(env: Env): ShareLinksDeps {
  return { verifyToken: tokenVerifierFromEnv(env), sql: sqlFromEnv(env) };
}

const MAX_BODY_BYTES = 16 * 1024;

export async function handle(request: Request, deps: ShareLinksDeps): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight();
  if (request.method !== 'POST') return methodNotAllowed();

  const caller = await signedInCaller(request, deps.verifyToken);
  if (caller instanceof Response) return caller;

  const asked = parseRequest(await readJsonObject(request, MAX_BODY_BYTES));
  if (asked instanceof Response) return asked;

  try {
    if (asked.op === 'create') {
      const hash = asked.password === undefined ? null : await hashPassword(asked.password, deps.iterations);
      const out = await transaction(deps.sql, async (tx) => {
        await actAs(tx, caller);
        const [made] = await tx<{ link_id: string; token: string }[]>`
          select link_id, token from public.create_share_link(${asked.albumId}::uuid, ${tx.json(optionsOf(asked))})`;
        await tx`reset role`;
        if (hash !== null) await tx`update public.share_links set password_hash = ${hash} where id = ${made!.link_id}::uuid`;
        return { link: await readShareLink(tx, made!.link_id), token: made!.token };
      });
      return json(200, out);
    }
    const hash = asked.password === null ? null : await hashPassword(asked.password, deps.iterations);
    const link = await transaction(deps.sql, async (tx) => {
      await actAs(tx, caller);
      await tx`select public.managed_share_link_album(${asked.linkId}::uuid)`;
      await tx`reset role`;
      await tx`update public.share_links set password_hash = ${hash} where id = ${asked.linkId}::uuid`;
      // Visits let in under the old password end with it.
      await tx`delete from public.share_visits where link_id = ${asked.linkId}::uuid`;
      return await readShareLink(tx, asked.linkId);
    });
    return json(200, { link });
  } catch (e) {
    return answerFor(e);
  }
}

/** The role and claims PostgREST would set for the caller. */
async function actAs(tx: Tx, caller: Claims): Promise<void> {
  await tx`set local role authenticated`;
  await tx`select set_config('request.jwt.claims', ${JSON.stringify(caller)}, true)`;
}

function optionsOf(asked: CreateInput): Record<string, string | number | boolean | null> {
  return {
    ...(asked.label === null ? {} : { label: asked.label }),
    // Absent: the database's 30 days; null: never, as the caller chose explicitly.
    ...(asked.expiresAt === undefined ? {} : { expires_at: asked.expiresAt }),
    allow_download: asked.allowDownload,
    allow_guest_upload: asked.allowGuestUpload,
    ...(asked.maxViews === null ? {} : { max_views: asked.maxViews }),
    ...(asked.guestMaxFiles === null ? {} : { guest_max_files: asked.guestMaxFiles }),
    ...(asked.guestMaxBytes === null ? {} : { guest_max_bytes: asked.guestMaxBytes }),
  };
}

function answerFor(e: unknown): Response {
  const refused = sqlRefusal(e, ALBUM_REFUSALS);
  if (refused) return refused;
  console.error('share-links: database', e instanceof Error ? e.message : e);
  return failure(500, 'backend/unreachable', 'The database could not be reached.');
}

