/**
 * `{ stored: key[] }`: the app says a member's original has sent its last byte; the function looks in the
 * bucket with its own credentials and records the size it finds, so that the upload can be finished
 * ([Note: An upload is finished only once its original is stored] in the migrations).
 *
 *   POST { stored: key[] }  →  { stored: ({ key, bytes } | { key, error })[] }  in order
 *
 * Per key: `storage/denied` unless it is an original the caller may write now (their own upload in progress,
 * as object_access decides), `validation/invalid` when malformed, `upload/interrupted` when the bucket has
 * no object there yet.
 */
import { type Sql, transaction } from '../_shared/database.ts';
import type { Claims } from '../_shared/jwt.ts';
import { parseObjectKey } from '../_shared/object-key.ts';
import type { Presign } from './presign.ts';

export const MAX_STORED = 100;

export type StoredAnswer = { key: unknown; bytes: number } | { key: unknown; error: 'storage/denied' | 'validation/invalid' | 'upload/interrupted' };

export async function recordStored(
  deps: { sql: Sql; presign: Presign },
  claims: Claims,
  keys: unknown[],
  now: Date,
): Promise<StoredAnswer[]> {
  const parsed = keys.map((k) => {
    const key = parseObjectKey(k);
    return key?.file === 'original' ? { key: k as string, itemId: key.itemId } : null;
  });
  const wanted = [...new Set(parsed.flatMap((p) => (p ? [p.key] : [])))];
  const allowed = new Set<string>();
  if (wanted.length) {
    await transaction(deps.sql, async (tx) => {
      await tx`set local role authenticated`;
      await tx`select set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
      const rows = await tx<{ key: string; allowed: boolean }[]>`
        select key, allowed from public.object_access(${tx.array(wanted)}::text[], 'write')`;
      for (const r of rows) if (r.allowed) allowed.add(r.key);
    });
  }
  return await Promise.all(parsed.map(async (p, i): Promise<StoredAnswer> => {
    if (!p) return { key: keys[i], error: 'validation/invalid' };
    if (!allowed.has(p.key)) return { key: p.key, error: 'storage/denied' };
    const head = await deps.presign({ op: 'head', key: p.key }, {}, 60, now);
    const res = await fetch(head.url, { method: head.method, headers: head.headers });
    await res.body?.cancel();
    if (res.status === 404) return { key: p.key, error: 'upload/interrupted' };
    if (!res.ok) throw new Error(`HEAD of an upload answered ${res.status}`);
    const bytes = Number(res.headers.get('content-length'));
    await deps.sql`select private.record_stored(${p.itemId}::uuid, ${bytes})`;
    return { key: p.key, bytes };
  }));
}
