/**
 * What the share-upload tests share: albums with a share link, calls to the handler as a link's guest, and
 * uploads to the real gateway as the browser would send them.
 */
import assert from 'node:assert/strict';
import { type Album, asUser, createAlbum, ownerSql, testEnv } from '../_shared/test-world.ts';
import type { SignedRequest } from '../storage-sign/presign.ts';
import { handle as openLink, shareOpenDepsFromEnv } from '../share-open/handler.ts';
import { handle, uploadDepsFromEnv } from './handler.ts';

export const sql = ownerSql();
export const deps = uploadDepsFromEnv(testEnv());
const openDeps = shareOpenDepsFromEnv({ ...testEnv(), SHOEBOX_SITE_URL: 'https://photos.example.test' });

export interface LinkOptions {
  allowGuestUpload?: boolean;
  guestMaxFiles?: number | null;
  guestMaxBytes?: number | null;
}

/** An album with a link made by its owner; `visit` is what a visitor holds after opening it (`token`). */
export async function albumWithLink(opts: LinkOptions = {}): Promise<{ album: Album; linkId: string; visit: string; token: string }> {
  const album = await createAlbum(sql, 'Wedding');
  const [row] = await asUser(sql, album.owner, (tx) => tx<{ link_id: string; token: string }[]>`
    select link_id::text, token from public.create_share_link(${album.id}, ${tx.json({ allow_guest_upload: opts.allowGuestUpload ?? true })})`);
  await asUser(sql, album.owner, (tx) => tx`
    update public.share_links set guest_max_files = ${opts.guestMaxFiles ?? null}, guest_max_bytes = ${opts.guestMaxBytes ?? null}
    where id = ${row!.link_id}`);
  return { album, linkId: row!.link_id, visit: await openVisit(row!.token), token: row!.token };
}

/** The visit token a visitor holds once share-open has opened the link. */
export async function openVisit(linkToken: string): Promise<string> {
  const res = await openLink(new Request('http://localhost/functions/v1/share-open', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9', authorization: 'Bearer anon-key' },
    body: JSON.stringify({ op: 'open', token: linkToken, visitor: crypto.randomUUID().replaceAll('-', '') }),
  }), openDeps);
  const body = await res.json() as { visit?: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.visit!;
}

// deno-lint-ignore no-explicit-any -- answers are JSON, read field by field in the assertions
type Json = Record<string, any>;
export type Answer = { status: number; body: Json };

export async function call(body: unknown): Promise<Answer> {
  const res = await handle(new Request('http://localhost/functions/v1/share-upload', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer anon-key' },
    body: JSON.stringify(body),
  }), deps);
  return { status: res.status, body: JSON.parse(await res.text()) };
}

export async function ok(body: unknown): Promise<Json> {
  const a = await call(body);
  assert.equal(a.status, 200, JSON.stringify(a.body));
  return a.body;
}

export async function join(visit: string, name: string): Promise<string> {
  return (await ok({ op: 'join', visit, name })).guest as string;
}

export const sha = (n: number) => n.toString(16).padStart(64, '0');

export function file(bytes = 1000, sha256?: string) {
  return { id: crypto.randomUUID(), filename: 'IMG_0001.jpg', mime: 'image/jpeg', kind: 'image', bytes, ...(sha256 ? { sha256 } : {}) };
}

/** Reserves, uploads and finalizes one photo as the guest; returns its id. */
export async function uploadAsGuest(visit: string, guest: string, body = new TextEncoder().encode('guest photo bytes'), sha256 = sha(Math.floor(Math.random() * 1e12))): Promise<string> {
  const f = { ...file(body.byteLength, sha256) };
  const reserved = await ok({ op: 'reserve', visit, guest, items: [f] });
  assert.deepEqual(reserved.duplicates, []);
  const albumId = reserved.items[0].album_id as string;
  const [put] = (await ok({ op: 'sign', visit, guest, requests: [{ op: 'put', key: `albums/${albumId}/${f.id}/original`, contentType: 'image/jpeg', contentLength: body.byteLength }] })).results;
  const res = await send(signed(put), body);
  assert.equal(res.status, 200, await res.text());
  await ok({ op: 'finalize', visit, guest, itemId: f.id, input: { sha256 } });
  return f.id;
}

export function signed(result: unknown): SignedRequest {
  assert.ok(result && typeof result === 'object' && 'url' in result, `expected a signed request, got ${JSON.stringify(result)}`);
  return result as SignedRequest;
}

export function send(req: SignedRequest, body?: BodyInit): Promise<Response> {
  return fetch(req.url, { method: req.method, headers: req.headers, ...(body === undefined ? {} : { body }) });
}

/** The object's bytes read straight from the bucket with the function's own credentials, or null when absent. */
export async function readObject(key: string): Promise<string | null> {
  const res = await send(await deps.presign({ op: 'get', key }, {}, 60, new Date()));
  const text = await res.text();
  if (res.status === 404) return null;
  assert.equal(res.status, 200, text);
  return text;
}
