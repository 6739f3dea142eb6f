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

/** A small file the archive makes itself: the manifest, a sidecar. */
export interface MadeEntry {
  name: string;
  bytes: Uint8Array<ArrayBuffer>;
  lastModified: Date;
}

export interface ZipPlan {
  entries: ZipEntry[];
  manifest: MadeEntry;
  /** XMP sidecars beside the files, when asked for ([Note: XMP sidecars out] in src/lib/xmp-sidecar.ts). */
  sidecars: MadeEntry[];
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
export interface SidecarOptions {
  naming: 'full' | 'stem';
  /** The sidecar of an item, null when it has nothing to say (src/lib/xmp-sidecar.ts, loaded only when asked for). */
  build: (item: ZipItem) => Uint8Array<ArrayBuffer> | null;
}

export function planZip(items: readonly ZipItem[], now = new Date(), sidecarOptions?: SidecarOptions): ZipPlan {
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
    sidecars: sidecarOptions ? planSidecars(entries, [manifestName], sidecarOptions) : [],
    fileBytes: entries.reduce((n, e) => n + e.size, 0),
  };
}

/**
 * A sidecar for each entry that has something to say, named after it. Where two files share a stem (`IMG_1.JPG` and
 * `IMG_1.CR3`) the second takes the whole-name form, so every sidecar still names its file; a name already in the
 * archive is numbered, as entries are.
 */
function planSidecars(entries: readonly ZipEntry[], taken: readonly string[], opts: SidecarOptions): MadeEntry[] {
  const used = new Set([...taken, ...entries.map((e) => e.name)].map((n) => n.toLowerCase()));
  const made: { entry: ZipEntry; bytes: Uint8Array<ArrayBuffer>; name: string }[] = [];
  for (const entry of entries) {
    const bytes = opts.build(entry.item);
    if (!bytes) continue;
    let name = sidecarNameOf(entry.name, opts.naming);
    if (used.has(name.toLowerCase())) name = sidecarNameOf(entry.name, 'full');
    used.add(name.toLowerCase());
    made.push({ entry, bytes, name });
  }
  const names = uniqueZipNames([...taken, ...entries.map((e) => e.name), ...made.map((m) => m.name)]).slice(taken.length + entries.length);
  return made.map((m, i) => ({ name: names[i] ?? m.name, bytes: m.bytes, lastModified: m.entry.lastModified }));
}

/** `IMG_1.JPG` → `IMG_1.JPG.xmp` (full: darktable, Immich) or `IMG_1.xmp` (stem: Lightroom, Capture One). */
export function sidecarNameOf(entryName: string, naming: 'full' | 'stem'): string {
  if (naming === 'full') return `${entryName}.xmp`;
  const dot = entryName.lastIndexOf('.');
  return `${dot > 0 ? entryName.slice(0, dot) : entryName}.xmp`;
}
