/**
 * Fills a local album with synthetic ready photos, straight through the database module, for benchmarks
 * and for trying the grid at scale. Thumbnails point at a few shared small WebP objects written once.
 */
import { unwrap } from 'idb';
import { albumTitle, parseField } from '../lib/validation';
import { objectKeys } from '../backend/ports';
import type { Item, ItemMetadata } from '../domain/entities';
import { LOCAL_DEFAULTS } from '../backend/local/create-local-backend';
import { loadLocalProfile } from '../backend/local/local-auth';
import { LocalDb, WRITE_STORES, newAlbumRecord } from '../backend/local/local-db';
import { LocalFiles } from '../backend/local/local-files';
import { ItemLedger } from '../backend/local/local-item-ledger';
import { withListFields } from '../backend/local/local-list-fields';

export interface SeedTarget {
  dbName?: string;
  opfsDir?: string;
}

export interface SeedOptions {
  /** Title of the album when it does not exist yet. */
  title?: string;
  /** Seed of the pseudo-random dates and sizes: the same seed gives the same album shape. */
  seed?: number;
  /** Capture dates fall in [fromYear, toYear). */
  fromYear?: number;
  toYear?: number;
  /** Rows per write transaction. */
  batchSize?: number;
  /** The i-th item's filename (IMG_000001.jpg and on when absent). */
  filename?: (i: number) => string;
  /** Details the i-th item has besides its camera (a title, keywords, a rating: what a search finds). */
  metadata?: (i: number) => ItemMetadata;
  onProgress?: (done: number) => void;
}

/** Width × height of the shared thumbnails' originals: landscape, portrait, wide, square, tall. */
const SHAPES: readonly (readonly [number, number])[] = [
  [4000, 3000],
  [3000, 4000],
  [4032, 2268],
  [3024, 3024],
  [6000, 4000],
  [1080, 1920],
  [4000, 3000],
  [2268, 4032],
];

const CAMERAS = [
  { cameraMake: 'Apple', cameraModel: 'iPhone 15 Pro' },
  { cameraMake: 'Google', cameraModel: 'Pixel 8' },
  { cameraMake: 'FUJIFILM', cameraModel: 'X-T5' },
  { cameraMake: 'SONY', cameraModel: 'ILCE-7M4' },
];

/** A small deterministic generator (mulberry32): benchmarks compare like with like. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One WebP per shape, 480 px on the long edge; null keys where the browser cannot draw off-screen. */
async function writeSharedThumbs(files: LocalFiles, albumId: string): Promise<(string | null)[]> {
  if (typeof OffscreenCanvas === 'undefined') return SHAPES.map(() => null);
  return Promise.all(
    SHAPES.map(async ([w, h], i) => {
      const scale = 480 / Math.max(w, h);
      const canvas = new OffscreenCanvas(Math.round(w * scale), Math.round(h * scale));
      const ctx = canvas.getContext('2d');
      if (!ctx) return null;
      const hue = (i * 360) / SHAPES.length;
      const gradient = ctx.createLinearGradient(0, 0, canvas.width, canvas.height);
      gradient.addColorStop(0, `hsl(${hue} 70% 60%)`);
      gradient.addColorStop(1, `hsl(${(hue + 50) % 360} 60% 30%)`);
      ctx.fillStyle = gradient;
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      const blob = await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 });
      const key = objectKeys.thumb(albumId, `seed-${i}`);
      await files.upload({ key, blob, contentType: blob.type });
      return key;
    }),
  );
}

/**
 * Adds `count` ready photos to the album (made if missing) of the local backend stored in `target`
 * (its options, or just the database name). Capture dates come in bursts, like real events, spread over
 * the years; sizes and aspect ratios vary; thumbhash is null.
 */
export async function seedLocalAlbum(target: SeedTarget | string, albumId: string, count: number, opts: SeedOptions = {}): Promise<void> {
  const dbName = typeof target === 'string' ? target : (target.dbName ?? LOCAL_DEFAULTS.dbName);
  const opfsDir = typeof target === 'string' ? LOCAL_DEFAULTS.opfsDir : (target.opfsDir ?? LOCAL_DEFAULTS.opfsDir);
  const db = new LocalDb(dbName);
  try {
    const profile = await loadLocalProfile(db);
    const idb = await db.get();
    if (!(await idb.get('albums', albumId))) {
      const at = new Date().toISOString();
      const title = parseField(albumTitle, opts.title ?? 'Sample album', 'title');
      await idb.add('albums', newAlbumRecord(albumId, profile.id, title, '', at));
    }
    const thumbs = await writeSharedThumbs(new LocalFiles(opfsDir), albumId);

    const rand = random(opts.seed ?? 1);
    const from = Date.UTC(opts.fromYear ?? 2008, 0, 1);
    const to = Date.UTC(opts.toYear ?? 2026, 0, 1);
    const firstAdded = Date.now() - count * 1000;
    const batchSize = opts.batchSize ?? 5000;
    const ledger = new ItemLedger();
    let eventTime = from;
    // While one batch commits, the next is being filled: the page and the database work side by side.
    const committing: Promise<void>[] = [];
    for (let start = 0; start < count; start += batchSize) {
      const end = Math.min(count, start + batchSize);
      const tx = idb.transaction('items', 'readwrite', { durability: 'relaxed' });
      const store = unwrap(tx.store);
      for (let i = start; i < end; i++) {
        // A new event now and then; otherwise the next shot a few minutes after the last.
        if (i === start || rand() < 1 / 40) eventTime = from + rand() * (to - from);
        else eventTime += rand() * 10 * 60_000;
        const shape = Math.floor(rand() * SHAPES.length);
        const [width, height] = SHAPES[shape]!;
        const id = crypto.randomUUID();
        const thumbKey = thumbs[shape] ?? null;
        const item: Item = {
          id,
          albumId,
          uploaderId: profile.id,
          kind: 'image',
          status: 'ready',
          filename: opts.filename?.(i) ?? `IMG_${String(i + 1).padStart(6, '0')}.jpg`,
          mime: 'image/jpeg',
          bytes: Math.round(1_500_000 + rand() * 7_500_000),
          sha256: null,
          width,
          height,
          durationMs: null,
          takenAt: new Date(Math.min(eventTime, to - 1)).toISOString(),
          originalKey: objectKeys.original(albumId, id),
          previewKey: thumbKey,
          thumbKey,
          thumbhash: null,
          metadata: { ...CAMERAS[shape % CAMERAS.length]!, ...opts.metadata?.(i) },
          createdAt: new Date(firstAdded + i * 1000).toISOString(),
          deletedAt: null,
        };
        const record = withListFields(item);
        ledger.record(null, record);
        store.put(record);
      }
      committing.push(tx.done.then(() => opts.onProgress?.(end)));
      if (committing.length > 1) await committing.shift();
    }
    await Promise.all(committing);
    const tx = idb.transaction(WRITE_STORES, 'readwrite');
    await ledger.flush(tx, new Date().toISOString());
    await tx.done;
  } finally {
    await db.close();
  }
}
