/**
 * A guest's objects in the bucket: presigned requests for the keys of their own items (storage-sign's
 * protocol and rules of types, with the guest's items in place of a member's rights), the thumbnails of
 * "Your uploads", and the deletion of the objects of the items they take back.
 */
import type { Sql, Tx } from '../_shared/database.ts';
import { mayStore, signedLength as sidecarLength } from '../storage-sign/content-safety.ts';
import { type ItemRow, overridesFor } from '../storage-sign/overrides.ts';
import type { Presign, SignedRequest } from '../storage-sign/presign.ts';
import { ACTION_OF, type ParsedRequest, parseSignRequest } from '../storage-sign/sign-request.ts';

type Refusal = 'storage/denied' | 'validation/invalid' | 'upload/unsupported' | 'upload/integrity' | 'upload/too-large';
type Result = SignedRequest | { error: Refusal };
type GuestItemRow = ItemRow & { bytes: number };

/** A thumbnail, preview or poster is never near this: the app makes them at most 2,048 pixels wide as WebP. */
const MAX_DERIVED_BYTES = 16 * 1024 * 1024;

/**
 * Per request, as storage-sign answers: `storage/denied` unless the key is an object of one of this guest's
 * items, and for writes that item is still uploading. A guest never signs a delete: taking an item back is
 * the `delete` op, which removes the row and every object together.
 */
export async function signForGuest(
  tx: Tx,
  deps: { presign: Presign },
  a: { linkId: string; guest: string; requests: unknown[]; expiresIn: number; now: Date },
): Promise<{ expiresAt: string; results: Result[] }> {
  const parsed = a.requests.map(parseSignRequest);
  const answers = new Map<string, Map<string, { allowed: boolean; item: GuestItemRow | undefined }>>();
  for (const action of ['read', 'write'] as const) {
    const keys = [...new Set(parsed.flatMap((p) => (p && ACTION_OF[p.request.op] === action ? [p.request.key] : [])))];
    if (!keys.length) continue;
    const rows = await tx<{ key: string; allowed: boolean; item_id: string | null; mime: string | null; filename: string | null; bytes: string | null }[]>`
      select key, allowed, item_id::text, mime, filename, bytes::text
      from private.guest_keys(${a.linkId}::uuid, ${a.guest}, ${tx.array(keys)}::text[], ${action})`;
    answers.set(action, new Map(rows.map((r) => [r.key, {
      allowed: r.allowed,
      item: r.item_id ? { id: r.item_id, mime: r.mime!, filename: r.filename!, bytes: Number(r.bytes) } : undefined,
    }])));
  }
  const partSizes = await partSizesOf(tx, a, parsed, answers.get('write'));
  const results = await Promise.all(parsed.map((p: ParsedRequest | null): Promise<Result> | Result => {
    if (!p) return { error: 'validation/invalid' };
    const action = ACTION_OF[p.request.op];
    const answer = action === 'delete' ? undefined : answers.get(action)?.get(p.request.key);
    if (!answer?.allowed || !answer.item) return { error: 'storage/denied' };
    if ((p.request.op === 'put' || p.request.op === 'create') && !mayStore(p.key.file, p.request.contentType)) return { error: 'upload/unsupported' };
    const length = signedLength(p, answer.item, partSizes.get(answer.item.id));
    if (typeof length === 'string') return { error: length };
    return deps.presign(p.request, { ...overridesFor(p, answer.item), ...(length === null ? {} : { contentLength: length }) }, a.expiresIn, a.now);
  }));
  return { expiresAt: new Date(a.now.getTime() + a.expiresIn * 1000).toISOString(), results };
}

/**
 * The part size of each item whose parts are asked for, fixed by its first part (see [Note: A guest's upload
 * is signed at the size it was reserved at]); null where the item is not the guest's upload in progress.
 */
async function partSizesOf(
  tx: Tx,
  a: { linkId: string; guest: string },
  parsed: (ParsedRequest | null)[],
  writable: Map<string, { allowed: boolean; item: GuestItemRow | undefined }> | undefined,
): Promise<Map<string, number | null>> {
  const asked = new Map<string, number>();
  for (const p of parsed) {
    const item = p && writable?.get(p.request.key)?.item;
    if (p?.request.op === 'part' && p.key.file === 'original' && p.request.partSize !== undefined && item && !asked.has(item.id)) {
      asked.set(item.id, p.request.partSize);
    }
  }
  const sizes = new Map<string, number | null>();
  for (const [id, size] of asked) {
    const [row] = await tx<{ size: string | null }[]>`select private.guest_part_size(${a.linkId}::uuid, ${a.guest}, ${id}::uuid, ${size}) as size`;
    sizes.set(id, row?.size == null ? null : Number(row.size));
  }
  return sizes;
}

