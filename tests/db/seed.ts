/**
 * One album with a member of every role, a stranger, and a row of every kind, for the permission tests.
 * Rows are written as the database owner (the way the functions would leave them), ids are returned.
 */
import { randomUUID } from 'node:crypto';
import type { Actor, Harness } from './db-harness';

export interface World {
  owner: Actor;
  editor: Actor;
  contributor: Actor;
  viewer: Actor;
  /** A second viewer, whose membership is the target of member-management cases. */
  viewer2: Actor;
  stranger: Actor;
  albumId: string;
  /** Ready items by uploader, one uploading item of the contributor, one trashed item of the editor. */
  items: { owner: string; editor: string; contributor: string; contributorUploading: string; editorTrashed: string };
  viewerCommentId: string;
  contributorCommentId: string;
  ownerCommentId: string;
  inviteId: string;
  /** The tokens of a pending viewer invitation (inviteId) and of a withdrawn one. */
  inviteToken: string;
  revokedInviteToken: string;
  shareLinkId: string;
  viewerDeviceId: string;
  multipartUploadId: string;
}

export const objectKey = (albumId: string, itemId: string, file = 'thumb.webp'): string => `albums/${albumId}/${itemId}/${file}`;

export async function seedWorld(db: Harness): Promise<World> {
  const owner = await db.createUser('Olive Owner');
  const editor = await db.createUser('Eddie Editor');
  const contributor = await db.createUser('Cora Contributor');
  const viewer = await db.createUser('Vic Viewer');
  const viewer2 = await db.createUser('Val Viewer');
  const stranger = await db.createUser('Stan Stranger');

  const [album] = await db.as(owner, (q) => q.query<{ id: string }>(`select id from public.create_album('Summer 2026', 'Lake house')`), { commit: true });
  const albumId = album!.id;
  for (const [who, role] of [[editor, 'editor'], [contributor, 'contributor'], [viewer, 'viewer'], [viewer2, 'viewer']] as const) {
    await db.query(`insert into public.album_members (album_id, user_id, role, added_by) values ($1, $2, $3, $4)`, [albumId, who.id, role, owner.id]);
  }

  const items = {
    owner: randomUUID(),
    editor: randomUUID(),
    contributor: randomUUID(),
    contributorUploading: randomUUID(),
    editorTrashed: randomUUID(),
  };
  const addItem = (id: string, uploader: Actor, status: string, trashed = false) =>
    db.query(
      `insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, original_key, thumb_key, deleted_at)
       values ($1, $2, $3, 'image', $4, 'IMG_0001.jpg', 'image/jpeg', 1000, $5, $6, $7)`,
      [id, albumId, uploader.id, status, objectKey(albumId, id, 'original'), status === 'ready' ? objectKey(albumId, id) : null,
        trashed ? new Date().toISOString() : null],
    );
  await addItem(items.owner, owner, 'ready');
  await addItem(items.editor, editor, 'ready');
  await addItem(items.contributor, contributor, 'ready');
  await addItem(items.contributorUploading, contributor, 'uploading');
  await addItem(items.editorTrashed, editor, 'ready', true);

  const [comment] = await db.query<{ id: string }>(
    `insert into public.comments (item_id, album_id, author_id, body) values ($1, $2, $3, 'Lovely') returning id`,
    [items.owner, albumId, viewer.id],
  );
  const commentBy = async (who: Actor, body: string) =>
    (await db.query<{ id: string }>(`insert into public.comments (item_id, album_id, author_id, body) values ($1, $2, $3, $4) returning id`,
      [items.owner, albumId, who.id, body]))[0]!.id;
  const contributorCommentId = await commentBy(contributor, 'Where is this?');
  const ownerCommentId = await commentBy(owner, 'The lake, at dawn');
  await db.query(`insert into public.favorites (item_id, album_id, user_id) values ($1, $2, $3), ($1, $2, $4)`, [items.owner, albumId, viewer.id, editor.id]);
  await db.query(`insert into public.album_visits (album_id, user_id) values ($1, $2)`, [albumId, viewer.id]);
  const [invite] = await db.query<{ id: string }>(
    `insert into public.invites (album_id, role, token_hash, created_by) values ($1, 'viewer', encode(sha256('seed-invite'), 'hex'), $2) returning id`,
    [albumId, owner.id],
  );
  await db.query(
    `insert into public.invites (album_id, role, token_hash, created_by, revoked_at) values ($1, 'viewer', encode(sha256('seed-revoked-invite'), 'hex'), $2, now())`,
    [albumId, owner.id],
  );
  const [link] = await db.query<{ id: string }>(
    `insert into public.share_links (album_id, token_hash, created_by) values ($1, encode(sha256('seed-link'), 'hex'), $2) returning id`,
    [albumId, owner.id],
  );
  const viewerDeviceId = randomUUID();
  await db.query(`insert into public.devices (user_id, id, label, kind) values ($1, $2, 'Chrome 131 on macOS', 'desktop')`, [viewer.id, viewerDeviceId]);

  for (const id of [items.owner, items.editor, items.contributor]) {
    for (const file of ['original', 'thumb.webp']) {
      await db.query(`insert into storage.objects (bucket_id, name, owner_id) values ('shoebox', $1, $2)`, [objectKey(albumId, id, file), owner.id]);
    }
  }
  // The upload in progress has its thumbnail up already.
  await db.query(`insert into storage.objects (bucket_id, name, owner_id) values ('shoebox', $1, $2)`, [objectKey(albumId, items.contributorUploading, 'thumb.webp'), contributor.id]);
  // Its original has reached the bucket, as storage-sign recorded: it may be finished.
  await db.query(`select private.record_stored($1, (select i.bytes from public.items i where i.id = $1))`, [items.contributorUploading]);
  const multipartUploadId = `upload-${randomUUID()}`;
  const key = objectKey(albumId, items.contributorUploading, 'original');
  await db.query(
    `insert into storage.s3_multipart_uploads (id, upload_signature, bucket_id, key, version, owner_id) values ($1, 'sig', 'shoebox', $2, 'v1', $3)`,
    [multipartUploadId, key, contributor.id],
  );
  await db.query(
    `insert into storage.s3_multipart_uploads_parts (upload_id, size, part_number, bucket_id, key, etag, owner_id, version)
     values ($1, 8388608, 1, 'shoebox', $2, '"etag-1"', $3, 'v1')`,
    [multipartUploadId, key, contributor.id],
  );

  return {
    owner, editor, contributor, viewer, viewer2, stranger, albumId, items,
    viewerCommentId: comment!.id, contributorCommentId, ownerCommentId, inviteId: invite!.id,
    inviteToken: 'seed-invite', revokedInviteToken: 'seed-revoked-invite', shareLinkId: link!.id, viewerDeviceId, multipartUploadId,
  };
}
