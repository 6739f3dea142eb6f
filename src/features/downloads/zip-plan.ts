import type { Item, ItemKind, ItemMetadata } from '../../domain/entities';
import { uniqueZipNames } from '../../lib/zip-entry-names';

/**
 * What the archive needs to know of one file, whoever reads it: a member (an `Item` and its object key) or a
 * link's visitor (share-open's `SharedItem`, which has no key). Never a location, a key or a user id: the
 * manifest is made from these fields alone.
 */
export interface ZipItem {
  id: string;
  filename: string;
  kind: ItemKind;
  mime: string;
  bytes: number;
  sha256: string | null;
  takenAt: string | null;
  createdAt: string;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  metadata: ItemMetadata;
}

export interface ZipEntry {
  item: ZipItem;
  /** The entry's name in the archive: safe and unique (src/lib/zip-entry-names.ts). */
  name: string;
  lastModified: Date;
  size: number;
}

export interface ZipPlan {
  entries: ZipEntry[];
  manifest: { name: string; bytes: Uint8Array<ArrayBuffer>; lastModified: Date };
  /** Bytes of the files (not of the archive). */
  fileBytes: number;
}

export const MANIFEST_NAME = 'manifest.json';

/** The camera and XMP fields of the manifest: what the item says about the picture, nothing about where. */
const METADATA_FIELDS = [
  'cameraMake', 'cameraModel', 'lens', 'exposureTime', 'fNumber', 'iso', 'focalLength',
  'title', 'description', 'rating', 'keywords', 'label',
] as const satisfies readonly (keyof ItemMetadata)[];

function validDate(iso: string | null): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** An item as the ZIP sees it (drops the keys, the uploader and the album). */
export function zipItemOf(item: Item): ZipItem {
  const { id, filename, kind, mime, bytes, sha256, takenAt, createdAt, width, height, durationMs, metadata } = item;
  return { id, filename, kind, mime, bytes, sha256, takenAt, createdAt, width, height, durationMs, metadata };
}

/**
 * The archive's entries in the given order, named safely and uniquely, dated when the photo was taken (or
 * else when it was added), and the manifest that lists them. `manifest.json` is reserved first, so a file
 * of that name becomes "manifest (2).json" rather than hiding the list.
 */
export function planZip(items: readonly ZipItem[], now = new Date()): ZipPlan {
  const [manifestName = MANIFEST_NAME, ...names] = uniqueZipNames([MANIFEST_NAME, ...items.map((i) => i.filename)]);
  const entries = items.map((item, i) => ({
    item,
    name: names[i] ?? '_',
    lastModified: validDate(item.takenAt) ?? validDate(item.createdAt) ?? now,
    size: item.bytes,
  }));
  const manifest = {
    created: now.toISOString(),
    count: entries.length,
    items: entries.map(({ item, name }) => {
      const metadata: Record<string, unknown> = {};
      for (const field of METADATA_FIELDS) if (item.metadata[field] !== undefined) metadata[field] = item.metadata[field];
      return {
        entry: name,
        filename: item.filename,
        kind: item.kind,
        mime: item.mime,
        bytes: item.bytes,
        sha256: item.sha256,
        takenAt: item.takenAt,
        addedAt: item.createdAt,
        width: item.width,
        height: item.height,
        durationMs: item.durationMs,
        metadata,
      };
    }),
  };
  return {
    entries,
    manifest: { name: manifestName, bytes: new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`), lastModified: now },
    fileBytes: entries.reduce((n, e) => n + e.size, 0),
  };
}
