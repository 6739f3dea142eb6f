/**
 * purge against a real database and a real S3 gateway: what is expired goes (rows and objects), what is
 * not stays; unfinished multipart uploads older than 24 hours are aborted.
 */
import assert from 'node:assert/strict';
import {
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  AbortMultipartUploadCommand,
} from '@aws-sdk/client-s3';
import { s3FromEnv } from '../_shared/s3-target.ts';
import { accessToken, asUser, createAlbum, key, ownerSql, reserveItem, test, testEnv } from '../_shared/test-world.ts';
import { handle, type PurgeDeps, purgeDepsFromEnv } from './handler.ts';

const sql = ownerSql();
const deps = purgeDepsFromEnv(testEnv());
const s3 = deps.s3;

async function purge(overrides: Partial<PurgeDeps> = {}, token?: string) {
  const res = await handle(new Request('http://localhost/functions/v1/purge', {
    method: 'POST',
    headers: { authorization: `Bearer ${token ?? await accessToken({ role: 'service_role' })}` },
  }), { ...deps, ...overrides });
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

async function exists(k: string): Promise<boolean> {
  try {
    await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: k }));
    return true;
  } catch (e) {
    if ((e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw e;
  }
}

const put = (k: string) => s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: k, Body: new Uint8Array([1, 2, 3]), ContentType: 'image/jpeg' }));

/** A ready item trashed `days` ago, with its original, thumbnail and sidecar in the bucket. */
async function trashedItem(albumId: string, uploader: string, days: number | null): Promise<string> {
  const id = crypto.randomUUID();
  await sql`insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key, thumb_key, deleted_at)
            values (${id}, ${albumId}, ${uploader}, 'image', 'ready', 'x.jpg', 'image/jpeg', 3, ${key(albumId, id)}, ${key(albumId, id, 'thumb.webp')},
                    ${days === null ? null : sql`now() - make_interval(days => ${days})`})`;
  await put(key(albumId, id));
  await put(key(albumId, id, 'thumb.webp'));
  await put(key(albumId, id, 'original.xmp'));
  return id;
}

const rowExists = async (id: string) => (await sql`select 1 from public.items where id = ${id}`).length === 1;

test('only the service role may purge', async () => {
  const user = await accessToken({ sub: crypto.randomUUID() });
  assert.equal((await purge({}, user)).status, 403);
  const forged = await accessToken({ role: 'service_role' }, { secret: 'not-the-project-secret-at-all-0000' });
  assert.deepEqual((await purge({}, forged)), { status: 401, body: { code: 'auth/session-expired', message: 'The service role key is required.' } });
  assert.equal((await purge({}, await accessToken({ role: 'service_role' }, { expiresInSeconds: -5 }))).status, 401);
  const none = await handle(new Request('http://localhost/functions/v1/purge', { method: 'POST' }), deps);
  assert.equal(none.status, 401);
  await none.body?.cancel();
  const get = await handle(new Request('http://localhost/functions/v1/purge'), deps);
  assert.equal(get.status, 405);
  await get.body?.cancel();
});

test('an item trashed 31 days ago loses its objects (its sidecar too) and row; one trashed 29 days ago and one not trashed keep theirs', async () => {
  const album = await createAlbum(sql);
  const old = await trashedItem(album.id, album.owner, 31);
  const recent = await trashedItem(album.id, album.owner, 29);
  const live = await trashedItem(album.id, album.owner, null);
  await sql`insert into public.comments (item_id, album_id, author_id, body) values (${old}, ${album.id}, ${album.viewer}, 'Nice')`;

  const { status, body } = await purge({ prefix: `albums/${album.id}/` });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.purgedItems, 1);
  // Five possible keys per item (original, preview, thumbnail, poster, sidecar); the bucket confirms each, present or not.
  assert.equal(body.deletedObjects, 5);
  assert.equal(body.abortedUploads, 0);

  assert.equal(await exists(key(album.id, old)), false);
  assert.equal(await exists(key(album.id, old, 'thumb.webp')), false);
  assert.equal(await exists(key(album.id, old, 'original.xmp')), false);
  assert.equal(await rowExists(old), false);
  assert.equal((await sql`select 1 from public.comments where item_id = ${old}`).length, 0);
  for (const id of [recent, live]) {
    assert.equal(await rowExists(id), true);
    assert.equal(await exists(key(album.id, id)), true);
    assert.equal(await exists(key(album.id, id, 'thumb.webp')), true);
    assert.equal(await exists(key(album.id, id, 'original.xmp')), true);
  }

  // Nothing more to do on a second run.
  assert.deepEqual((await purge({ prefix: `albums/${album.id}/` })).body, { purgedItems: 0, deletedObjects: 0, abortedUploads: 0 });
});

