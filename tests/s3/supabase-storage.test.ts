// The app's files port on the real Supabase Storage server (the service behind hosted Supabase's `/storage/v1`),
// as a Supabase user's uploads meet it: S3 requests signed with the person's session, Row Level Security on
// storage.objects from our migrations, display and download URLs from Storage's batch signing. The same contract
// suite as the local backend and Ceph, then what this server does differently (../shared/services/supabase-storage).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend, UploadCheckpoint } from '../../src/backend/ports';
import { S3Files } from '../../src/backend/s3/s3-files';
import { SessionSigner } from '../../src/backend/s3/session-signer';
import { expectAppError, finalizeInput, reserveInput, waitFor } from '../../src/testing/contract/contract-fixtures';
import { describeFilesPortContract } from '../../src/testing/contract/files-port-contract';
import { sampleBytes, sha256 } from './s3-engine-harness';
import { startStorageWorld, type Member, type StorageWorld } from './supabase-storage-world';
import { buildUploadChild, startChild } from './upload-child-runner';

const MiB = 1024 * 1024;

let world: StorageWorld;
beforeAll(async () => {
  world = await startStorageWorld();
}, 120_000);
afterAll(async () => {
  await world?.close();
});

async function member(name?: string): Promise<Member> {
  return world.newMember(name);
}

/** An album of `who`'s with one reserved item; the keys of its original and thumbnail. */
async function reserved(b: Backend, input = reserveInput()): Promise<{ albumId: string; itemId: string; original: string; thumb: string }> {
  const album = await b.albums.createAlbum({ title: 'Storage' });
  const [item] = await b.itemWrites.reserveItems(album.id, [input]);
  return { albumId: album.id, itemId: item!.id, original: item!.originalKey, thumb: item!.originalKey.replace(/original$/, 'thumb.webp') };
}

describeFilesPortContract('supabase storage (the real server, signed with the session)', async () => (await member()).backend);

