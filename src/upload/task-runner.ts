import { objectKeys, type UploadBackend, type UploadCheckpoint } from '../backend/ports';
import { limits } from '../config';
import type { ItemKind } from '../domain/entities';
import { AppError, isAbortError, throwIfAborted, toAppError } from '../lib/app-error';
import { boundItemMetadata } from '../lib/item-metadata';
import type { compressText, digestFile, processMedia } from '../media/media-client';
import type { StoredCompressed } from '../media/text-compression';
import type { sniffType } from '../media/sniff-type';
import type { QueueTasks } from './queue-tasks';
import type { StoredBlobRole } from './upload-store';
import {
  isActive,
  isNetworkStage,
  type ProcessedFacts,
  type UploadObject,
  type UploadObjectRole,
  type UploadTask,
} from './upload-task';
import { log } from '../lib/log';
import type { RetryPolicy } from '../lib/backoff';
import { fitWithin } from '../media/fit-within';
import { locationNote, locationRefusal, OriginalLocation } from './original-location';
import { StageRetries, TASK_RETRY } from './stage-retries';

// [Note: Resuming multipart uploads]
//
// An upload can stop anywhere: pause, a lost connection, a closed tab, a crash. Resuming must neither
// re-send what the bucket already holds nor store anything twice. The design:
//
// 1. Identity is fixed before a byte moves. The item id is the task id, chosen at enqueue and persisted;
//    `reserveItems` is idempotent on it; object keys derive from (album, item) only (`objectKeys`); and
//    `finalizeItem` is idempotent. Re-running any stage overwrites what it wrote before instead of adding
//    to it, so a resumed task never creates a second item or a second object.
// 2. Every stage persists its result before the task moves on, and `resumeStage()` (upload-task.ts) starts
//    a resumed task at the first stage without a persisted result: the type and SHA-256 after reading;
//    the processed facts and the derived blobs together (one transaction) after processing; `reserved`
//    and the object plan, then each object's `done` flag, while uploading. A task found in an active state
//    at start-up (the tab that ran it is gone) goes back to `queued` and resumes from there.
// 3. Inside one object the files adapter reports an `UploadCheckpoint` after every confirmed step; the
//    engine stores it with the task at once and hands it back to the next `files.upload` of that key.
//    The checkpoint's confirmed parts are the source of truth: a part listed there is never sent again.
//    - S3 adapter: the checkpoint holds the multipart `uploadId`, the `partSize` (kept on resume so part
//      boundaries never move) and each confirmed part's number, size and ETag. On resume the adapter
//      cross-checks with ListParts: a listed part is trusted only if the bucket agrees on size and ETag,
//      otherwise it is sent again (`upload/integrity`); an upload id the bucket no longer knows (aborted,
//      or expired by a lifecycle rule) starts a fresh multipart upload. CompleteMultipartUpload uses the
//      checkpoint's ETags. A part the bucket confirmed just before a crash, but whose checkpoint write was
//      lost, is simply sent again to the same part number, which replaces it: at most `partsInFlight`
//      parts are re-sent, never stored twice.
//    - Local adapter: the bytes only move from one place on the device to another, so it keeps no parts
//      and reports no checkpoint. It writes the whole object to a hidden sibling file and moves it over
//      the key when complete ([Note: Atomic local writes] in src/backend/local/local-files.ts): a key
//      holds a whole object or nothing, and a resumed upload writes the object again from its start.
// 4. Cancel aborts the run, then calls `files.abortUpload(key, checkpoint)` for unfinished objects (S3:
//    AbortMultipartUpload frees the stored parts), removes finished ones and marks the item failed. A
//    multipart upload created just before a crash, before its first checkpoint was stored, has no id
//    here; the S3 adapter lists the key's unfinished uploads and aborts them before it starts a new one
//    and on cancel (keys belong to one item), and `purge` aborts any still left after a day. An abort can lose an
//    answer whose work was done: `reserved` is stored before `reserveItems` is asked, so the item is
//    failed even then; and an item found `ready` (finalized, answer lost) keeps its objects.


/** The media pipeline's entry points; each loads on first use unless given. */
export interface MediaFns {
  process?: typeof processMedia;
  sniff?: typeof sniffType;
  hash?: typeof digestFile;
  compress?: typeof compressText;
}


