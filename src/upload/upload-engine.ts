import { objectKeys, type Backend, type ItemKind, type UploadCheckpoint } from '../backend/ports';
import { limits } from '../config';
import { AppError, isAbortError, throwIfAborted, toAppError, type SerializedAppError } from '../lib/app-error';
import type { hashFile, processMedia } from '../media/media-client';
import type { ProcessedMedia } from '../media/media-types';
import type { sniffType } from '../media/sniff-type';
import { claimRunnerLock, type RunnerRole } from './runner-lock';
import { SpeedMeter, etaSeconds, queueTotals } from './upload-progress';
import { DEFAULT_UPLOAD_DB, UploadStore, type StoredBlobRole } from './upload-store';
import {
  canTransition,
  createTask,
  isActive,
  resumeStage,
  transition,
  type ProcessedFacts,
  type TaskEvent,
  type TaskState,
  type UploadObject,
  type UploadObjectRole,
  type UploadTask,
} from './upload-task';

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
//    multipart upload created just before a crash, before its first checkpoint was stored, is unknown to
//    us; the bucket's lifecycle rule for incomplete multipart uploads cleans it up.

export interface UploadTaskView {
  id: string;
  albumId: string;
  filename: string;
  bytes: number;
  kind: ItemKind | null;
  state: TaskState;
  bytesDone: number;
  error: SerializedAppError | null;
  createdAt: string;
  speedBps: number;
  etaSeconds: number | null;
}

export interface QueueSnapshot {
  tasks: UploadTaskView[];
  totals: {
    filesTotal: number;
    filesDone: number;
    filesFailed: number;
    bytesTotal: number;
    bytesDone: number;
    speedBps: number;
    etaSeconds: number | null;
    /** Some task is being worked on. */
    running: boolean;
    /** Every unfinished task is paused. */
    paused: boolean;
    /** Network work is waiting for the connection to come back. */
    offline: boolean;
  };
}

export interface UploadEngineDeps {
  backend: Backend;
  dbName?: string;
  concurrency?: number;
  lockName?: string;
  process?: typeof processMedia;
  sniff?: typeof sniffType;
  hash?: typeof hashFile;
}

type CommandOp = 'pause' | 'resume' | 'cancel' | 'retry' | 'remove' | 'pauseAll' | 'resumeAll' | 'clearFinished';

type ChannelMessage =
  | { type: 'changed'; ids: string[] }
  | { type: 'progress'; id: string; bytesDone: number }
  | { type: 'command'; reqId: string; op: CommandOp; id: string | null }
  | { type: 'reply'; reqId: string; error: SerializedAppError | null };

interface Run {
  controller: AbortController;
  settled: Promise<void>;
}

/** One span from `start()` to `dispose()`; a start after a dispose begins a new one (React StrictMode does that). */
interface Life {
  controller: AbortController;
  /** Lets go of the runner lock. */
  release: () => void;
  released: Promise<void>;
  started: Promise<void>;
  store: UploadStore | null;
}

interface PendingCommand {
  op: CommandOp;
  id: string | null;
  resolve: () => void;
  reject: (e: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
}

const EMPTY_SNAPSHOT: QueueSnapshot = Object.freeze({
  tasks: [],
  totals: {
    filesTotal: 0,
    filesDone: 0,
    filesFailed: 0,
    bytesTotal: 0,
    bytesDone: 0,
    speedBps: 0,
    etaSeconds: null,
    running: false,
    paused: false,
    offline: false,
  },
}) as QueueSnapshot;

/** Progress notifications reach subscribers at most this often; state changes go out at once. */
const NOTIFY_INTERVAL_MS = 200;
const PROGRESS_POST_INTERVAL_MS = 250;
const COMMAND_TIMEOUT_MS = 10_000;
const CLEANUP_TIMEOUT_MS = 30_000;
/** How long pause and cancel wait for a run to notice its abort before they return. */
const STOP_WAIT_MS = 1500;

const now = () => performance.now();

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

function isNetworkStage(state: TaskState): boolean {
  return state === 'uploading' || state === 'finalizing';
}

function isQuotaError(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'QuotaExceededError';
}

function blobRoleOf(role: UploadObjectRole): StoredBlobRole {
  if (role === 'original') return 'source';
  return role === 'thumb' ? 'thumb' : 'preview';
}

function byCreation(a: UploadTask, b: UploadTask): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.order - b.order;
}

/**
 * The upload queue: persisted tasks (IndexedDB), three files at a time, pause/resume/cancel/retry, and
 * resumption after a reload or a crash (see [Note: Resuming multipart uploads]). One tab runs the queue
 * (Web Lock); the others show it and send their commands to the running tab over a BroadcastChannel.
 */
