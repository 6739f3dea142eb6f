/**
 * Step 2 of [Note: Purging rows and objects] (supabase/migrations/20261121100500_object_access.sql): deletes
 * the queued keys from the bucket, 1,000 per DeleteObjects, and takes a key off the queue only after the
 * bucket confirmed it. One pass over the queue in key order, so a key that keeps failing does not stop the rest.
 */
import { DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { type Sql, transaction, type Tx } from '../_shared/database.ts';
import type { S3Target } from '../_shared/s3-target.ts';

export interface DeleteOutcome {
  /** Keys the bucket confirmed deleted (S3 also confirms a key that was already gone). */
  deleted: number;
  /** Keys the bucket refused; they stay queued for the next run. */
  failed: number;
}

export const DELETE_BATCH = 1000;

/** Runs `fn` in a transaction as the service role, the only role that may call the purge functions. */
export function asServiceRole<T>(sql: Sql, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return transaction(sql, async (tx) => {
    await tx`set local role service_role`;
    return await fn(tx);
  });
}

export async function deleteQueuedObjects(sql: Sql, s3: S3Target): Promise<DeleteOutcome> {
  const outcome: DeleteOutcome = { deleted: 0, failed: 0 };
  let after = '';
  for (;;) {
    const keys = (await asServiceRole(sql, (tx) =>
      tx<{ key: string }[]>`select k as key from private.purge_next_keys(${after}, ${DELETE_BATCH}) k`)).map((r) => r.key);
    if (keys.length === 0) return outcome;
    after = keys[keys.length - 1]!;

    const out = await s3.client.send(new DeleteObjectsCommand({
      Bucket: s3.bucket,
      Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: false },
    }));
    const gone = new Set((out.Deleted ?? []).flatMap((d) => (d.Key ? [d.Key] : [])));
    for (const e of out.Errors ?? []) {
      if (e.Key && e.Code === 'NoSuchKey') gone.add(e.Key);
      else {
        outcome.failed++;
        console.error('purge: could not delete an object:', e.Code, e.Message);
      }
    }
    if (gone.size) {
      await asServiceRole(sql, (tx) => tx`select private.purge_forget_keys(${tx.array([...gone])}::text[])`);
    }
    outcome.deleted += gone.size;
  }
}
