/**
 * share-upload: a share link's guests add files to the album, see the ones they added and take them back.
 * No account: every call carries the visit token share-open gave (_shared/share-visit.ts) and, after `join`,
 * the guest token. Each op runs in one transaction that re-checks the link (album, revoked, expired, guest
 * uploads on) and the guest in SQL ([Note: Guests of a share link] in the migration 20261125200000).
 *
 *   { op: "join", visit, name }                        → { guest, name, albumId, limits }
 *   { op: "reserve", visit, guest, items }             → { items: ItemRow[], duplicates: id[] }
 *   { op: "sign", visit, guest, requests }             → storage-sign's answer, for the guest's own items only
 *   { op: "finalize", visit, guest, itemId, input }    → { item: ItemRow }
 *   { op: "fail", visit, guest, itemId }               → {}
 *   { op: "mine", visit, guest }                       → { albumId, items: GuestItem[], limits }
 *   { op: "delete", visit, guest, itemIds }            → { deleted: id[] }
 */
import { ConfigError, type Env } from '../_shared/config-error.ts';
import { type Sql, sqlFromEnv, transaction, type Tx } from '../_shared/database.ts';
import { failure, json, methodNotAllowed, preflight, readJsonObject, sqlRefusal } from '../_shared/http.ts';
import { s3SettingsFromEnv } from '../_shared/s3-target.ts';
import { ShareError } from '../_shared/share-access.ts';
import { visitOf } from '../_shared/share-visit.ts';
import { createPresigner, type Presign } from '../storage-sign/presign.ts';
import { MAX_REQUESTS } from '../storage-sign/sign-request.ts';
import { deleteObjects, mineWithThumbs, signForGuest, storedSize } from './guest-objects.ts';

export interface UploadDeps {
  sql: Sql;
  presign: Presign;
  /** Lifetime of presigned URLs in seconds, at most 3600 (and never past the link's expiry). */
  expiresIn: number;
  now?: () => Date;
}

export const MAX_EXPIRES_IN = 3600;
const MAX_BODY_BYTES = 2 * 1024 * 1024;
const OPS = ['join', 'reserve', 'sign', 'finalize', 'fail', 'mine', 'delete'] as const;
type Op = (typeof OPS)[number];
type Body = Record<string, unknown> & { op: Op };

export function uploadDepsFromEnv(env: Env): UploadDeps {
  const raw = env.STORAGE_SIGN_EXPIRES_IN?.trim();
  const seconds = raw ? Number(raw) : MAX_EXPIRES_IN;
  if (!Number.isInteger(seconds) || seconds < 1) throw new ConfigError('STORAGE_SIGN_EXPIRES_IN must be a whole number of seconds');
  return { sql: sqlFromEnv(env), presign: createPresigner(s3SettingsFromEnv(env)), expiresIn: Math.min(seconds, MAX_EXPIRES_IN) };
}

/** A refusal decided in SQL (`private.fail`), carried out of the transaction to become the answer. */
class Refused extends Error {
  constructor(readonly status: number, readonly code: string, readonly detail: string, readonly details?: Record<string, unknown>) {
    super(code);
  }
}

const STATUS_OF: Record<string, number> = {
  'share/not-found': 404,
  'share/expired': 410,
  'share/revoked': 410,
  'share/password-required': 401,
  'album/forbidden': 403,
  'item/not-found': 404,
  'upload/quota-exceeded': 403,
  'upload/empty': 400,
  'upload/too-large': 400,
  'upload/integrity': 400,
  'upload/interrupted': 409,
  'validation/invalid': 400,
};

/** Check violation, invalid text for a type, a number out of range, a bad date. */
const BAD_INPUT = new Set(['23514', '22P02', '22003', '22007', '22008']);