export interface TaskRunnerDeps {
  backend: UploadBackend;
  tasks: QueueTasks;
  media: MediaFns;
  isOffline(): boolean;
  /** A network stage failed without an answer: true when the device is offline, so the task waits instead. */
  connectionLost(): Promise<boolean>;
  /** The engine stopped in this tab; whatever is still running winds down quietly. */
  isDisposed(): boolean;
  /** The original of task `id` went from `before` to `after` bytes sent (already in `tasks`). */
  onProgress(id: string, before: number, after: number): void;
  /** A done upload keeps its thumbnail in the queue (UploadEngineDeps.keepThumbnails). */
  keepThumbnails: boolean;
  /** Resolves once task `id` may use the network ([Note: Reading and sending overlap] in run-scheduler.ts). */
  networkSlot(id: string, signal: AbortSignal): Promise<void>;
  /** How often, and after how long, a network stage is tried again; see [Note: A file's upload tried again]. */
  retry?: RetryPolicy;
  /** Task `id` began or ended a wait before its network stage is tried again (`retryAt`). */
  onWaiting(id: string): void;
}

/** Cleaning up after a canceled upload gives up after this long. */
const CLEANUP_TIMEOUT_MS = 30_000;


function unlessNotFound(e: unknown): void {
  if (!(e instanceof AppError && e.code === 'item/not-found')) throw e;
}

/** The request got no answer at all (as opposed to an answer that refused it). */
function noAnswer(e: unknown): boolean {
  return e instanceof AppError && (e.code === 'offline' || e.code === 'backend/unreachable');
}

/** What goes up as the item's original: the user's file, or its preview (see [Note: An original that keeps its place]). */
interface SentOriginal {
  filename: string;
  mime: string;
  kind: ItemKind;
  bytes: number;
  sha256: string | null;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  /** Goes up gzip-compressed, this size. */
  stored?: StoredCompressed;
}

/** `IMG_1.HEIC` → `IMG_1.webp`: the name of a preview sent in place of its original. */
function previewName(filename: string, mime: string): string {
  const dot = filename.lastIndexOf('.');
  const stem = dot > 0 ? filename.slice(0, dot) : filename;
  return `${stem}.${mime === 'image/jpeg' ? 'jpg' : 'webp'}`;
}

/** The details the item is finished with. Cut to what the backend accepts: a file is never refused for its metadata. */
function itemMetadata(task: UploadTask, facts: ProcessedFacts, keepsSidecar: boolean) {
  return boundItemMetadata({
    ...facts.metadata,
    ...(facts.notice ? { notice: facts.notice } : {}),
    ...locationNote(task),
    ...(task.sidecar && keepsSidecar ? { sidecar: true as const } : {}),
  });
}

function blobRoleOf(role: UploadObjectRole): StoredBlobRole {
  if (role === 'original') return 'source';
  return role === 'thumb' ? 'thumb' : 'preview';
}

/**
 * One task's way into its album: reading → processing → uploading → finalizing, each stage persisted
 * before the next (see [Note: Resuming multipart uploads]); and, for an upload that will not finish,
 * freeing what the bucket already holds.
 */
export class TaskRunner {
  private readonly backend: UploadBackend;
  private readonly tasks: QueueTasks;
  private readonly location: OriginalLocation;
  private readonly retries: StageRetries;

  constructor(private readonly deps: TaskRunnerDeps) {
    this.backend = deps.backend;
    this.tasks = deps.tasks;
    this.location = new OriginalLocation(deps.backend);
    this.retries = new StageRetries(deps.retry ?? TASK_RETRY, deps.onWaiting);
  }

