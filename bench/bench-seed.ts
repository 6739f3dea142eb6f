/**
 * Albums seeded straight into SQL and the bucket for the Playwright benchmarks: one INSERT for the items (the
 * counter and broadcast triggers run once for the batch), then each item's thumbnail object put in S3.
 */
import type { Person, SupabaseWorld } from '../tests/e2e/supabase-world';
import { putObjects, type Thumb } from './bench-photos';

export interface SeededAlbum {
  albumId: string;
  items: number;
  /** Bytes of thumbnail objects put in the bucket. */
  thumbBytes: number;
}

/**
 * An album owned by `owner` with `items` ready photos, item g (1 = newest) showing thumbs[g % thumbs.length],
 * taken one hour apart, each with a thumbnail object of its own in the bucket.
 */
export async function seedAlbum(world: SupabaseWorld, owner: Person, title: string, items: number, thumbs: Thumb[]): Promise<SeededAlbum> {
  const [album] = await world.query<{ id: string }>(`insert into public.albums (owner_id, title, description) values ($1, $2, '') returning id`, [owner.id, title]);
  const albumId = album!.id;
  await world.query(`insert into public.album_members (album_id, user_id, role) values ($1, $2, 'owner')`, [albumId, owner.id]);
  await world.query(
    `insert into public.items (id, album_id, uploader_id, kind, status, filename, mime, bytes, width, height, original_key, thumb_key, thumbhash, taken_at, created_at)
     select s.id, $1::uuid, $2::uuid, 'image', 'ready', 'IMG_' || s.g || '.jpg', 'image/jpeg', 2000000 + s.g,
            ($4::int[])[s.g % $7::int + 1], ($5::int[])[s.g % $7::int + 1],
            'albums/' || $1::uuid || '/' || s.id || '/original', 'albums/' || $1::uuid || '/' || s.id || '/thumb.webp',
            ($6::text[])[s.g % $7::int + 1],
            timestamptz '2026-06-30' - s.g * interval '1 hour', timestamptz '2026-07-01' - (s.g * interval '1 second')
     from (select gen_random_uuid() id, g from generate_series(1, $3::int) g) s`,
    [albumId, owner.id, items, thumbs.map((t) => t.width), thumbs.map((t) => t.height), thumbs.map((t) => t.hash), thumbs.length],
  );
  await world.query('analyze public.items');
  const rows = await world.query<{ id: string; filename: string }>(`select id, filename from public.items where album_id = $1`, [albumId]);
  const objects = rows.map((r) => {
    const g = Number(/IMG_(\d+)/.exec(r.filename)![1]);
    return { key: `albums/${albumId}/${r.id}/thumb.webp`, body: thumbs[g % thumbs.length]!.webp };
  });
  await putObjects(objects);
  return { albumId, items, thumbBytes: objects.reduce((n, o) => n + o.body.length, 0) };
}