export async function handle(request: Request, deps: UploadDeps): Promise<Response> {
  if (request.method === 'OPTIONS') return preflight();
  if (request.method !== 'POST') return methodNotAllowed();
  const body = await readBody(request);
  if (!body) return failure(400, 'validation/invalid', `Send { "op": ${OPS.map((o) => `"${o}"`).join(' | ')}, "visit", ... }.`);
  const now = deps.now?.() ?? new Date();
  try {
    // Run again on a deadlock ([Note: Transactions run again]): inside, the bucket is only read and signed for,
    // but for an object of the wrong size, deleted before a refusal, which is not run again.
    const answer = await transaction(deps.sql, (tx) => run(tx, body, deps, now));
    if (body.op === 'delete') await deleteObjects(deps, (answer as { keys: string[] }).keys, now);
    return json(200, body.op === 'delete' ? { deleted: (answer as { deleted: string[] }).deleted } : answer);
  } catch (e) {
    if (e instanceof ShareError) return json(e.status, { code: e.code, message: e.detail, ...e.extra }, e.headers);
    if (e instanceof Refused) return failure(e.status, e.code, e.detail, {}, e.details);
    const refused = sqlRefusal(e, STATUS_OF);
    if (refused) return refused;
    // What the guest sent broke a column's rule (a width below 1, a thumbhash too long, a date or a flag that is
    // none): their input, not the server, is wrong.
    if (BAD_INPUT.has(String((e as { code?: unknown } | null)?.code))) return failure(400, 'validation/invalid', 'A value of the upload is out of range or of the wrong kind.');
    console.error('share-upload:', e instanceof Error ? e.message : e);
    return failure(500, 'backend/unreachable', 'The database or the storage service could not be reached.');
  }
}

async function readBody(request: Request): Promise<Body | null> {
  const body = await readJsonObject(request, MAX_BODY_BYTES);
  return body && OPS.includes(body.op as Op) ? body as Body : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const invalid = (field: string, detail: string) => new Refused(400, 'validation/invalid', detail, { field });

function guestToken(body: Body): string {
  if (typeof body.guest !== 'string' || body.guest.length < 16 || body.guest.length > 64) throw invalid('guest', 'Give your name first.');
  return body.guest;
}

function itemId(value: unknown, field = 'itemId'): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw invalid(field, 'An item is named by its id.');
  return value;
}

interface Limits {
  maxFiles: number | null;
  maxBytes: number | null;
  usedFiles: number;
  usedBytes: number;
}

async function limitsOf(tx: Tx, linkId: string, guestId: string): Promise<Limits> {
  const [row] = await tx<{ max_files: number | null; max_bytes: string | null; used_files: string; used_bytes: string }[]>`
    select l.guest_max_files as max_files, l.guest_max_bytes::text as max_bytes, u.used_files::text, u.used_bytes::text
    from public.share_links l cross join private.guest_usage(${guestId}::uuid) u where l.id = ${linkId}::uuid`;
  return {
    maxFiles: row!.max_files,
    maxBytes: row!.max_bytes === null ? null : Number(row!.max_bytes),
    usedFiles: Number(row!.used_files),
    usedBytes: Number(row!.used_bytes),
  };
}