  /**
   * Runs the queued task `id` until it is done, failed, or stopped by `signal`. Whoever aborts the signal
   * puts the task where it belongs (paused, canceled, back in line); a fault here fails it.
   */
  async run(id: string, signal: AbortSignal): Promise<void> {
    try {
      await this.tasks.change(id, { type: 'start' });
      for (;;) {
        throwIfAborted(signal);
        const task = this.tasks.require(id);
        if (isNetworkStage(task.state) && this.deps.isOffline()) {
          // Local work is done; the network part waits in line for `online` instead of failing.
          await this.tasks.change(id, { type: 'interrupt' });
          return;
        }
        if (isNetworkStage(task.state)) await this.deps.networkSlot(id, signal);
        if (task.state === 'reading') await this.read(task, signal);
        else if (task.state === 'processing') await this.process(task, signal);
        else if (task.state === 'uploading') await this.upload(task, signal);
        else if (task.state === 'finalizing') await this.finalize(task, signal);
        else return;
        this.retries.succeeded(id);
      }
    } catch (e) {
      // Whoever stopped the run (pause, cancel, offline, dispose) has already put the task where it belongs.
      if (signal.aborted || this.deps.isDisposed()) return;
      const task = this.tasks.get(id);
      if (!task || !isActive(task.state)) return;
      if (isNetworkStage(task.state) && (this.deps.isOffline() || (noAnswer(e) && (await this.deps.connectionLost())))) {
        // Going offline may have stopped this run already, and put the task back in line.
        await this.backInLine(id, signal);
        return;
      }
      if (isNetworkStage(task.state)) {
        // [Note: A file's upload tried again]
        const next = await this.retries.wait(id, e, signal);
        if (next === 'stopped') return;
        if (next === 'again') {
          await this.backInLine(id, signal);
          return;
        }
      }
      if (!(e instanceof AppError) && !isAbortError(e)) log.warn('Upload failed', e);
      const error = toAppError(e, isNetworkStage(task.state) ? 'backend/unreachable' : 'upload/interrupted');
      await this.tasks.change(id, { type: 'fail', error: error.toJSON() });
    }
  }

