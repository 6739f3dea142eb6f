/**
 * [Note: Sidecars beside originals]
 * Each item can have an XMP sidecar in the bucket beside its original, `albums/{a}/{i}/original.xmp`, so desktop
 * tools, and anyone who leaves Shoebox with their bucket, read the titles, ratings, labels, keywords and dates given
 * here (src/lib/xmp-sidecar.ts builds it).
 * - On upload, a sidecar added with the photo is stored there, its place taken out where the album removes
 *   locations, with the item's fields merged in: the fields Shoebox does not know are kept (src/upload).
 * - After every edit of an item's details, whoever edited writes it again: the stored sidecar (or none) is read, the
 *   item's new fields merged in, the result written over it. The writes go on in the background, a few at a time,
 *   one per item at once and the latest edit last; an edit made while an item's sidecar is being written is
 *   written after it.
 * The bucket lets the uploader write it while uploading, and afterwards whoever may edit the item's details
 * (supabase/migrations/20261203100000_item_sidecars.sql); an item's other objects stay as they were stored. It is
 * stored as `application/octet-stream` and served as an attachment, never as XML a browser would render.
 * What is not kept in step: an edit whose sidecar write fails (offline, the tab closed) leaves the sidecar as it
 * was until the item's next edit.
 */
import type { Item } from '../domain/entities';
import { AppError } from '../lib/app-error';
import { log } from '../lib/log';
import { type FilesPort, objectKeys } from './ports';

const IN_FLIGHT = 4;

export class SidecarWriter {
  /** The latest edited state of each item waiting for its sidecar, in the order they came. */
  private readonly waiting = new Map<string, Item>();
  private readonly writing = new Set<string>();
  private idle: { promise: Promise<void>; resolve: () => void } | null = null;

  constructor(private readonly files: Pick<FilesPort, 'read' | 'upload'>) {}

  /** Queues the sidecars of items just edited; returns at once. */
  write(items: readonly Item[]): void {
    for (const item of items) {
      if (item.status !== 'ready') continue;
      this.waiting.delete(item.id);
      this.waiting.set(item.id, item);
    }
    this.pump();
  }

  /** Resolves once every queued sidecar has been written or given up on. */
  settled(): Promise<void> {
    if (this.waiting.size === 0 && this.writing.size === 0) return Promise.resolve();
    if (!this.idle) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.idle = { promise, resolve };
    }
    return this.idle.promise;
  }

  private pump(): void {
    for (const [id, item] of this.waiting) {
      if (this.writing.size >= IN_FLIGHT) return;
      if (this.writing.has(id)) continue;
      this.waiting.delete(id);
      this.writing.add(id);
      void this.writeOne(item)
        .catch((e: unknown) => log.warn('The sidecar of an edited item could not be written', e))
        .finally(() => {
          this.writing.delete(id);
          this.pump();
          if (this.waiting.size === 0 && this.writing.size === 0 && this.idle) {
            this.idle.resolve();
            this.idle = null;
          }
        });
    }
  }

  private async writeOne(item: Item): Promise<void> {
    const key = objectKeys.sidecar(item.albumId, item.id);
    let base: string | null;
    try {
      base = await (await this.files.read(key)).text();
    } catch (e) {
      // Only a sidecar the bucket says is not there is written afresh: one that could not be read now would
      // lose the fields it keeps.
      if (!(e instanceof AppError && e.code === 'item/not-found')) throw e;
      base = null;
    }
    const { mergeXmpSidecar, SIDECAR_TYPE } = await import('../lib/xmp-sidecar');
    const bytes = mergeXmpSidecar(base, item);
    await this.files.upload({ key, blob: new Blob([bytes], { type: SIDECAR_TYPE }), contentType: SIDECAR_TYPE });
  }
}
