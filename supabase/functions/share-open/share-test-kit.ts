/**
 * What the share-open tests share: albums with ready items whose objects are really in the bucket, links made
 * through the share-links function, and calls to share-open as a browser with no account would make them.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { accessToken, asUser, type Album, createAlbum, key, markStored, ownerSql, reserveItem, testEnv } from '../_shared/test-world.ts';
import { s3FromEnv } from '../_shared/s3-target.ts';
import { handle as shareLinks, shareLinksDepsFromEnv } from '../share-links/handler.ts';
import { handle, shareOpenDepsFromEnv } from './handler.ts';

export const sql = ownerSql();
const env = { ...testEnv(), SHOEBOX_SITE_URL: 'https://photos.example.test' };
export const deps = shareOpenDepsFromEnv(env);
const linksDeps = shareLinksDepsFromEnv(env);
const s3 = s3FromEnv(env);

// deno-lint-ignore no-explicit-any
export type Json = Record<string, any>;

/**
 * Calls share-open as a browser from `ip` would: the platform's gateway adds the address it was called from to
 * the end of X-Forwarded-For, after whatever the caller wrote there (`spoofed`).
 */
export async function call(body: unknown, ip = '203.0.113.7', now?: Date, spoofed?: string): Promise<{ status: number; headers: Headers; body: Json }> {
  const res = await handle(new Request('http://localhost/functions/v1/share-open', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': spoofed ? `${spoofed}, ${ip}` : ip, authorization: 'Bearer anon-key' },
    body: JSON.stringify(body),
  }), now ? { ...deps, now: () => now } : deps);
  return { status: res.status, headers: res.headers, body: await res.json() as Json };
}

export async function page(token: string): Promise<{ status: number; type: string | null; html: string }> {
  const res = await handle(new Request(`http://localhost/functions/v1/share-open?token=${encodeURIComponent(token)}`), deps);
  return { status: res.status, type: res.headers.get('content-type'), html: await res.text() };
}

export async function makeLink(album: Album, options: Json = {}): Promise<{ token: string; linkId: string }> {
  const res = await shareLinks(new Request('http://localhost/functions/v1/share-links', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await accessToken({ sub: album.owner })}` },
    body: JSON.stringify({ op: 'create', albumId: album.id, allowDownload: true, allowGuestUpload: false, ...options }),
  }), { ...linksDeps, iterations: options.password ? 1000 : undefined });
  const body = await res.json() as Json;
  if (res.status !== 200) throw new Error(JSON.stringify(body));
  return { token: body.token, linkId: body.link.id };
}

export const visitorId = () => crypto.randomUUID().replaceAll('-', '');

export interface Photo {
  id: string;
  bytes: Record<'original' | 'preview.webp' | 'thumb.webp', Uint8Array>;
}

/** A ready photo with its original, preview and thumbnail in the bucket. */
export async function addPhoto(album: Album, over: { takenAt?: string; filename?: string; mime?: string; kind?: string; metadata?: Json } = {}): Promise<Photo> {
  const id = await reserveItem(sql, album.contributor, album.id, { filename: over.filename ?? 'IMG_0001.jpg', mime: over.mime ?? 'image/jpeg', kind: over.kind ?? 'image' });
  const bytes = {
    original: new TextEncoder().encode(`original of ${id}`),
    'preview.webp': new TextEncoder().encode(`preview of ${id}`),
    'thumb.webp': new TextEncoder().encode(`thumb of ${id}`),
  };
  for (const [file, body] of Object.entries(bytes)) {
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key(album.id, id, file), Body: body }));
  }
  await markStored(sql, id);
  await asUser(sql, album.contributor, (tx) => tx`select public.finalize_item(${album.id}, ${id}, ${tx.json({
    sha256: 'b'.repeat(64), width: 4000, height: 3000, has_preview: true, has_thumb: true, thumbhash: 'abc',
    ...(over.takenAt ? { taken_at: over.takenAt } : {}),
    metadata: { cameraMake: 'Fujifilm', cameraModel: 'X100V', lens: '23mm', keywords: ['tram'], ...over.metadata },
  })})`);
  return { id, bytes };
}

export async function sharedAlbum(title = 'Lisbon'): Promise<Album> {
  return await createAlbum(sql, title);
}

export async function fetchBytes(url: string): Promise<{ status: number; bytes: Uint8Array; type: string | null; disposition: string | null }> {
  const res = await fetch(url);
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition') };
}