export class UploadEngine {
  private readonly backend: Backend;
  private readonly dbName: string;
  private readonly lockName: string;
  private readonly concurrency: number;
  private readonly media: Pick<UploadEngineDeps, 'process' | 'sniff' | 'hash'>;

  private store: UploadStore | null = null;
  /** Kept in creation order; the in-memory copy is the authority in the running tab. */
  private tasks = new Map<string, UploadTask>();
  /** Blobs IndexedDB had no room for: they survive only as long as this tab. */
  private readonly memoryBlobs = new Map<string, Blob>();
  private readonly runs = new Map<string, Run>();
  private readonly meters = new Map<string, SpeedMeter>();
  private readonly overall = new SpeedMeter();
  private sentTotal = 0;
  private role: RunnerRole | null = null;
  private channel: BroadcastChannel | null = null;
  private readonly pending = new Map<string, PendingCommand>();
  private readonly listeners = new Set<() => void>();
  private snapshot: QueueSnapshot = EMPTY_SNAPSHOT;
  private life: Life | null = null;
  /** Reloads and role changes happen one at a time, in order. */
  private serial: Promise<void> = Promise.resolve();

  private dirty = false;
  private flushQueued = false;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private lastFlush = -Infinity;
  private tick: ReturnType<typeof setInterval> | null = null;
  private changedIds = new Set<string>();
  private changedTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly lastProgressPost = new Map<string, number>();
  private online = typeof navigator === 'undefined' ? true : navigator.onLine !== false;

  constructor(deps: UploadEngineDeps) {
    this.backend = deps.backend;
    this.dbName = deps.dbName ?? DEFAULT_UPLOAD_DB;
    this.lockName = deps.lockName ?? `${this.dbName}:runner`;
    this.concurrency = Math.max(1, deps.concurrency ?? limits().filesInFlight);
    this.media = { process: deps.process, sniff: deps.sniff, hash: deps.hash };
  }

  // ------------------------------------------------------------------------------------------------------
  // Public API

  /** Loads the persisted queue; the tab that gets the runner lock resumes every unfinished task. */
  start(): Promise<void> {
    if (!this.life) {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const life: Life = { controller: new AbortController(), release, released, started: Promise.resolve(), store: null };
      this.life = life;
      life.started = this.boot(life);
    }
    return this.life.started;
  }

  async enqueue(albumId: string, files: File[]): Promise<UploadTaskView[]> {
    await this.start();
    const max = limits().maxFilesPerBatch;
    if (files.length > max) {
      throw new AppError('validation/invalid', `At most ${max.toLocaleString('en')} files can be added at once.`, {
        details: { field: 'files', max, given: files.length },
      });
    }
    if (files.length === 0) return [];
    const createdAt = new Date().toISOString();
    const maxBytes = limits().maxUploadBytes;
    const entries = files.map((file, order) => {
      let task = createTask({
        id: crypto.randomUUID(),
        albumId,
        filename: file.name,
        bytes: file.size,
        declaredType: file.type,
        lastModified: file.lastModified,
        createdAt,
        order,
      });
      if (file.size === 0) {
        task = transition(task, { type: 'fail', error: new AppError('upload/empty', 'The file is empty.', { retryable: false }).toJSON() }, createdAt);
      } else if (file.size > maxBytes) {
        const error = new AppError('upload/too-large', 'The file is larger than the upload limit.', {
          retryable: false,
          details: { maxBytes },
        });
        task = transition(task, { type: 'fail', error: error.toJSON() }, createdAt);
      }
      return { task, source: task.state === 'queued' ? (file as Blob) : null };
    });
    const store = this.requireStore();
    try {
      await store.addBatch(entries);
    } catch (e) {
      if (!isQuotaError(e)) throw toAppError(e, 'upload/interrupted');
      // No room to keep copies of the files: queue them anyway; they upload while this tab stays open.
      await store.addBatch(entries.map(({ task }) => ({ task, source: null })));
      for (const { task, source } of entries) if (source) this.memoryBlobs.set(`${task.id}:source`, source);
    }
    for (const { task } of entries) this.tasks.set(task.id, task);
    this.announce(entries.map(({ task }) => task.id));
    this.notify(true);
    this.pump();
    const at = now();
    return entries.map(({ task }) => this.viewOf(task, at));
  }

