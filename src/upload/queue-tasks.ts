import { AppError, throwIfAborted, toAppError } from '../lib/app-error';
import { abortError } from '../lib/app-error';
import { BLOB_ROLES, UploadStore, type StoredBlobRole } from './upload-store';
import { isActive, transition, type TaskEvent, type UploadTask } from './upload-task';

export interface QueueTasksHooks {
  /** A task changed in memory: subscribers should hear of it at once. */
  changed(): void;
  /** A task was written to the store: other tabs should hear of it. */
  persisted(id: string): void;
}

export interface CommitOptions {
  /** Move the task to its next stage, unless the run was stopped meanwhile. */
  advance: boolean;
  /** Writes the task in place of a plain `put`, e.g. together with its blobs. */
  write?: (task: UploadTask) => Promise<void>;
}

function isQuotaError(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'QuotaExceededError';
}

function byCreation(a: UploadTask, b: UploadTask): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.order - b.order;
}

/**
 * The queue's tasks as this tab knows them, and their way into the upload store: every change is applied
 * in memory at once (the running tab's copy is the authority), then persisted. When IndexedDB has no room
 * for a file's bytes, they are kept in memory instead and upload as long as this tab stays open.
 */
export class QueueTasks {
  /** Kept in creation order. */
  private tasks = new Map<string, UploadTask>();
  /** Blobs IndexedDB had no room for: they survive only as long as this tab. */
  private readonly memoryBlobs = new Map<string, Blob>();
  private store: UploadStore | null = null;

  constructor(private readonly hooks: QueueTasksHooks) {}

  // ------------------------------------------------------------------------------------------------------
  // In memory

  get(id: string): UploadTask | undefined {
    return this.tasks.get(id);
  }

  values(): IterableIterator<UploadTask> {
    return this.tasks.values();
  }

  /** Sets the in-memory copy only; `change`, `commit` and `persist` also store it. */
  set(task: UploadTask): void {
    this.tasks.set(task.id, task);
  }

  /** The task is gone from the queue: its in-memory bytes go too. */
  forget(id: string): void {
    this.tasks.delete(id);
    this.dropMemoryBlobs(id);
  }

  require(id: string | null): UploadTask {
    const task = id === null ? undefined : this.tasks.get(id);
    if (!task) throw new AppError('validation/invalid', 'This upload is no longer in the queue.', { details: { id } });
    return task;
  }

  /** Takes the stored rows as the whole queue. */
  replaceAll(rows: UploadTask[]): void {
    rows.sort(byCreation);
    const live = this.tasks;
    this.tasks = new Map(rows.map((t) => [t.id, this.keepLiveProgress(live.get(t.id), t)]));
  }

  /** Adds the stored rows of tasks this tab did not know yet; true when there was any. */
  addUnknown(rows: Iterable<UploadTask | undefined>): boolean {
    let added = false;
    for (const row of rows) {
      if (row && !this.tasks.has(row.id)) {
        this.tasks.set(row.id, row);
        added = true;
      }
    }
    return added;
  }

  /** Takes stored rows in place of the in-memory copies; returns the ids whose row is gone (and so the task). */
  takeStored(rows: ReadonlyMap<string, UploadTask | undefined>): string[] {
    const gone: string[] = [];
    for (const [id, row] of rows) {
      if (row) this.tasks.set(id, this.keepLiveProgress(this.tasks.get(id), row));
      else {
        this.tasks.delete(id);
        gone.push(id);
      }
    }
    return gone;
  }

  /** Progress messages run ahead of persisted progress; keep the larger figure for the same object. */
  private keepLiveProgress(live: UploadTask | undefined, stored: UploadTask): UploadTask {
    if (!live || live.state !== stored.state || live.bytesDone <= stored.bytesDone) return stored;
    return { ...stored, bytesDone: live.bytesDone };
  }

  // ------------------------------------------------------------------------------------------------------
  // In the store

  open(store: UploadStore): void {
    this.store = store;
  }

  /** Closes a store that is no longer used; a newer one may have been opened meanwhile. */
  closeStore(store: UploadStore | null): void {
    store?.close();
    if (this.store === store) this.store = null;
  }

  requireStore(): UploadStore {
    if (!this.store) throw new AppError('upload/interrupted', 'The upload queue is not open.');
    return this.store;
  }

  /** Stores a new batch (with the files' bytes, when there is room) and adds it to the queue. */
  async add(entries: readonly { task: UploadTask; source: Blob | null }[]): Promise<void> {
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
  }

