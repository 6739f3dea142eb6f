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
 * A write that fails is not lost: each edited item is kept on the device until its sidecar is written
 * (sidecar-outbox.ts). A write that could succeed later (offline, a server that did not answer) is tried again
 * when the browser is back online and after a growing wait, and the next time the app starts if the tab closed
 * first; one refused for good (the item gone, the editor's role taken away) is given up. The sidecar says when
 * the item was last edited (`xmp:MetadataDate`), so an edit written late never overwrites a later one that another
 * member's device wrote first.
 */
import type { Item } from '../domain/entities';
import { AppError } from '../lib/app-error';
import { log } from '../lib/log';
import { type FilesPort, objectKeys } from './ports';
import type { SidecarOutbox } from './sidecar-outbox';

/** Where owed writes are kept (sidecar-outbox.ts). */
type Outbox = Pick<SidecarOutbox, 'keep' | 'settled' | 'owed' | 'close'>;

const IN_FLIGHT = 4;
/** The first wait before owed writes are tried again, doubled after each failure up to the last. */
const RETRY_FIRST_MS = 15_000;
const RETRY_LAST_MS = 10 * 60_000;

/** A failure that trying again may mend: the network, a server that did not answer. */
const worthRetrying = (e: unknown) => (e instanceof AppError ? e.retryable : !(e instanceof Error && e.name === 'AbortError'));

export class SidecarWriter {
  /** The latest edited state of each item waiting for its sidecar, in the order they came. */
  private readonly waiting = new Map<string, Item>();
  private readonly writing = new Set<string>();
  private idle: { promise: Promise<void>; resolve: () => void } | null = null;
  private outbox: Promise<Outbox | null> = Promise.resolve(null);
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryWait = RETRY_FIRST_MS;
  private readonly online = () => this.retry();

  constructor(private readonly files: Pick<FilesPort, 'read' | 'upload'>) {}

  /**
   * Keeps owed writes in `outbox` from now on (null: nowhere, as when nobody is signed in), and writes those it
   * already holds. The one before is closed.
   */
  useOutbox(outbox: Promise<Outbox> | null): void {
    const before = this.outbox;
    void before.then((o) => o?.close());
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.retryWait = RETRY_FIRST_MS;
    this.outbox = outbox ? outbox.catch((e: unknown) => (log.warn('Owed sidecar writes cannot be kept on this device', e), null)) : Promise.resolve(null);
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.online);
      if (outbox) window.addEventListener('online', this.online);
    }
    if (outbox) this.retry();
  }

  /** Queues the sidecars of items just edited; returns at once. */
  write(items: readonly Item[]): void {
    const ready = items.filter((item) => item.status === 'ready');
    if (ready.length === 0) return;
    void this.outbox.then((o) => o?.keep(ready)).catch((e: unknown) => log.warn('Owed sidecar writes could not be kept', e));
    this.queue(ready);
  }

  private queue(items: readonly Item[]): void {
    for (const item of items) {
      this.waiting.delete(item.id);
      this.waiting.set(item.id, item);
    }
    this.pump();
  }

  /** Queues again what the outbox holds and is not already waiting or being written. */
  private retry(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.outbox
      .then(async (o) => (o ? o.owed() : []))
      .then((owed) => this.queue(owed.filter((item) => !this.waiting.has(item.id) && !this.writing.has(item.id))))
      .catch((e: unknown) => log.warn('Owed sidecar writes could not be read', e));
  }

  private retryLater(): void {
    if (this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => this.retry(), this.retryWait);
    this.retryWait = Math.min(this.retryWait * 2, RETRY_LAST_MS);
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
        .then(
          () => {
            this.retryWait = RETRY_FIRST_MS;
            return this.settle(item);
          },
          (e: unknown) => {
            log.warn('The sidecar of an edited item could not be written', e);
            // Kept in the outbox and tried again later; one refused for good is given up.
            if (worthRetrying(e)) this.retryLater();
            else return this.settle(item);
          },
        )
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

  private async settle(item: Item): Promise<void> {
    try {
      await (await this.outbox)?.settled(item);
    } catch (e) {
      log.warn('A written sidecar could not be struck from the owed ones', e);
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
    const { mergeXmpSidecar, SIDECAR_TYPE, editedLater } = await import('../lib/xmp-sidecar');
    // Another device wrote a later edit first: this one is out of date.
    if (base !== null && editedLater(base, item.editedAt)) return;
    const bytes = mergeXmpSidecar(base, item);
    await this.files.upload({ key, blob: new Blob([bytes], { type: SIDECAR_TYPE }), contentType: SIDECAR_TYPE });
  }
}