  pause(id: string): Promise<void> {
    return this.route('pause', id);
  }
  resume(id: string): Promise<void> {
    return this.route('resume', id);
  }
  cancel(id: string): Promise<void> {
    return this.route('cancel', id);
  }
  retry(id: string): Promise<void> {
    return this.route('retry', id);
  }
  remove(id: string): Promise<void> {
    return this.route('remove', id);
  }
  pauseAll(): Promise<void> {
    return this.route('pauseAll', null);
  }
  resumeAll(): Promise<void> {
    return this.route('resumeAll', null);
  }
  clearFinished(): Promise<void> {
    return this.route('clearFinished', null);
  }

  /** Bound, so it can be handed to `useSyncExternalStore` as it is. */
  readonly subscribe = (cb: () => void): (() => void) => {
    this.listeners.add(cb);
    return () => {
      this.listeners.delete(cb);
    };
  };

  /** The same object until something changed. Bound, like `subscribe`. */
  readonly getSnapshot = (): QueueSnapshot => this.snapshot;

  /** True while this tab holds the lock and runs the queue. */
  get isRunner(): boolean {
    return this.role === 'runner' && !this.disposed;
  }

  /**
   * Stops work in this tab without touching the persisted states, as closing the tab would: another tab
   * (or the next start) resumes every unfinished task. The runner lock is released once the runs stopped.
   */
  dispose(): void {
    const life = this.life;
    if (!life) return;
    this.life = null;
    this.role = null;
    life.controller.abort();
    for (const run of this.runs.values()) run.controller.abort();
    const settled = Promise.allSettled([...this.runs.values()].map((r) => r.settled));
    void settled.then(() => {
      life.release();
      life.store?.close();
      if (this.store === life.store) this.store = null;
    });
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(abortError());
    }
    this.pending.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.changedTimer) clearTimeout(this.changedTimer);
    this.flushTimer = null;
    this.changedTimer = null;
    this.changedIds.clear();
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    this.channel?.close();
    this.channel = null;
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.onOnline);
      window.removeEventListener('offline', this.onOffline);
    }
  }

  private get disposed(): boolean {
    return this.life === null;
  }

  // ------------------------------------------------------------------------------------------------------
  // Start-up, roles and the channel between tabs

  private async boot(life: Life): Promise<void> {
    const store = await UploadStore.open(this.dbName);
    if (this.life !== life) {
      store.close();
      return;
    }
    this.store = store;
    life.store = store;
    if (typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(`${this.dbName}:queue`);
      this.channel.onmessage = (ev: MessageEvent<ChannelMessage>) => this.onMessage(ev.data);
    }
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.onOnline);
      window.addEventListener('offline', this.onOffline);
    }
    // While bytes move, the speed shown must also fall when they stop moving.
    this.tick = setInterval(() => {
      if ([...this.tasks.values()].some((t) => t.state === 'uploading')) this.notify(false);
    }, 1000);
    const role = await claimRunnerLock({
      name: this.lockName,
      signal: life.controller.signal,
      release: life.released,
      onAcquire: () => this.enqueueSerial(() => this.becomeRunner(life)),
    });
    if (role === 'follower') await this.enqueueSerial(() => this.becomeFollower(life));
  }

  private enqueueSerial(fn: () => Promise<void>): Promise<void> {
    const next = this.serial.then(fn);
    this.serial = next.catch(() => undefined);
    return next;
  }

  private async becomeFollower(life: Life): Promise<void> {
    if (this.role === 'runner' || this.life !== life) return;
    this.role = 'follower';
    const rows = await this.requireStore().loadAll();
    if (this.role === 'follower' && this.life === life) this.replaceAll(rows);
  }

  private async becomeRunner(life: Life): Promise<void> {
    if (this.life !== life) return;
    this.role = 'runner';
    const rows = await this.requireStore().loadAll();
    if (this.life !== life) return;
    this.replaceAll(rows);
    // Tasks left in an active state belonged to a tab that is gone: back in line, resumed from what was stored.
    await Promise.all(
      [...this.tasks.values()].filter((t) => isActive(t.state)).map((t) => this.change(t.id, { type: 'interrupt' })),
    );
    this.pump();
    // Commands this tab sent to the runner that went away are ours to carry out now.
    for (const [reqId, p] of this.pending) {
      this.pending.delete(reqId);
      clearTimeout(p.timer);
      this.exec(p.op, p.id).then(p.resolve, p.reject);
    }
  }

  private replaceAll(rows: UploadTask[]): void {
    rows.sort(byCreation);
    const live = this.tasks;
    this.tasks = new Map(rows.map((t) => [t.id, this.keepLiveProgress(live.get(t.id), t)]));
    this.notify(true);
  }

  /** Progress messages run ahead of persisted progress; keep the larger figure for the same object. */
  private keepLiveProgress(live: UploadTask | undefined, stored: UploadTask): UploadTask {
    if (!live || live.state !== stored.state || live.bytesDone <= stored.bytesDone) return stored;
    return { ...stored, bytesDone: live.bytesDone };
  }

  private onMessage(msg: ChannelMessage): void {
    if (this.disposed) return;
    switch (msg.type) {
      case 'changed':
        void this.enqueueSerial(() => this.reload(msg.ids)).catch((e: unknown) => console.warn('Upload queue reload failed', e));
        return;
      case 'progress': {
        if (this.role === 'runner') return;
        const task = this.tasks.get(msg.id);
        if (!task) return;
        this.trackProgress(msg.id, task.bytesDone, msg.bytesDone);
        this.tasks.set(msg.id, { ...task, bytesDone: msg.bytesDone });
        this.notify(false);
        return;
      }
      case 'command':
        if (this.role !== 'runner') return;
        this.exec(msg.op, msg.id).then(
          () => this.post({ type: 'reply', reqId: msg.reqId, error: null }),
          (e: unknown) => this.post({ type: 'reply', reqId: msg.reqId, error: toAppError(e, 'validation/invalid').toJSON() }),
        );
        return;
      case 'reply': {
        const p = this.pending.get(msg.reqId);
        if (!p) return;
        this.pending.delete(msg.reqId);
        clearTimeout(p.timer);
        if (msg.error) p.reject(AppError.fromJSON(msg.error));
        else p.resolve();
        return;
      }
    }
  }

  /** Another tab changed these tasks in the store. */
  private async reload(ids: string[]): Promise<void> {
    if (this.role === null || this.disposed) return;
    const rows = await this.requireStore().loadMany(ids);
    if (this.role === 'runner') {
      // The running tab owns every task it knows; only tasks another tab added are news to it.
      let added = false;
      for (const [id, row] of rows) {
        if (row && !this.tasks.has(id)) {
          this.tasks.set(id, row);
          added = true;
        }
      }
      if (added) {
        this.notify(true);
        this.pump();
      }
      return;
    }
    for (const [id, row] of rows) {
      if (row) this.tasks.set(id, this.keepLiveProgress(this.tasks.get(id), row));
      else {
        this.tasks.delete(id);
        this.meters.delete(id);
      }
    }
    this.notify(true);
  }

  private post(msg: ChannelMessage): void {
    if (this.disposed || !this.channel) return;
    try {
      this.channel.postMessage(msg);
    } catch (e) {
      console.warn('Upload queue could not tell other tabs', e);
    }
  }

  /** Tells other tabs which tasks changed in the store, a few at a time. */
  private announce(ids: readonly string[]): void {
    for (const id of ids) this.changedIds.add(id);
    this.changedTimer ??= setTimeout(() => {
      this.changedTimer = null;
      const changed = [...this.changedIds];
      this.changedIds.clear();
      this.post({ type: 'changed', ids: changed });
    }, 30);
  }

  private async route(op: CommandOp, id: string | null): Promise<void> {
    await this.start();
    if (this.disposed) throw abortError();
    if (this.role === 'runner' || !this.channel) return this.exec(op, id);
    return new Promise<void>((resolve, reject) => {
      const reqId = crypto.randomUUID();
      const timer = setTimeout(() => {
        this.pending.delete(reqId);
        reject(new AppError('upload/interrupted', 'The tab running the uploads did not answer. Try again.'));
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(reqId, { op, id, resolve, reject, timer });
      this.post({ type: 'command', reqId, op, id });
    });
  }

  private readonly onOnline = () => {
    this.online = true;
    this.notify(true);
    this.pump();
  };

  private readonly onOffline = () => {
    this.online = false;
    this.notify(true);
    if (this.role !== 'runner' || this.backend.kind === 'local') return;
    // Offline pauses network work instead of failing it: those tasks wait in line for `online`.
    for (const [id, run] of this.runs) {
      const task = this.tasks.get(id);
      if (task && isNetworkStage(task.state)) {
        void this.change(id, { type: 'interrupt' }).catch(() => undefined);
        run.controller.abort();
      }
    }
  };

  /** The local backend needs no network; any other waits for it. */
  private isOffline(): boolean {
    return this.backend.kind !== 'local' && !this.online;
  }

  // ------------------------------------------------------------------------------------------------------
  // Commands (carried out in the running tab)

  private async exec(op: CommandOp, id: string | null): Promise<void> {
    switch (op) {
      case 'pause':
        return this.pauseTask(this.require(id).id);
      case 'resume':
        await this.change(this.require(id).id, { type: 'resume' });
        this.pump();
        return;
      case 'retry':
        await this.change(this.require(id).id, { type: 'retry' });
        this.pump();
        return;
      case 'cancel':
        return this.cancelTask(this.require(id).id);
      case 'remove':
        return this.removeTask(this.require(id));
      case 'pauseAll':
        await Promise.all([...this.tasks.values()].filter((t) => canTransition(t, 'pause')).map((t) => this.pauseTask(t.id)));
        return;
      case 'resumeAll':
        await Promise.all([...this.tasks.values()].filter((t) => t.state === 'paused').map((t) => this.change(t.id, { type: 'resume' })));
        this.pump();
        return;
      case 'clearFinished': {
        const ids = [...this.tasks.values()].filter((t) => t.state === 'done' || t.state === 'canceled').map((t) => t.id);
        if (ids.length === 0) return;
        await this.requireStore().delete(ids);
        for (const tid of ids) this.forget(tid);
        this.announce(ids);
        this.notify(true);
        return;
      }
    }
  }

  private async pauseTask(id: string): Promise<void> {
    await this.change(id, { type: 'pause' });
    await this.stopRun(id);
  }

  private async cancelTask(id: string): Promise<void> {
    await this.change(id, { type: 'cancel' });
    const run = this.runs.get(id);
    // The bytes and the bucket's copies are let go only once the run has really stopped writing.
    const finish = (run ? run.settled : Promise.resolve()).then(async () => {
      const task = this.tasks.get(id);
      if (!task || task.state !== 'canceled') return;
      await this.requireStore().saveAndDropBlobs(task);
      this.dropMemoryBlobs(id);
      this.announce([id]);
      await this.cleanUp(task);
    });
    await this.stopRun(id);
    await Promise.race([finish, delay(STOP_WAIT_MS)]);
    finish.catch((e: unknown) => console.warn('Canceled upload not cleaned up', e));
  }

  private async removeTask(task: UploadTask): Promise<void> {
    if (task.state !== 'failed' && task.state !== 'canceled' && task.state !== 'done') {
      throw new AppError('validation/invalid', `An upload that is ${task.state} cannot be removed; cancel it first.`, {
        details: { from: task.state, event: 'remove' },
      });
    }
    await this.stopRun(task.id);
    if (task.state === 'failed') await this.cleanUp(task);
    await this.requireStore().delete([task.id]);
    this.forget(task.id);
    this.announce([task.id]);
    this.notify(true);
  }

  /**
   * Aborts the task's run and waits until it stopped, or STOP_WAIT_MS at most: a stage slow to notice its
   * abort must not hold the caller. The task is not run again before its previous run has settled.
   */
  private async stopRun(id: string): Promise<void> {
    const run = this.runs.get(id);
    if (!run) return;
    run.controller.abort();
    await Promise.race([run.settled, delay(STOP_WAIT_MS)]);
  }

  /** Best effort: frees what the bucket holds for an upload that will not finish, and fails its item. */
  private async cleanUp(task: UploadTask): Promise<void> {
    const { files, data } = this.backend;
    const signal = AbortSignal.timeout(CLEANUP_TIMEOUT_MS);
    const objects = task.objects ?? [];
    const finished = objects.filter((o) => o.done).map((o) => o.key);
    const results = await Promise.allSettled([
      ...objects.filter((o) => !o.done).map((o) => files.abortUpload(o.key, o.checkpoint ?? undefined, { signal })),
      finished.length > 0 ? files.remove(finished, { signal }) : Promise.resolve(),
      task.reserved ? data.failItem(task.albumId, task.id, { signal }) : Promise.resolve(),
    ]);
    for (const r of results) if (r.status === 'rejected') console.warn('Upload clean-up did not finish', r.reason);
  }

  private forget(id: string): void {
    this.tasks.delete(id);
    this.meters.delete(id);
    this.lastProgressPost.delete(id);
    this.dropMemoryBlobs(id);
  }

  private dropMemoryBlobs(id: string): void {
    for (const role of ['source', 'preview', 'thumb'] as const) this.memoryBlobs.delete(`${id}:${role}`);
  }

  // ------------------------------------------------------------------------------------------------------
  // State changes and persistence

  private require(id: string | null): UploadTask {
    const task = id === null ? undefined : this.tasks.get(id);
    if (!task) throw new AppError('validation/invalid', 'This upload is no longer in the queue.', { details: { id } });
    return task;
  }

  private requireStore(): UploadStore {
    if (!this.store) throw new AppError('upload/interrupted', 'The upload queue is not open.');
    return this.store;
  }

  /** Applies an event at once in memory, then persists it. */
  private change(id: string, event: TaskEvent): Promise<void> {
    const next = transition(this.require(id), event);
    this.tasks.set(id, next);
    this.notify(true);
    return this.persist(next);
  }

  private async persist(task: UploadTask, write?: (store: UploadStore) => Promise<void>): Promise<void> {
    const store = this.requireStore();
    await (write ? write(store) : store.put(task));
    this.announce([task.id]);
  }

  /**
   * Records what a stage learnt and, unless the run was stopped meanwhile, moves the task to the next
   * stage. The facts are kept even for a paused or interrupted task: they hold, and spare redoing the work.
   */
  private async commit(
    id: string,
    signal: AbortSignal,
    patch: Partial<UploadTask>,
    opts: { advance: boolean; write?: (store: UploadStore, task: UploadTask) => Promise<void> },
  ): Promise<void> {
    const current = this.tasks.get(id);
    if (!current || current.state === 'canceled' || current.state === 'done') throw abortError();
    let next: UploadTask = { ...current, ...patch, updatedAt: new Date().toISOString() };
    if (opts.advance && !signal.aborted && isActive(current.state)) next = transition(next, { type: 'advance' });
    this.tasks.set(id, next);
    this.notify(true);
    const write = opts.write;
    await this.persist(next, write ? (store) => write(store, next) : undefined);
    throwIfAborted(signal);
  }

  // ------------------------------------------------------------------------------------------------------
  // Scheduling and the pipeline

  private pump(): void {
    if (this.role !== 'runner' || this.disposed) return;
    for (const task of this.tasks.values()) {
      if (this.runs.size >= this.concurrency) return;
      if (task.state !== 'queued' || this.runs.has(task.id)) continue;
      if (this.isOffline() && isNetworkStage(resumeStage(task))) continue;
      this.launch(task.id);
    }
  }

  private launch(id: string): void {
    const controller = new AbortController();
    const run: Run = { controller, settled: Promise.resolve() };
    run.settled = this.runTask(id, controller.signal)
      .catch((e: unknown) => console.warn('Upload run ended unexpectedly', e))
      .finally(() => {
        if (this.runs.get(id) === run) this.runs.delete(id);
        this.meters.get(id)?.reset();
        this.notify(true);
        this.pump();
      });
    this.runs.set(id, run);
  }

  private async runTask(id: string, signal: AbortSignal): Promise<void> {
    try {
      await this.change(id, { type: 'start' });
      for (;;) {
        throwIfAborted(signal);
        const task = this.require(id);
        if (isNetworkStage(task.state) && this.isOffline()) {
          // Local work is done; the network part waits in line for `online` instead of failing.
          await this.change(id, { type: 'interrupt' });
          return;
        }
        if (task.state === 'reading') await this.read(task, signal);
        else if (task.state === 'processing') await this.process(task, signal);
        else if (task.state === 'uploading') await this.upload(task, signal);
        else if (task.state === 'finalizing') await this.finalize(task, signal);
        else return;
      }
    } catch (e) {
      // Whoever stopped the run (pause, cancel, offline, dispose) has already put the task where it belongs.
      if (signal.aborted || this.disposed) return;
      const task = this.tasks.get(id);
      if (!task || !isActive(task.state)) return;
      if (this.isOffline() && isNetworkStage(task.state)) {
        await this.change(id, { type: 'interrupt' });
        return;
      }
      if (!(e instanceof AppError) && !isAbortError(e)) console.warn('Upload failed', e);
      const error = toAppError(e, isNetworkStage(task.state) ? 'backend/unreachable' : 'upload/interrupted');
      await this.change(id, { type: 'fail', error: error.toJSON() });
    }
  }

  private async mediaFns(): Promise<{ process: typeof processMedia; sniff: typeof sniffType; hash: typeof hashFile }> {
    // Loaded on first use so the media code stays out of the first screen's bundle.
    const [process, sniff, hash] = await Promise.all([
      this.media.process ?? import('../media/media-client').then((m) => m.processMedia),
      this.media.sniff ?? import('../media/sniff-type').then((m) => m.sniffType),
      this.media.hash ?? import('../media/media-client').then((m) => m.hashFile),
    ]);
    return { process, sniff, hash };
  }

  private async blob(id: string, role: StoredBlobRole): Promise<Blob> {
    const blob = this.memoryBlobs.get(`${id}:${role}`) ?? (await this.requireStore().getBlob(id, role));
    if (blob) return blob;
    if (role === 'source') {
      throw new AppError('upload/interrupted', 'The file is no longer available here. Add it again.', { retryable: false });
    }
    // A derived copy went missing (storage was cleared): make it again on retry.
    await this.commit(id, AbortSignal.abort(), { processed: null, objects: null }, { advance: false }).catch(() => undefined);
    throw new AppError('upload/interrupted', 'The preview of this file has to be made again.');
  }

  private async read(task: UploadTask, signal: AbortSignal): Promise<void> {
    const source = await this.blob(task.id, 'source');
    const { sniff, hash } = await this.mediaFns();
    const sniffed = await sniff(source);
    throwIfAborted(signal);
    const sha256 = await hash(source, { signal });
    await this.commit(task.id, signal, { sniffed, sha256 }, { advance: true });
  }

  private async process(task: UploadTask, signal: AbortSignal): Promise<void> {
    const sniffed = task.sniffed;
    if (!sniffed) throw new AppError('upload/interrupted', 'The file type is not known yet.');
    const source = await this.blob(task.id, 'source');
    const { process } = await this.mediaFns();
    const out = await process(source, sniffed, { signal });
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
    };
    await this.commit(task.id, signal, { processed }, { advance: true, write: (store, t) => this.saveProcessed(store, t, out) });
  }

  private async saveProcessed(store: UploadStore, task: UploadTask, out: ProcessedMedia): Promise<void> {
    try {
      await store.saveProcessed(task, { preview: out.preview, thumb: out.thumb });
    } catch (e) {
      if (!isQuotaError(e)) throw e;
      await store.put(task);
      if (out.preview) this.memoryBlobs.set(`${task.id}:preview`, out.preview);
      if (out.thumb) this.memoryBlobs.set(`${task.id}:thumb`, out.thumb);
    }
  }

  private async planObjects(task: UploadTask, facts: ProcessedFacts): Promise<UploadObject[]> {
    const objects: UploadObject[] = [
      {
        role: 'original',
        key: objectKeys.original(task.albumId, task.id),
        bytes: task.bytes,
        contentType: facts.mime || 'application/octet-stream',
        checkpoint: null,
        sentBytes: 0,
        done: false,
      },
    ];
    const derived: [UploadObjectRole, boolean][] = [
      [facts.kind === 'video' ? 'poster' : 'preview', facts.hasPreview],
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
    const { data, files } = this.backend;
    if (!task.reserved || task.objects === null) {
      await data.reserveItems(
        task.albumId,
        [{ id: task.id, filename: task.filename, mime: facts.mime, kind: facts.kind, bytes: task.bytes }],
        { signal },
      );
      const objects = await this.planObjects(task, facts);
      await this.commit(task.id, signal, { reserved: true, objects }, { advance: false });
    }
    for (const planned of this.require(task.id).objects ?? []) {
      if (planned.done) continue;
      const blob = await this.blob(task.id, blobRoleOf(planned.role));
      throwIfAborted(signal);
      const original = planned.role === 'original';
      await files.upload(
        {
          key: planned.key,
          blob,
          contentType: planned.contentType,
          ...(original ? { filename: task.filename } : {}),
          ...(planned.checkpoint ? { checkpoint: planned.checkpoint } : {}),
        },
        {
          signal,
          onProgress: (sent) => this.onSent(task.id, planned.role, sent, signal),
          onCheckpoint: (checkpoint) => this.onCheckpoint(task.id, planned.role, checkpoint),
        },
      );
      const current = this.require(task.id);
      await this.commit(
        task.id,
        signal,
        {
          objects: (current.objects ?? []).map((o) => (o.role === planned.role ? { ...o, done: true, sentBytes: o.bytes } : o)),
          ...(original ? { bytesDone: task.bytes } : {}),
        },
        { advance: false },
      );
    }
    await this.commit(task.id, signal, {}, { advance: true });
  }

  private async finalize(task: UploadTask, signal: AbortSignal): Promise<void> {
    const facts = task.processed;
    if (!facts || !task.sha256) throw new AppError('upload/interrupted', 'The file has not been read yet.');
    const objects = task.objects ?? [];
    await this.backend.data.finalizeItem(
      task.albumId,
      task.id,
      {
        sha256: task.sha256,
        width: facts.width,
        height: facts.height,
        durationMs: facts.durationMs,
        takenAt: facts.takenAt,
        hasPreview: objects.some((o) => (o.role === 'preview' || o.role === 'poster') && o.done),
        hasThumb: objects.some((o) => o.role === 'thumb' && o.done),
        thumbhash: facts.thumbhash,
        metadata: facts.notice ? { ...facts.metadata, notice: facts.notice } : facts.metadata,
      },
      { signal },
    );
    await this.commit(
      task.id,
      signal,
      { bytesDone: task.bytes },
      {
        advance: true,
        // Done: the bytes are in the album now, the queue's copies can go.
        write: async (store, t) => {
          if (t.state !== 'done') return store.put(t);
          await store.saveAndDropBlobs(t);
          this.dropMemoryBlobs(t.id);
        },
      },
    );
  }

  private onSent(id: string, role: UploadObjectRole, sent: number, signal: AbortSignal): void {
    if (signal.aborted) return;
    const task = this.tasks.get(id);
    if (!task || task.state !== 'uploading') return;
    const objects = (task.objects ?? []).map((o) => (o.role === role ? { ...o, sentBytes: sent } : o));
    if (role !== 'original') {
      this.tasks.set(id, { ...task, objects });
      return;
    }
    this.trackProgress(id, task.bytesDone, sent);
    this.tasks.set(id, { ...task, objects, bytesDone: sent });
    this.notify(false);
    const t = now();
    if (t - (this.lastProgressPost.get(id) ?? -Infinity) >= PROGRESS_POST_INTERVAL_MS) {
      this.lastProgressPost.set(id, t);
      this.post({ type: 'progress', id, bytesDone: sent });
    }
  }

  private onCheckpoint(id: string, role: UploadObjectRole, checkpoint: UploadCheckpoint): void {
    const task = this.tasks.get(id);
    // Confirmed parts stay confirmed even after a pause or a cancel (a cancel needs the upload id to abort).
    if (!task || task.state === 'done') return;
    const objects = (task.objects ?? []).map((o) => (o.role === role ? { ...o, checkpoint } : o));
    const next = { ...task, objects };
    this.tasks.set(id, next);
    void this.persist(next).catch((e: unknown) => {
      if (!this.disposed) console.warn('Upload checkpoint not stored', e);
    });
  }

  // ------------------------------------------------------------------------------------------------------
  // Progress and the snapshot

  private trackProgress(id: string, before: number, after: number): void {
    const t = now();
    if (after > before) {
      this.sentTotal += after - before;
      this.overall.push(this.sentTotal, t);
    }
    let meter = this.meters.get(id);
    if (!meter) {
      meter = new SpeedMeter();
      this.meters.set(id, meter);
    }
    meter.push(after, t);
  }

  /** `urgent`: a state change, sent out at once; otherwise progress, sent at most every 200 ms. */
  private notify(urgent: boolean): void {
    this.dirty = true;
    if (urgent) {
      if (!this.flushQueued) {
        this.flushQueued = true;
        queueMicrotask(() => this.flush());
      }
      return;
    }
    if (this.flushTimer !== null) return;
    const wait = Math.max(0, this.lastFlush + NOTIFY_INTERVAL_MS - now());
    this.flushTimer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.flushTimer !== null) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (!this.dirty) return;
    this.dirty = false;
    const at = now();
    this.lastFlush = at;
    this.snapshot = this.build(at);
    for (const cb of [...this.listeners]) cb();
  }

  private speedOf(task: UploadTask, at: number): number {
    if (task.state !== 'uploading') return 0;
    return this.meters.get(task.id)?.rate(at) ?? 0;
  }

  private viewOf(task: UploadTask, at: number): UploadTaskView {
    const speedBps = this.speedOf(task, at);
    const bytesDone = task.state === 'done' ? task.bytes : Math.min(task.bytes, task.bytesDone);
    return {
      id: task.id,
      albumId: task.albumId,
      filename: task.filename,
      bytes: task.bytes,
      kind: task.processed?.kind ?? task.sniffed?.kind ?? null,
      state: task.state,
      bytesDone,
      error: task.error,
      createdAt: task.createdAt,
      speedBps,
      etaSeconds: task.state === 'done' ? 0 : task.state === 'uploading' ? etaSeconds(task.bytes - bytesDone, speedBps) : null,
    };
  }

  private build(at: number): QueueSnapshot {
    const all = [...this.tasks.values()];
    const base = queueTotals(all);
    const speedBps = all.some((t) => t.state === 'uploading') ? this.overall.rate(at) : 0;
    const unfinished = all.filter((t) => t.state === 'queued' || t.state === 'paused' || isActive(t.state));
    return {
      tasks: all.map((t) => this.viewOf(t, at)),
      totals: {
        filesTotal: base.filesTotal,
        filesDone: base.filesDone,
        filesFailed: base.filesFailed,
        bytesTotal: base.bytesTotal,
        bytesDone: base.bytesDone,
        speedBps,
        etaSeconds: etaSeconds(base.bytesRemaining, speedBps),
        running: all.some((t) => isActive(t.state)),
        paused: unfinished.length > 0 && unfinished.every((t) => t.state === 'paused'),
        offline: this.isOffline(),
      },
    };
  }
}
