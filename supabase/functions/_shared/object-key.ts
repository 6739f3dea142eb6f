/**
 * The bucket's object keys: `albums/{album_id}/{item_id}/original|preview.webp|thumb.webp|poster.webp|original.xmp`
 * (src/backend/ports.ts `objectKeys`). Ids are lowercase uuids, as Postgres prints them. `original.xmp` is the
 * item's XMP sidecar ([Note: Sidecars beside originals] in src/backend/sidecar-writer.ts).
 */
export const OBJECT_FILES = ['original', 'preview.webp', 'thumb.webp', 'poster.webp', 'original.xmp'] as const;
export type ObjectFile = (typeof OBJECT_FILES)[number];

export interface ObjectKey {
  albumId: string;
  itemId: string;
  file: ObjectFile;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const KEY = new RegExp(`^albums/(${UUID})/(${UUID})/(original|preview\\.webp|thumb\\.webp|poster\\.webp|original\\.xmp)$`);

/** The parts of a well-formed key, or null for anything else. */
export function parseObjectKey(key: unknown): ObjectKey | null {
  if (typeof key !== 'string') return null;
  const m = KEY.exec(key);
  return m ? { albumId: m[1]!, itemId: m[2]!, file: m[3] as ObjectFile } : null;
}