  /** Puts task `id` back in line, unless something else has stopped it or moved it on already. */
  private async backInLine(id: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted || this.deps.isDisposed() || !isActive(this.tasks.get(id)?.state ?? 'done')) return;
    await this.tasks.change(id, { type: 'interrupt' });
  }

  /** While task `id` waits to be tried again: when (ms since the epoch); else null. */
  retryAt(id: string): number | null {
    return this.retries.retryAt(id);
  }

  /**
   * Best effort: frees what the bucket holds for an upload that will not finish, and fails its item. Resolves
   * `'arrived'` instead when the item is already ready in its album: it keeps its bytes.
   */
  async cleanUp(task: UploadTask): Promise<'cleaned' | 'arrived'> {
    const { files, items, itemWrites } = this.backend;
    const signal = AbortSignal.timeout(CLEANUP_TIMEOUT_MS);
    const objects = task.objects ?? [];
    if (objects.length > 0 && objects.every((o) => o.done)) {
      // Everything is up, so finalizeItem may have gone through with its answer lost to the abort: an item
      // that made it into the album keeps its bytes.
      const item = await items.getItem(task.albumId, task.id, { signal }).catch(() => null);
      if (item?.status === 'ready') return 'arrived';
    }
    const finished = objects.filter((o) => o.done).map((o) => o.key);
    // The sidecar goes up after every other object: it may be there once they all are.
    if (task.sidecar && objects.length > 0 && objects.every((o) => o.done) && this.backend.capabilities.storage.sidecars) {
      finished.push(objectKeys.sidecar(task.albumId, task.id));
    }
    const results = await Promise.allSettled([
      ...objects.filter((o) => !o.done).map((o) => files.abortUpload(o.key, o.checkpoint ?? undefined, { signal })),
      finished.length > 0 ? files.remove(finished, { signal }) : Promise.resolve(),
      // `reserved` is stored before the request is sent, so the reservation may never have been made.
      task.reserved ? itemWrites.failItem(task.albumId, task.id, { signal }).catch(unlessNotFound) : Promise.resolve(),
    ]);
    for (const r of results) if (r.status === 'rejected') log.warn('Upload clean-up did not finish', r.reason);
    return 'cleaned';
  }

  private async mediaFns(): Promise<{ process: typeof processMedia; sniff: typeof sniffType; hash: typeof digestFile; compress: typeof compressText }> {
    // Loaded on first use so the media code stays out of the first screen's bundle.
    const media = this.deps.media;
    const [process, sniff, hash, compress] = await Promise.all([
      media.process ?? import('../media/media-client').then((m) => m.processMedia),
      media.sniff ?? import('../media/sniff-type').then((m) => m.sniffType),
      media.hash ?? import('../media/media-client').then((m) => m.digestFile),
      media.compress ?? import('../media/media-client').then((m) => m.compressText),
    ]);
    return { process, sniff, hash, compress };
  }

  private async blob(id: string, role: StoredBlobRole): Promise<Blob> {
    const blob = await this.tasks.blob(id, role);
    if (blob) return blob;
    if (role === 'source') {
      throw new AppError('upload/interrupted', 'The file is no longer available here. Add it again.', { retryable: false });
    }
    // A derived copy went missing (storage was cleared): make it again on retry.
    await this.tasks.commit(id, AbortSignal.abort(), { processed: null, objects: null }, { advance: false }).catch(() => undefined);
    throw new AppError('upload/interrupted', 'The preview of this file has to be made again.');
  }

  private async read(task: UploadTask, signal: AbortSignal): Promise<void> {
    const source = await this.blob(task.id, 'source');
    const { sniff, hash } = await this.mediaFns();
    const sniffed = await sniff(source);
    throwIfAborted(signal);
    const location = await this.location.decide(task.albumId, source, signal);
    throwIfAborted(signal);
    const original = await this.location.original(source, location);
    // An original that goes up in one PUT has its MD5 taken in the same read (its Content-MD5); one kept on
    // this device goes up in no request (22 ms of a 24 MP photo's read stage, measured).
    const md5 = !this.backend.capabilities.storage.onDevice && original.size < limits().singlePutMaxBytes;
    const { sha256, md5: contentMd5 } = await hash(original, { signal, md5 });
    // A task stored before location was removed may have sent its original already: it goes up again.
    const replan = task.objects ? { objects: null, bytesDone: 0 } : {};
    await this.tasks.commit(task.id, signal, { sniffed, sha256, md5: contentMd5, location, ...replan }, { advance: true });
  }

  private async process(task: UploadTask, signal: AbortSignal): Promise<void> {
    const sniffed = task.sniffed;
    if (!sniffed) throw new AppError('upload/interrupted', 'The file type is not known yet.');
    const source = await this.blob(task.id, 'source');
    const { process, compress } = await this.mediaFns();
    const out = await process(source, sniffed, { signal, ...(task.sidecar ? { sidecar: task.sidecar } : {}) });
    // [Note: Text files are stored gzip-compressed]: the copy is made once and kept with the task.
    // Loaded only for files that are not photos or videos: the first photo's path stays as small as it was.
    const compressible = out.kind === 'file' && !task.location?.patches.length && (await import('../media/text-compression')).isCompressibleText(task.filename, out.mime, source.size);
    const packed = compressible ? await compress(source, { signal }) : null;
    throwIfAborted(signal);
    const stored: StoredCompressed | null = packed ? { encoding: 'gzip', bytes: packed.size } : null;
    const processed: ProcessedFacts = {
      kind: out.kind,
      mime: out.mime,
      width: out.width,
      height: out.height,
      durationMs: out.durationMs,
      takenAt: out.takenAt,
      thumbhash: out.thumbhash,
      metadata: out.metadata,
      notice: out.notice,
      hasPreview: out.preview !== null,
      hasThumb: out.thumb !== null,
      ...(out.derivedMd5 ? { derivedMd5: out.derivedMd5 } : {}),
      ...(stored ? { stored } : {}),
    };
    const derived = { preview: out.preview, thumb: out.thumb, packed };
    await this.tasks.commit(task.id, signal, { processed }, { advance: true, write: (t) => this.tasks.saveProcessed(t, derived) });
  }

  private async planObjects(task: UploadTask, facts: ProcessedFacts, sent: SentOriginal): Promise<UploadObject[]> {
    const objects: UploadObject[] = [
      {
        role: 'original',
        key: objectKeys.original(task.albumId, task.id),
        bytes: sent.stored?.bytes ?? sent.bytes,
        contentType: sent.mime || 'application/octet-stream',
        checkpoint: null,
        sentBytes: 0,
        done: false,
      },
    ];
    const derived: [UploadObjectRole, boolean][] = [
      [sent.kind === 'video' ? 'poster' : 'preview', facts.hasPreview],
      ['thumb', facts.hasThumb],
    ];
    for (const [role, present] of derived) {
      if (!present) continue;
      const blob = await this.blob(task.id, blobRoleOf(role));
      const key = objectKeys[role === 'poster' ? 'poster' : role === 'thumb' ? 'thumb' : 'preview'](task.albumId, task.id);
      objects.push({ role, key, bytes: blob.size, contentType: blob.type || 'image/webp', checkpoint: null, sentBytes: 0, done: false });
    }
    return objects;
  }

  private async upload(task: UploadTask, signal: AbortSignal): Promise<void> {
    const facts = task.processed;
    if (!facts) throw new AppError('upload/interrupted', 'The file has not been processed yet.');
    const refused = locationRefusal(task, facts);
    if (refused) throw refused;
    const sent = await this.sentOriginal(task, facts, signal);
    const { itemWrites, files } = this.backend;
    if (!task.reserved || task.objects === null) {
      // Stored before asking: a cancel that loses the answer must still know to free the reservation.
      if (!task.reserved) await this.tasks.commit(task.id, signal, { reserved: true }, { advance: false });
      await itemWrites.reserveItems(
        task.albumId,
        [{ id: task.id, filename: sent.filename, mime: sent.mime, kind: sent.kind, bytes: sent.bytes, ...(sent.sha256 ? { sha256: sent.sha256 } : {}), ...(sent.stored ? { stored: sent.stored } : {}) }],
        { signal },
      );
      const objects = await this.planObjects(task, facts, sent);
      await this.tasks.commit(task.id, signal, { objects }, { advance: false });
    }
    for (const planned of this.tasks.require(task.id).objects ?? []) {
      if (planned.done) continue;
      const original = planned.role === 'original';
      // The MD5 taken with the SHA-256 is of the user's file as uploaded: not of a preview or a packed copy sent instead.
      // A preview and a thumbnail come with theirs from the media worker (a video's poster with none).
      const md5 = !original
        ? planned.role === 'preview' || planned.role === 'thumb' ? facts.derivedMd5?.[planned.role] : null
        : task.original === 'preview'
          ? facts.derivedMd5?.preview
          : sent.stored
            ? null
            : task.md5;
      const blob = !original
        ? await this.blob(task.id, blobRoleOf(planned.role))
        : task.original === 'preview'
          ? await this.blob(task.id, 'preview')
          : sent.stored
            ? await this.blob(task.id, 'packed')
            : await this.location.original(await this.blob(task.id, 'source'), task.location);
      throwIfAborted(signal);
      await files.upload(
        {
          key: planned.key,
          blob,
          contentType: planned.contentType,
          ...(original ? { filename: task.filename } : {}),
          ...(md5 ? { contentMd5: md5 } : {}),
          ...(planned.checkpoint ? { checkpoint: planned.checkpoint } : {}),
        },
        {
          signal,
          onProgress: (sent) => this.onSent(task.id, planned.role, sent, signal),
          onCheckpoint: (checkpoint) => this.onCheckpoint(task.id, planned.role, checkpoint),
          onRetry: (at) => this.retries.adapterWaits(task.id, at),
        },
      );
      const current = this.tasks.require(task.id);
      await this.tasks.commit(
        task.id,
        signal,
        {
          objects: (current.objects ?? []).map((o) => (o.role === planned.role ? { ...o, done: true, sentBytes: o.bytes } : o)),
          ...(original ? { bytesDone: task.bytes } : {}),
        },
        { advance: false },
      );
    }
    if (task.sidecar && this.backend.capabilities.storage.sidecars) {
      const { storeSidecar } = await import('./stored-sidecar');
      await storeSidecar(files, objectKeys.sidecar(task.albumId, task.id), task.sidecar, task.location?.outcome === 'album-keeps', { metadata: itemMetadata(task, facts, this.backend.capabilities.storage.sidecars), takenAt: facts.takenAt }, signal);
    }
    await this.tasks.commit(task.id, signal, {}, { advance: true });
  }

  private async finalize(task: UploadTask, signal: AbortSignal): Promise<void> {
    const facts = task.processed;
    if (!facts) throw new AppError('upload/interrupted', 'The file has not been read yet.');
    const sent = await this.sentOriginal(task, facts, signal);
    if (!sent.sha256) throw new AppError('upload/interrupted', 'The file has not been read yet.');
    const objects = task.objects ?? [];
    await this.backend.itemWrites.finalizeItem(
      task.albumId,
      task.id,
      {
        sha256: sent.sha256,
        width: sent.width,
        height: sent.height,
        durationMs: sent.durationMs,
        takenAt: facts.takenAt,
        hasPreview: objects.some((o) => (o.role === 'preview' || o.role === 'poster') && o.done),
        hasThumb: objects.some((o) => o.role === 'thumb' && o.done),
        thumbhash: facts.thumbhash,
        // Cut to what the backend accepts: a file is never refused for its metadata.
        metadata: itemMetadata(task, facts, this.backend.capabilities.storage.sidecars),
      },
      { signal },
    );
    await this.tasks.commit(
      task.id,
      signal,
      { bytesDone: task.bytes },
      {
        advance: true,
        // Done: the bytes are in the album now, the queue's copies can go; the thumbnail stays for the uploads
        // list until the task leaves it.
        write: (t) => (t.state === 'done' ? this.tasks.saveAndDropBlobs(t, this.deps.keepThumbnails ? 'thumb' : undefined) : this.tasks.save(t)),
      },
    );
  }

  /** The original as the item records it; for a preview sent instead, hashed once and the hash stored. */
  private async sentOriginal(task: UploadTask, facts: ProcessedFacts, signal: AbortSignal): Promise<SentOriginal> {
    if (task.original !== 'preview') {
      return { filename: task.filename, mime: facts.mime, kind: facts.kind, bytes: task.bytes, sha256: task.sha256, width: facts.width, height: facts.height, durationMs: facts.durationMs, ...(facts.stored ? { stored: facts.stored } : {}) };
    }
    const preview = await this.blob(task.id, 'preview');
    let sha256 = task.previewSha256 ?? null;
    if (!sha256) {
      sha256 = (await (await this.mediaFns()).hash(preview, { signal })).sha256;
      await this.tasks.commit(task.id, signal, { previewSha256: sha256 }, { advance: false });
    }
    const mime = preview.type || 'image/webp';
    // The preview was drawn fitted within the preview's long edge (src/media/image-pipeline.ts).
    const size = facts.width && facts.height ? fitWithin(facts.width, facts.height, limits().previewLongEdge) : null;
    return { filename: previewName(task.filename, mime), mime, kind: 'image', bytes: preview.size, sha256, width: size?.width ?? null, height: size?.height ?? null, durationMs: null };
  }

  private onSent(id: string, role: UploadObjectRole, sent: number, signal: AbortSignal): void {
    if (signal.aborted) return;
    const task = this.tasks.get(id);
    if (!task || task.state !== 'uploading') return;
    const objects = (task.objects ?? []).map((o) => (o.role === role ? { ...o, sentBytes: sent } : o));
    if (role !== 'original') {
      this.tasks.set({ ...task, objects });
      return;
    }
    // A compressed original counts in the file's own bytes, as the queue shows its size.
    const planned = (task.objects ?? []).find((o) => o.role === 'original');
    const done = planned && planned.bytes > 0 && planned.bytes !== task.bytes ? Math.min(task.bytes, Math.round((sent * task.bytes) / planned.bytes)) : sent;
    this.tasks.set({ ...task, objects, bytesDone: done });
    this.deps.onProgress(id, task.bytesDone, done);
  }

  private onCheckpoint(id: string, role: UploadObjectRole, checkpoint: UploadCheckpoint): void {
    const task = this.tasks.get(id);
    // Confirmed parts stay confirmed even after a pause or a cancel (a cancel needs the upload id to abort).
    if (!task || task.state === 'done') return;
    const objects = (task.objects ?? []).map((o) => (o.role === role ? { ...o, checkpoint } : o));
    const next = { ...task, objects };
    this.tasks.set(next);
    void this.tasks.persist(next).catch((e: unknown) => {
      if (!this.deps.isDisposed()) log.warn('Upload checkpoint not stored', e);
    });
  }
}