describe('Supabase Storage: uploads of every size', () => {
  it.each([
    ['a small photo', 1 * MiB + 17],
    ['one byte under the single-PUT limit', 16 * MiB - 1],
    ['exactly the single-PUT limit (multipart)', 16 * MiB],
    ['a 40 MiB video', 40 * MiB + 3],
  ])('stores %s byte for byte', async (_, size) => {
    const { backend } = await member();
    const { albumId, itemId, original } = await reserved(backend, reserveInput({ bytes: size, mime: 'video/mp4', kind: 'video', filename: 'clip.mp4' }));
    // Nothing in the bucket yet: the upload cannot be finished ([Note: An upload is finished only once its original is stored]).
    await expectAppError(backend.itemWrites.finalizeItem(albumId, itemId, finalizeInput()), 'upload/interrupted');
    const bytes = sampleBytes(size, size);
    const checkpoints: UploadCheckpoint[] = [];
    const result = await backend.files.upload(
      { key: original, blob: new Blob([bytes]), contentType: 'video/mp4', filename: 'clip.mp4' },
      { onCheckpoint: (c) => checkpoints.push(c) },
    );
    expect(result.bytes).toBe(size);
    const stored = await world.stored(original);
    expect(stored && { sha256: sha256(stored), size: stored.length }).toEqual({ sha256: sha256(bytes), size });
    // Multipart from 16 MiB: Create and Complete went through (header-signed), each part checkpointed.
    expect(checkpoints.length > 0).toBe(size >= 16 * MiB);
    // The storage server's own row of the object says it is whole: the upload finishes.
    expect(await backend.itemWrites.finalizeItem(albumId, itemId, finalizeInput())).toMatchObject({ status: 'ready', bytes: size });
  });

  it('resumes a 40 MiB upload after its process is killed, without sending the confirmed parts again', async () => {
    const m = await member('Uploader');
    const size = 40 * MiB + 4321;
    const { original } = await reserved(m.backend, reserveInput({ bytes: size, mime: 'video/mp4', kind: 'video', filename: 'clip.mp4' }));
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-storage-kill-'));
    try {
      const child = await buildUploadChild();
      const bytes = sampleBytes(size, 40);
      const file = join(dir, 'video.mp4');
      writeFileSync(file, bytes);
      const checkpointFile = join(dir, 'checkpoint.json');
      const childEnv = {
        ...process.env,
        CHILD_FILE: file,
        CHILD_KEY: original,
        CHILD_CHECKPOINT_FILE: checkpointFile,
        CHILD_ENDPOINT: `${world.env.url}/storage/v1/s3`,
        CHILD_REGION: world.env.region,
        CHILD_BUCKET: world.env.bucket,
        CHILD_ACCESS_KEY_ID: world.env.tenantId,
        CHILD_SECRET_ACCESS_KEY: world.env.anonKey,
        CHILD_SESSION_TOKEN: await m.accessToken(),
      };
      const confirmed = () => (existsSync(checkpointFile) ? (JSON.parse(readFileSync(checkpointFile, 'utf8')) as UploadCheckpoint).parts?.length ?? 0 : 0);

      const first = startChild(child, childEnv);
      await first.started;
      // Killed once two parts are confirmed (of six): the crash a closed tab or a dead battery makes.
      await Promise.race([waitFor(() => (confirmed() >= 2 ? true : undefined), 120_000, 'two confirmed parts'), first.done]);
      first.process.kill('SIGKILL');
      await first.exited;
      const before = JSON.parse(readFileSync(checkpointFile, 'utf8')) as UploadCheckpoint;
      expect(before.uploadId).toBeTruthy();
      expect(before.parts!.length).toBeGreaterThanOrEqual(2);
      expect(before.parts!.length).toBeLessThan(6);

      const second = startChild(child, childEnv);
      await second.done;
      const stored = await world.stored(original);
      expect(stored && { sha256: sha256(stored), size: stored.length }).toEqual({ sha256: sha256(bytes), size });
      // The second run sent only the parts the first had not confirmed.
      const resent = second.parts();
      expect(resent.filter((n) => before.parts!.some((p) => p.partNumber === n))).toEqual([]);
      expect(new Set(resent).size).toBe(6 - before.parts!.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

describe('Supabase Storage: what this server says, in the product’s words', () => {
  it('names a download once encoded, for non-ASCII and special characters', async () => {
    const { backend } = await member();
    const { original } = await reserved(backend);
    await backend.files.upload({ key: original, blob: new Blob([sampleBytes(1000, 1)]), contentType: 'image/jpeg', filename: 'x.jpg' });
    const name = 'Été à Lisboa #1 & 100%.jpg';
    const url = (await backend.files.urls([original], { downloadAs: name })).get(original)!;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition.startsWith('attachment')).toBe(true);
    expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? '')).toBe(name);
  });

  it('a non-member reading an object learns nothing of the album; a member reading a missing file is told it is gone', async () => {
    const ana = await member('Ana');
    const ben = await member('Ben');
    const { original, albumId, itemId } = await reserved(ana.backend);
    await ana.backend.files.upload({ key: original, blob: new Blob([sampleBytes(500, 2)]), contentType: 'image/jpeg' });
    // Storage answers 404 to a read its policies refuse.
    await expectAppError(ben.backend.files.read(original), 'album/not-found');
    const missing = `albums/${albumId}/${itemId}/preview.webp`;
    await expectAppError(ana.backend.files.read(missing), 'item/not-found');
    expect((await ana.backend.files.read(original)).size).toBe(500);
  });

  it('a type the bucket does not allow is upload/unsupported, and the file stays out', async () => {
    const { backend } = await member();
    const { original } = await reserved(backend);
    // A bucket whose allowed types leave videos out, the way an owner may narrow it (bucket_allowed_types).
    const narrow = await world.db.query<{ id: string }>(
      `insert into storage.buckets (id, name, public, allowed_mime_types) values ('shoebox-photos-only', 'shoebox-photos-only', false, array['image/jpeg'])
       on conflict (id) do update set allowed_mime_types = excluded.allowed_mime_types returning id`,
    );
    expect(narrow).toHaveLength(1);
    const files = new S3Files({
      signer: new SessionSigner({
        endpoint: `${world.env.url}/storage/v1/s3`,
        region: world.env.region,
        bucket: 'shoebox-photos-only',
        credentials: async () => ({ accessKeyId: world.env.tenantId, secretAccessKey: world.env.anonKey, sessionToken: await (await member()).accessToken() }),
      }),
      contentMd5: false,
      retry: { policy: { retries: 0, baseMs: 1, maxMs: 1 } },
    });
    const err = await expectAppError(files.upload({ key: original, blob: new Blob([sampleBytes(100, 3)]), contentType: 'video/mp4' }), 'upload/unsupported');
    expect(err.retryable).toBe(false);
  });

  it('an editor writes a ready item\'s sidecar, again and again (Storage\'s overwrite); a viewer cannot, and the original stays as stored', async () => {
    const owner = await member('Owner');
    const { albumId, itemId, original } = await reserved(owner.backend, reserveInput({ bytes: 200 }));
    const photo = sampleBytes(200, 5);
    await owner.backend.files.upload({ key: original, blob: new Blob([photo]), contentType: 'image/jpeg' });
    await owner.backend.itemWrites.finalizeItem(albumId, itemId, finalizeInput());
    const editor = await member('Editor');
    const viewer = await member('Viewer');
    for (const [who, role] of [[editor, 'editor'], [viewer, 'viewer']] as const) {
      const { token } = await owner.backend.members.createInvite(albumId, { role });
      await who.backend.members.acceptInvite(token);
    }
    const sidecar = original.replace(/original$/, 'original.xmp');
    const xmp = (rating: number) => `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="${rating}"/></rdf:RDF></x:xmpmeta>`;
    const text = (bytes: Uint8Array | null) => (bytes ? new TextDecoder().decode(bytes) : null);

    await editor.backend.files.upload({ key: sidecar, blob: new Blob([xmp(3)]), contentType: 'application/octet-stream' });
    expect(text(await world.stored(sidecar))).toBe(xmp(3));
    // The same key again: Storage upserts, which its UPDATE policy must let through.
    await editor.backend.files.upload({ key: sidecar, blob: new Blob([xmp(5)]), contentType: 'application/octet-stream' });
    expect(text(await world.stored(sidecar))).toBe(xmp(5));
    expect(await (await viewer.backend.files.read(sidecar)).text()).toBe(xmp(5));

    await expectAppError(viewer.backend.files.upload({ key: sidecar, blob: new Blob([xmp(1)]), contentType: 'application/octet-stream' }), 'storage/denied');
    expect(text(await world.stored(sidecar))).toBe(xmp(5));
    // The item's original is no one's to replace once it is in the album, not even the owner's who uploaded it.
    await expectAppError(editor.backend.files.upload({ key: original, blob: new Blob([sampleBytes(200, 6)]), contentType: 'image/jpeg' }), 'storage/denied');
    await expectAppError(owner.backend.files.upload({ key: original, blob: new Blob([sampleBytes(200, 6)]), contentType: 'image/jpeg' }), 'storage/denied');
    expect(sha256((await world.stored(original))!)).toBe(sha256(photo));
  });

  it('an editor\'s edit is written into the item\'s sidecar, over what it keeps; a viewer reads it as a file', async () => {
    const owner = await member('Owner');
    const { albumId, itemId, original } = await reserved(owner.backend, reserveInput({ bytes: 100 }));
    await owner.backend.files.upload({ key: original, blob: new Blob([sampleBytes(100, 7)]), contentType: 'image/jpeg' });
    // As an upload stores a sidecar that came with its photo: darktable's history in it.
    const sidecar = original.replace(/original$/, 'original.xmp');
    const uploaded = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:darktable="http://darktable.sf.net/" darktable:xmp_version="5"/></rdf:RDF></x:xmpmeta>';
    await owner.backend.files.upload({ key: sidecar, blob: new Blob([uploaded]), contentType: 'application/octet-stream' });
    await owner.backend.itemWrites.finalizeItem(albumId, itemId, finalizeInput());
    const editor = await member('Editor');
    const { token } = await owner.backend.members.createInvite(albumId, { role: 'editor' });
    await editor.backend.members.acceptInvite(token);

    await editor.backend.itemWrites.editItems(albumId, [itemId], { title: 'Ribeira, blue hour', rating: 4 });
    const stored = async () => new TextDecoder().decode((await world.stored(sidecar)) ?? new Uint8Array());
    // Written in the background after the edit. A read that meets the object while it is being replaced can be
    // answered 500 by the server: the polling reads on, the last read below must succeed.
    const polled = () => stored().catch(() => '');
    for (const until = Date.now() + 10_000; !(await polled()).includes('Ribeira, blue hour'); await new Promise((r) => setTimeout(r, 50))) {
      if (Date.now() > until) throw new Error('the edit never reached the sidecar');
    }
    expect(await stored()).toMatch(/darktable:xmp_version="5"[\s\S]*xmp:Rating="4"/);
  });

  it('a contributor cannot delete the original of their own item once it is in the album; their unfinished upload, yes', async () => {
    const owner = await member('Owner');
    const album = await owner.backend.albums.createAlbum({ title: 'Together' });
    const contributor = await member('Contributor');
    const { token } = await owner.backend.members.createInvite(album.id, { role: 'contributor' });
    await contributor.backend.members.acceptInvite(token);

    const [ready, pending] = await contributor.backend.itemWrites.reserveItems(album.id, [reserveInput({ bytes: 300 }), reserveInput({ bytes: 300 })]);
    for (const item of [ready!, pending!]) {
      await contributor.backend.files.upload({ key: item.originalKey, blob: new Blob([sampleBytes(300, 4)]), contentType: 'image/jpeg' });
      expect(await world.stored(item.originalKey)).not.toBeNull();
    }
    await contributor.backend.itemWrites.finalizeItem(album.id, ready!.id, finalizeInput());
    await expectAppError(contributor.backend.files.remove([ready!.originalKey]), 'storage/denied');
    await expectAppError(owner.backend.files.remove([ready!.originalKey]), 'storage/denied');
    expect(await world.stored(ready!.originalKey)).not.toBeNull();
    await contributor.backend.files.remove([pending!.originalKey]);
    expect(await world.stored(pending!.originalKey)).toBeNull();
  });
});
