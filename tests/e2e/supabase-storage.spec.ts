import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addFiles, createAlbum, expectItemCount, fixture, fixtureBytes, tile } from './helpers';
import { expect, test } from './supabase-world';
import { supabaseStorageTestEnv } from '../s3/supabase-storage-env';

// A Supabase project whose files live on the real Supabase Storage server (scripts/supabase-storage-test-server.mjs),
// as a hosted project's do: the app signs its S3 requests with the person's own session, Storage's Row Level
// Security (our migrations) decides, and thumbnails and downloads come from Storage's batch signing.
test.use({ worldFiles: 'supabase-storage' });

const MiB = 1024 * 1024;

/**
 * The fixture clip grown to `size` bytes with an EBML Void element at the end of its Segment (whose size is
 * rewritten to hold it): still a video every WebM reader plays, now large enough to go up in 8 MiB parts.
 */
function paddedWebm(size: number): Buffer {
  const clip = fixtureBytes('clip-320x240.webm');
  const at = clip.indexOf(Buffer.from([0x18, 0x53, 0x80, 0x67]));
  if (at < 0 || clip[at + 4] !== 0x01) throw new Error('the fixture clip has no Segment with an 8-byte size');
  const voidBytes = size - clip.length;
  const header = Buffer.alloc(9);
  header[0] = 0xec;
  header.writeUIntBE(0x01, 1, 1);
  header.writeUIntBE(voidBytes - 9, 3, 6);
  const out = Buffer.concat([clip, header, Buffer.alloc(voidBytes - 9)]);
  const segmentSize = out.readUIntBE(at + 6, 6) + voidBytes;
  out.writeUIntBE(segmentSize, at + 6, 6);
  return out;
}

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function rpc(client: SupabaseClient, name: string, args: Record<string, unknown>): Promise<unknown> {
  const { data, error } = await client.rpc(name, args);
  if (error) throw new Error(`${name}: ${error.message}`);
  return data;
}

test('a 40 MiB video and a photo go up to Supabase Storage in resumable parts, and another member sees and downloads them', async ({ browser, world, signIn }) => {
  test.setTimeout(240_000);
  const env = supabaseStorageTestEnv();
  const dir = mkdtempSync(join(tmpdir(), 'shoebox-storage-e2e-'));
  try {
    const video = join(dir, 'Été à Lisboa.webm');
    const bytes = paddedWebm(40 * MiB + 1234);
    writeFileSync(video, bytes);

    const [ana, ben] = await Promise.all([world.newPerson('Ana'), world.newPerson('Ben')]);
    const anaPage = await signIn(await browser.newContext(), ana);
    const albumId = await createAlbum(anaPage, 'Lisbon');
    await addFiles(anaPage, [video, fixture('orientation-1.jpg')]);
    await expectItemCount(anaPage, 2, 180_000);
    await expect(tile(anaPage, 'orientation-1.jpg').locator('img.tile__thumb')).toBeVisible();

    // What Storage holds is the file, byte for byte (read with the service key: no policy in the way).
    const [row] = await world.query<{ original_key: string; kind: string; bytes: string }>(
      `select original_key, kind, bytes from public.items where album_id = $1 and filename = $2`,
      [albumId, 'Été à Lisboa.webm'],
    );
    expect([row?.kind, Number(row?.bytes)]).toEqual(['video', bytes.length]);
    const stored = await fetch(`${env.url}/storage/v1/object/${env.bucket}/${row!.original_key}`, { headers: { authorization: `Bearer ${env.serviceKey}` } });
    expect(stored.status).toBe(200);
    expect(sha(new Uint8Array(await stored.arrayBuffer()))).toBe(sha(bytes));

    // Ben, a viewer, sees both with their thumbnails and downloads the video under its own name.
    const created = (await rpc(await world.api(ana), 'create_invite', { p_album_id: albumId, p_role: 'viewer' })) as { token: string }[];
    await rpc(await world.api(ben), 'accept_invite', { p_token: created[0]!.token });
    const benPage = await signIn(await browser.newContext({ acceptDownloads: true }), ben);
    await benPage.goto(`/albums/${albumId}`);
    await expectItemCount(benPage, 2);
    await expect(tile(benPage, 'Été à Lisboa.webm').locator('img.tile__thumb')).toBeVisible({ timeout: 30_000 });
    await tile(benPage, 'Été à Lisboa.webm').click();
    const download = benPage.waitForEvent('download');
    await benPage.getByRole('button', { name: 'Download original' }).click();
    expect((await download).suggestedFilename()).toBe('Été à Lisboa.webm');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
