/**
 * purge: runs on a schedule with the service role key. Deletes what must go —
 *   1. items trashed more than 30 days ago, uploads reserved more than 24 hours ago and never finished
 *      ([Note: Pending uploads] in supabase/migrations/20261123120300_pending_uploads.sql) and the items of
 *      deleted albums: their rows, then their objects ([Note: Purging rows and objects] in
 *      supabase/migrations/20261121100500_object_access.sql);
 *   2. multipart uploads started more than 24 hours ago and never finished.
 * Answers { purgedItems, deletedObjects, abortedUploads }; 500 `backend/unreachable` (with the same counts)
 * when something could not be done, which the next run retries.
 */
import type { Env } from '../_shared/config-error.ts';
import { ConfigError } from '../_shared/config-error.ts';
import { type Sql, sqlFromEnv } from '../_shared/database.ts';
import { bearerToken, failure, json, methodNotAllowed } from '../_shared/http.ts';
import { type TokenVerifier, tokenVerifierFromEnv } from '../_shared/jwt.ts';
import { type S3Target, s3FromEnv } from '../_shared/s3-target.ts';
import { abortStaleUploads } from './abort-stale-uploads.ts';
import { asServiceRole, deleteQueuedObjects } from './delete-queued-objects.ts';

export interface PurgeDeps {
  verifyToken: TokenVerifier;
  sql: Sql;
  s3: S3Target;
  now?: () => Date;
  /** Where the app's objects live: unfinished uploads elsewhere in the bucket are not ours to abort. */
  prefix?: string;
  /** Items deleted per transaction. */
  batchItems?: number;
  /** Uploads listed per ListMultipartUploads page. */
  listPageSize?: number;
  /** Stop starting new batches after this long, so a run ends inside the platform's time limit. */
  budgetMs?: number;
}

export function purgeDepsFromEnv(env: Env): PurgeDeps {
  return { verifyToken: tokenVerifierFromEnv(env), sql: sqlFromEnv(env), s3: s3FromEnv(env) };
}

export async function handle(request: Request, deps: PurgeDeps): Promise<Response> {
  if (request.method !== 'POST') return methodNotAllowed();
  const token = bearerToken(request);
  if (!token) return failure(401, 'auth/session-expired', 'The service role key is required.');
  let role: unknown;
  try {
    role = (await deps.verifyToken(token)).role;
  } catch (e) {
    if (e instanceof ConfigError) return failure(500, 'backend/unreachable', 'The sign-in keys could not be read.');
    return failure(401, 'auth/session-expired', 'The service role key is required.');
  }
  if (role !== 'service_role') return failure(403, 'storage/denied', 'Only the service role may purge.');

  const now = deps.now?.() ?? new Date();
  const batch = deps.batchItems ?? 250;
  const deadline = Date.now() + (deps.budgetMs ?? 100_000);
  const counts = { purgedItems: 0, deletedObjects: 0, abortedUploads: 0 };
  let failed = 0;
  try {
    const drain = async () => {
      const out = await deleteQueuedObjects(deps.sql, deps.s3);
      counts.deletedObjects += out.deleted;
      failed += out.failed;
    };
    // Keys an interrupted run left queued go first; then batch by batch: rows first, their objects after.
    await drain();
    while (!failed && Date.now() < deadline) {
      const moved = await asServiceRole(deps.sql, async (tx) =>
        Number((await tx<{ n: number }[]>`select private.purge_expired(${now.toISOString()}::timestamptz, ${batch}) as n`)[0]!.n));
      counts.purgedItems += moved;
      if (moved === 0) break;
      await drain();
      if (moved < batch) break;
    }
    counts.abortedUploads = await abortStaleUploads(deps.s3, now, deps.prefix ?? 'albums/', deps.listPageSize);
  } catch (e) {
    const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    console.error('purge stopped:', err.name, err.$metadata?.httpStatusCode ?? '', err.message ?? e);
    return json(500, { code: 'backend/unreachable', message: 'The purge stopped before it finished; the next run continues.', ...counts });
  }
  if (failed) {
    return json(500, { code: 'backend/unreachable', message: `${failed} objects could not be deleted; the next run retries.`, ...counts });
  }
  return json(200, counts);
}