async function run(tx: Tx, body: Body, deps: UploadDeps, now: Date): Promise<unknown> {
  const { linkId, visitorHash } = await visitOf(tx, body.visit, now);
  // The link first, for every op: a revoked, expired or upload-less link answers the same to all of them.
  const [link] = await tx<{ expires_at: Date | null; album_id: string }[]>`select expires_at, album_id::text from private.guest_link(${linkId}::uuid)`;
  const lifetime = Math.max(1, Math.min(deps.expiresIn, link!.expires_at ? Math.floor((link!.expires_at.getTime() - now.getTime()) / 1000) : Infinity));

  switch (body.op) {
    case 'join': {
      const badName = () => new Refused(400, 'validation/invalid', 'A name has 1 to 60 characters, without control or invisible characters.', { field: 'guestName', rule: 'invalid' });
      if (typeof body.name !== 'string') throw badName();
      const [g] = await tx<{ guest_id: string; token: string }[]>`
        select guest_id::text, token from private.guest_join(${linkId}::uuid, ${body.name}, ${visitorHash})`.catch((e) => {
        throw (e as { message?: unknown }).message === 'validation/invalid' ? badName() : e;
      });
      const [named] = await tx<{ name: string }[]>`select name from public.share_guests where id = ${g!.guest_id}::uuid`;
      return { guest: g!.token, name: named!.name, albumId: link!.album_id, limits: await limitsOf(tx, linkId, g!.guest_id) };
    }
    case 'reserve': {
      const guest = guestToken(body);
      if (!Array.isArray(body.items)) throw invalid('items', 'Items must be a list.');
      const items = body.items.map((raw, i) => {
        const r = (raw ?? {}) as Record<string, unknown>;
        return { id: itemId(r.id, `items.${i}.id`), filename: r.filename, mime: r.mime, kind: r.kind, bytes: r.bytes, sha256: r.sha256 ?? null, stored: r.stored ?? null };
      });
      const [row] = await tx<{ answer: { items: unknown[]; duplicates: string[] } }[]>`
        select private.guest_reserve(${linkId}::uuid, ${guest}, ${tx.json(items as never)}) as answer`;
      return row!.answer;
    }
    case 'sign': {
      const guest = guestToken(body);
      const requests = body.requests;
      if (!Array.isArray(requests) || requests.length < 1 || requests.length > MAX_REQUESTS) throw invalid('requests', `Send 1 to ${MAX_REQUESTS} requests.`);
      return await signForGuest(tx, deps, { linkId, guest, requests, expiresIn: lifetime, now });
    }
    case 'finalize': {
      const guest = guestToken(body);
      await checkStored(tx, deps, linkId, guest, itemId(body.itemId), now);
      const [row] = await tx<{ item: unknown }[]>`
        select pg_catalog.to_jsonb(f) as item
        from private.guest_finalize(${linkId}::uuid, ${guest}, ${itemId(body.itemId)}::uuid, ${tx.json((body.input ?? null) as never)}) f`;
      return { item: row!.item };
    }
    case 'fail': {
      const guest = guestToken(body);
      await tx`select private.guest_fail(${linkId}::uuid, ${guest}, ${itemId(body.itemId)}::uuid)`;
      return {};
    }
    case 'mine': {
      const guest = guestToken(body);
      const [g] = await tx<{ id: string }[]>`select id::text from private.guest_of(${linkId}::uuid, ${guest})`;
      return { albumId: link!.album_id, items: await mineWithThumbs(tx, deps, { linkId, guest, expiresIn: lifetime, now }), limits: await limitsOf(tx, linkId, g!.id) };
    }
    case 'delete': {
      const guest = guestToken(body);
      if (!Array.isArray(body.itemIds) || body.itemIds.length > 1000) throw invalid('itemIds', 'Choose 0 to 1,000 items.');
      const ids = body.itemIds.map((v, i) => itemId(v, `itemIds.${i}`));
      const rows = await tx<{ key: string }[]>`
        select k as key from private.guest_delete(${linkId}::uuid, ${guest}, ${tx.array(ids)}::uuid[]) k`;
      const keys = rows.map((r) => r.key);
      return { keys, deleted: [...new Set(keys.map((k) => k.split('/')[2]!))] };
    }
  }
}

/**
 * [Note: A guest's upload is the size it was reserved at]
 * The bucket is asked what was stored before a guest's upload is finished: a presigned PUT or multipart upload
 * carries any number of bytes, and a 10-byte reservation took an 8 MiB PUT and a 15 MiB multipart upload, the
 * row still saying 10 bytes (and the guest's limits counting 10). An original that is not there yet is
 * `upload/interrupted` (send it, then finish); one of another size is `upload/integrity`, and its bytes are
 * deleted at once, so the guest can send the right ones.
 */
async function checkStored(tx: Tx, deps: UploadDeps, linkId: string, guest: string, id: string, now: Date): Promise<void> {
  // The size it is stored at: smaller than the file when stored compressed ([Note: Originals stored compressed]).
  const [item] = await tx<{ bytes: string; original_key: string; status: string }[]>`
    select coalesce(i.stored_bytes, i.bytes)::text as bytes, i.original_key, i.status from public.items i
    join public.share_guest_items gi on gi.item_id = i.id
    join private.guest_of(${linkId}::uuid, ${guest}) g on g.id = gi.guest_id
    where i.id = ${id}::uuid`;
  if (!item || item.status !== 'uploading') return; // guest_finalize answers these as before
  const size = await storedSize(deps, item.original_key, now);
  if (size === null) throw new Refused(409, 'upload/interrupted', 'The file has not reached the storage yet: send it, then finish.');
  if (size !== Number(item.bytes)) {
    await deleteObjects(deps, [item.original_key], now);
    throw new Refused(400, 'upload/integrity', `The stored file has ${size} bytes where ${item.bytes} were reserved: send it again.`);
  }
  // What the item becomes ready by: [Note: An upload is finished only once its original is stored].
  await tx`select private.record_stored(${id}::uuid, ${size})`;
}