  /**
   * Stores the batch of a shared files' hand-over, taking the share out of the inbox with it
   * (UploadStore.addShareBatch). Returns the entries added: none when the share was already handed over, and
   * none of a task already stored by an earlier hand-over. `inboxDb`: the database where the share waits, when
   * it is not the queue's own.
   */
  async addFromShare(shareId: string, entries: readonly { task: UploadTask; source: Blob | null }[], inboxDb?: string): Promise<{ task: UploadTask; source: Blob | null }[]> {
    const store = this.requireStore();
    const inbox = inboxDb === undefined ? undefined : await UploadStore.open(inboxDb);
    let ids: string[] | null;
    let inMemory = false;
    try {
      ids = await store.addShareBatch(shareId, entries, inbox);
    } catch (e) {
      if (!isQuotaError(e)) throw toAppError(e, 'upload/interrupted');
      ids = await store.addShareBatch(shareId, entries.map(({ task }) => ({ task, source: null })), inbox);
      inMemory = true;
    } finally {
      inbox?.close();
    }
    const added = new Set(ids ?? []);
    const entered = entries.filter(({ task }) => added.has(task.id));
    for (const { task, source } of entered) {
      if (inMemory && source) this.memoryBlobs.set(`${task.id}:source`, source);
      this.tasks.set(task.id, task);
    }
    return entered;
  }

  /** Applies an event at once in memory, then persists it. */
  change(id: string, event: TaskEvent): Promise<void> {
    const next = transition(this.require(id), event);
    this.tasks.set(id, next);
    this.hooks.changed();
    return this.persist(next);
  }

  /** Writes the task as it is, without telling other tabs. */
  async save(task: UploadTask): Promise<void> {
    await this.requireStore().put(task);
  }

  async persist(task: UploadTask, write?: (task: UploadTask) => Promise<void>): Promise<void> {
    const store = this.requireStore();
    await (write ? write(task) : store.put(task));
    this.hooks.persisted(task.id);
  }

  /**
   * Records what a stage learnt and, unless the run was stopped meanwhile, moves the task to the next
   * stage. The facts are kept even for a paused or interrupted task: they hold, and spare redoing the work.
   */
  async commit(id: string, signal: AbortSignal, patch: Partial<UploadTask>, opts: CommitOptions): Promise<void> {
    const current = this.tasks.get(id);
    if (!current || current.state === 'canceled' || current.state === 'done') throw abortError();
    let next: UploadTask = { ...current, ...patch, updatedAt: new Date().toISOString() };
    if (opts.advance && !signal.aborted && isActive(current.state)) next = transition(next, { type: 'advance' });
    this.tasks.set(id, next);
    this.hooks.changed();
    await this.persist(next, opts.write);
    throwIfAborted(signal);
  }

  /** A blob of the task, from memory or from the store. */
  async blob(id: string, role: StoredBlobRole): Promise<Blob | undefined> {
    return this.memoryBlobs.get(`${id}:${role}`) ?? (await this.requireStore().getBlob(id, role));
  }

  /** Stores the task with its derived blobs, in one transaction; without room, the blobs stay in memory. */
  async saveProcessed(task: UploadTask, derived: { preview: Blob | null; thumb: Blob | null; packed?: Blob | null }): Promise<void> {
    const store = this.requireStore();
    try {
      await store.saveProcessed(task, derived);
    } catch (e) {
      if (!isQuotaError(e)) throw e;
      await store.put(task);
      if (derived.preview) this.memoryBlobs.set(`${task.id}:preview`, derived.preview);
      if (derived.thumb) this.memoryBlobs.set(`${task.id}:thumb`, derived.thumb);
      if (derived.packed) this.memoryBlobs.set(`${task.id}:packed`, derived.packed);
    }
  }

  /** Stores the task and lets go of its bytes (a done or canceled task no longer needs them), all but `keep`. */
  async saveAndDropBlobs(task: UploadTask, keep?: StoredBlobRole): Promise<void> {
    const store = this.requireStore();
    await store.saveAndDropBlobs(task, keep);
    this.dropMemoryBlobs(task.id, keep);
  }

  private dropMemoryBlobs(id: string, keep?: StoredBlobRole): void {
    for (const role of BLOB_ROLES) if (role !== keep) this.memoryBlobs.delete(`${id}:${role}`);
  }
}