/**
 * The Content-Length a guest's write is signed with, null for requests that carry no body, or why it is refused.
 * An original is the size it was reserved at: one PUT of exactly that, or parts of exactly the lengths the
 * item's part size gives, none past the last. Thumbnails and previews are one PUT of a bounded size; so is the
 * sidecar a photo came with.
 */
function signedLength(p: ParsedRequest, item: GuestItemRow, partSize: number | null | undefined): number | null | Refusal {
  const req = p.request;
  // A sidecar as a member's is signed: one PUT at its length, at most 2 MiB, never in parts.
  if (p.key.file === 'original.xmp') return sidecarLength(p.key.file, req);
  const original = p.key.file === 'original';
  switch (req.op) {
    case 'put':
      if (req.contentLength === undefined) return 'validation/invalid';
      if (original) return req.contentLength === item.bytes ? req.contentLength : 'upload/integrity';
      return req.contentLength <= MAX_DERIVED_BYTES ? req.contentLength : 'upload/too-large';
    case 'create':
      return original ? null : 'storage/denied';
    case 'part': {
      if (!original) return 'storage/denied';
      if (req.partSize === undefined) return 'validation/invalid';
      if (partSize == null) return 'storage/denied';
      if (partSize !== req.partSize) return 'upload/integrity';
      const start = (req.partNumber - 1) * partSize;
      if (start >= Math.max(item.bytes, 1)) return 'upload/too-large';
      return Math.min(item.bytes, start + partSize) - start;
    }
    default:
      return null;
  }
}

/** One of "Your uploads": what the guest needs to recognise and delete it; never a key. */
export interface GuestItem {
  id: string;
  kind: string;
  status: string;
  filename: string;
  mime: string;
  bytes: number;
  createdAt: string;
  thumbhash: string | null;
  thumbUrl: string | null;
}

export async function mineWithThumbs(
  tx: Tx,
  deps: { presign: Presign },
  a: { linkId: string; guest: string; expiresIn: number; now: Date },
): Promise<GuestItem[]> {
  const rows = await tx<{ id: string; kind: string; status: string; filename: string; mime: string; bytes: string; created_at: Date; thumbhash: string | null; thumb_key: string | null }[]>`
    select id::text, kind, status, filename, mime, bytes::text, created_at, thumbhash, thumb_key
    from private.guest_items(${a.linkId}::uuid, ${a.guest})`;
  return await Promise.all(rows.map(async (r) => ({
    id: r.id,
    kind: r.kind,
    status: r.status,
    filename: r.filename,
    mime: r.mime,
    bytes: Number(r.bytes),
    createdAt: r.created_at.toISOString(),
    thumbhash: r.thumbhash,
    thumbUrl: r.status === 'ready' && r.thumb_key
      ? (await deps.presign({ op: 'get', key: r.thumb_key }, { responseType: 'image/webp', responseDisposition: 'inline' }, a.expiresIn, a.now)).url
      : null,
  })));
}

/**
 * Deletes the objects of the items a guest took back, at once: their rows are already gone and the keys
 * queued for the purge, which takes any the bucket did not confirm here.
 */
export async function deleteObjects(
  deps: { sql: Sql; presign: Presign },
  keys: string[],
  now: Date,
): Promise<void> {
  const done: string[] = [];
  await Promise.all(keys.map(async (key) => {
    try {
      const req = await deps.presign({ op: 'delete', key }, {}, 300, now);
      const res = await fetch(req.url, { method: req.method, headers: req.headers });
      await res.body?.cancel();
      if (res.ok || res.status === 404) done.push(key);
    } catch (e) {
      console.error('share-upload: delete', e instanceof Error ? e.message : e);
    }
  }));
  if (done.length) await deps.sql`select private.purge_forget_keys(${deps.sql.array(done)}::text[])`;
}

/** The size of the object in the bucket, or null when there is none (HEAD with the function's own credentials). */
export async function storedSize(deps: { presign: Presign }, key: string, now: Date): Promise<number | null> {
  const head = await deps.presign({ op: 'head', key }, {}, 60, now);
  const res = await fetch(head.url, { method: head.method, headers: head.headers });
  await res.body?.cancel();
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`HEAD of an upload answered ${res.status}`);
  return Number(res.headers.get('content-length'));
}