test('when the bucket refuses, rows are gone but their keys stay queued, and the next run deletes the objects', async () => {
  const album = await createAlbum(sql);
  const ids = [await trashedItem(album.id, album.owner, 40), await trashedItem(album.id, album.owner, 40)];
  const broken = s3FromEnv({ ...testEnv(), S3_SECRET_ACCESS_KEY: 'wrong-secret' });

  const failed = await purge({ s3: broken, prefix: `albums/${album.id}/`, batchItems: 1 });
  assert.equal(failed.status, 500);
  assert.equal(failed.body.code, 'backend/unreachable');
  // The first batch's rows were deleted before the bucket refused; no row outlives its objects.
  assert.equal(failed.body.purgedItems, 1);
  assert.equal(failed.body.deletedObjects, 0);
  for (const id of ids) assert.equal(await exists(key(album.id, id)), true);

  const again = await purge({ prefix: `albums/${album.id}/`, batchItems: 1 });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.purgedItems, 1);
  assert.equal(again.body.deletedObjects, 10);
  for (const id of ids) {
    assert.equal(await exists(key(album.id, id)), false);
    assert.equal(await exists(key(album.id, id, 'original.xmp')), false);
    assert.equal(await rowExists(id), false);
  }
});

test('a deleted album is purged with all its items, objects and members', async () => {
  const album = await createAlbum(sql);
  const ids = [await trashedItem(album.id, album.owner, null), await trashedItem(album.id, album.owner, 2)];
  await sql`update public.albums set deleted_at = now() - interval '2 hours' where id = ${album.id}`;

  const { status, body } = await purge({ prefix: `albums/${album.id}/` });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.purgedItems, 2);
  for (const id of ids) {
    assert.equal(await exists(key(album.id, id, 'thumb.webp')), false);
    assert.equal(await exists(key(album.id, id, 'original.xmp')), false);
  }
  assert.equal((await sql`select 1 from public.albums where id = ${album.id}`).length, 0);
  assert.equal((await sql`select 1 from public.album_members where album_id = ${album.id}`).length, 0);
});

test('uploads reserved more than 24 hours ago and never finished (uploading or failed) lose their rows and objects; younger ones stay', async () => {
  const album = await createAlbum(sql);
  const pending = async (hoursAgo: number, failed = false) => {
    const id = await reserveItem(sql, album.contributor, album.id);
    if (failed) await asUser(sql, album.contributor, (tx) => tx`select public.fail_item(${album.id}, ${id})`);
    await sql`update public.items set created_at = now() - make_interval(hours => ${hoursAgo}) where id = ${id}`;
    await put(key(album.id, id));
    await put(key(album.id, id, 'thumb.webp'));
    await put(key(album.id, id, 'original.xmp'));
    return id;
  };
  const staleUploading = await pending(25);
  const staleFailed = await pending(30, true);
  const freshUploading = await pending(23);
  const freshFailed = await pending(1, true);

  const { status, body } = await purge({ prefix: `albums/${album.id}/` });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.purgedItems, 2);
  assert.equal(body.deletedObjects, 10);
  for (const id of [staleUploading, staleFailed]) {
    assert.equal(await rowExists(id), false);
    assert.equal(await exists(key(album.id, id)), false);
    assert.equal(await exists(key(album.id, id, 'original.xmp')), false);
    assert.equal(await exists(key(album.id, id, 'thumb.webp')), false);
  }
  for (const id of [freshUploading, freshFailed]) {
    assert.equal(await rowExists(id), true);
    assert.equal(await exists(key(album.id, id)), true);
  }
});

test('objects of uploads the owner cleared are deleted by the next purge', async () => {
  const album = await createAlbum(sql);
  const id = await reserveItem(sql, album.contributor, album.id);
  await put(key(album.id, id));
  await put(key(album.id, id, 'original.xmp'));
  const [cleared] = await asUser(sql, album.owner, (tx) => tx<{ n: number }[]>`select public.clear_pending_items(${album.id}) as n`);
  assert.equal(Number(cleared!.n), 1);
  assert.equal(await rowExists(id), false);

  const { status, body } = await purge({ prefix: `albums/${album.id}/` });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(await exists(key(album.id, id)), false);
  assert.equal(await exists(key(album.id, id, 'original.xmp')), false);
});

test('a multipart upload started more than 24 hours ago is aborted, a younger one is kept', async () => {
  const album = await createAlbum(sql);
  const prefix = `albums/${album.id}/`;
  const start = async () => {
    const k = key(album.id, crypto.randomUUID());
    const out = await s3.client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: k, ContentType: 'image/jpeg' }));
    return { key: k, uploadId: out.UploadId! };
  };
  const old = await start();
  // The gateway stamps uploads to the second: a second and more between the two.
  await new Promise((r) => setTimeout(r, 1500));
  const young = await start();
  const listed = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: prefix }));
  const initiated = (u: { uploadId: string }) => listed.Uploads!.find((x) => x.UploadId === u.uploadId)!.Initiated!.getTime();
  const [t0, t1] = [initiated(old), initiated(young)];
  assert.ok(t1 > t0, `${t0} ${t1}`);

  // "Now" is a day after halfway between the two: the first is just over 24 hours old, the second just under.
  const now = new Date((t0 + t1) / 2 + 24 * 60 * 60 * 1000);
  // One upload per page, so paging through the list is exercised as well.
  const { status, body } = await purge({ now: () => now, prefix, listPageSize: 1 });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.abortedUploads, 1);

  const left = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket, Prefix: prefix }));
  assert.deepEqual((left.Uploads ?? []).map((u) => u.UploadId), [young.uploadId]);
  await s3.client.send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: young.key, UploadId: young.uploadId }));
});
