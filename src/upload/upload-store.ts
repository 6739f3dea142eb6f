import { deleteDB, openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { isFinished, type UploadTask } from './upload-task';

/**
 * The user's file, and the derived copies once made (so a crash after processing does not process again):
 * `packed` is a text file's gzip-compressed copy, which goes up in its place ([Note: Text files are stored
 * gzip-compressed]).
 */
export type StoredBlobRole = 'source' | 'preview' | 'thumb' | 'packed';
export const BLOB_ROLES: readonly StoredBlobRole[] = ['source', 'preview', 'thumb', 'packed'];

/**
 * Files shared into Shoebox from another app (the web share target), kept until the user picks an album
 * for them; they then join the queue as any added files do. The `File`s are stored as they are: IndexedDB
 * keeps their bytes on disk, so a share of a gigabyte is never read into memory.
 */
export interface InboxShare {
  id: string;
  createdAt: string;
  files: File[];
  /**
   * Each file's upload id, given when the share arrived (so its task and its item have the same id however
   * often the hand-over is tried). Absent from shares kept before there were any.
   */
  fileIds?: string[];
  /** What the sharing app sent along, if anything. */
  title: string;
  text: string;
  url: string;
}

interface UploadDb extends DBSchema {
  tasks: { key: string; value: UploadTask };
  /** Keyed `[taskId, role]`; kept apart from the task so that progress writes do not rewrite blob references. */
  blobs: { key: [string, StoredBlobRole]; value: Blob };
  /** Added in version 2. */
  inbox: { key: string; value: InboxShare };
}

/**
 * The device's upload database: the share inbox (the service worker, which knows nobody's account, keeps
 * what is shared into the app here) and, on the local backend, the queue.
 */
export const DEFAULT_UPLOAD_DB = 'shoebox-uploads';

/**
 * On a backend with accounts, each account's queue is a database of its own, so that someone else signing in
 * on this browser never opens it; see [Note: What the device keeps belongs to one account].
 */
export function accountUploadDb(userId: string): string {
  return `${DEFAULT_UPLOAD_DB}:${userId}`;
}

/** The BroadcastChannel over which the tabs of one queue (one database) speak. */
export function queueChannelName(dbName: string): string {
  return `${dbName}:queue`;
}
/** 1: tasks and blobs; 2: the share inbox. */
const UPLOAD_DB_VERSION = 2;

/** Every blob key of one task: `[id]` sorts before `[id, any string]`, which sorts before `[id, []]`. */
function blobRange(id: string): IDBKeyRange {
  return IDBKeyRange.bound([id], [id, []]);
}

/**
 * The upload queue's own IndexedDB database. Blobs are stored by structured clone: Chromium keeps their
 * bytes on disk, so after a reload or a crash the queue still has every file it was given.
 */
export class UploadStore {
  private constructor(private readonly db: IDBPDatabase<UploadDb>) {}

  static async open(name: string = DEFAULT_UPLOAD_DB): Promise<UploadStore> {
    const db = await openDB<UploadDb>(name, UPLOAD_DB_VERSION, {
      // Each step from the version found: a queue written by an older version keeps its tasks and blobs.
      upgrade(d, oldVersion) {
        if (oldVersion < 1) {
          d.createObjectStore('tasks', { keyPath: 'id' });
          d.createObjectStore('blobs');
        }
        if (oldVersion < 2) d.createObjectStore('inbox', { keyPath: 'id' });
      },
      blocking() {
        // A newer version of the app wants the database: step aside rather than block it.
        db.close();
      },
    });
    return new UploadStore(db);
  }

  close(): void {
    this.db.close();
  }

  /** Deletes the database `name`; its connections in other tabs step aside (`blocking` above). */
  static async remove(name: string): Promise<void> {
    await deleteDB(name);
  }

  loadAll(): Promise<UploadTask[]> {
    return this.db.getAll('tasks');
  }

  /** Some task is not done or canceled: it waits, runs, is paused or failed. */
  async hasUnfinishedTasks(): Promise<boolean> {
    let cursor = await this.db.transaction('tasks').store.openCursor();
    while (cursor) {
      if (!isFinished(cursor.value.state)) return true;
      cursor = await cursor.continue();
    }
    return false;
  }

  async loadMany(ids: readonly string[]): Promise<Map<string, UploadTask | undefined>> {
    const tx = this.db.transaction('tasks', 'readonly');
    const rows = await Promise.all(ids.map((id) => tx.store.get(id)));
    await tx.done;
    return new Map(ids.map((id, i) => [id, rows[i]]));
  }

  async put(task: UploadTask): Promise<void> {
    await this.db.put('tasks', task);
  }

  /** A whole batch in one transaction: either every task of it is queued, or none is. */
  async addBatch(entries: readonly { task: UploadTask; source: Blob | null }[]): Promise<void> {
    const tx = this.db.transaction(['tasks', 'blobs'], 'readwrite');
    const tasks = tx.objectStore('tasks');
    const blobs = tx.objectStore('blobs');
    const writes: Promise<unknown>[] = [];
    for (const { task, source } of entries) {
      writes.push(tasks.add(task));
      if (source !== null) writes.push(blobs.put(source, [task.id, 'source']));
    }
    await Promise.all([...writes, tx.done]);
  }

  /** The task's processed facts and its derived blobs land together, or not at all. */
  async saveProcessed(task: UploadTask, derived: { preview: Blob | null; thumb: Blob | null; packed?: Blob | null }): Promise<void> {
    const tx = this.db.transaction(['tasks', 'blobs'], 'readwrite');
    const blobs = tx.objectStore('blobs');
    const writes: Promise<unknown>[] = [tx.objectStore('tasks').put(task)];
    if (derived.preview !== null) writes.push(blobs.put(derived.preview, [task.id, 'preview']));
    if (derived.thumb !== null) writes.push(blobs.put(derived.thumb, [task.id, 'thumb']));
    if (derived.packed) writes.push(blobs.put(derived.packed, [task.id, 'packed']));
    await Promise.all([...writes, tx.done]);
  }

  getBlob(id: string, role: StoredBlobRole): Promise<Blob | undefined> {
    return this.db.get('blobs', [id, role]);
  }

  /**
   * Saves the task and frees its blobs (a done or canceled task no longer needs the bytes); `keep`: all but
   * that one, which stays until the task is removed (a done upload's thumbnail, for the uploads list).
   */
  async saveAndDropBlobs(task: UploadTask, keep?: StoredBlobRole): Promise<void> {
    const tx = this.db.transaction(['tasks', 'blobs'], 'readwrite');
    const blobs = tx.objectStore('blobs');
    await Promise.all([tx.objectStore('tasks').put(task), ...BLOB_ROLES.filter((r) => r !== keep).map((r) => blobs.delete([task.id, r])), tx.done]);
  }

  async delete(ids: readonly string[]): Promise<void> {
    const tx = this.db.transaction(['tasks', 'blobs'], 'readwrite');
    const tasks = tx.objectStore('tasks');
    const blobs = tx.objectStore('blobs');
    const writes: Promise<unknown>[] = [];
    for (const id of ids) writes.push(tasks.delete(id), blobs.delete(blobRange(id)));
    await Promise.all([...writes, tx.done]);
  }

  /** Deletes every task and its blobs (the inbox stays). */
  async clearTasks(): Promise<void> {
    const tx = this.db.transaction(['tasks', 'blobs'], 'readwrite');
    await Promise.all([tx.objectStore('tasks').clear(), tx.objectStore('blobs').clear(), tx.done]);
  }

  /**
   * Moves every task, with its blobs, into `target`: copied there first (a task `target` already holds stays as
   * it is there), then deleted here, so that a move cut short is finished by the next one. Returns the ids.
   */
  async moveTasksTo(target: UploadStore): Promise<string[]> {
    const tx = this.db.transaction(['tasks', 'blobs']);
    const [tasks, blobKeys, blobs] = await Promise.all([tx.objectStore('tasks').getAll(), tx.objectStore('blobs').getAllKeys(), tx.objectStore('blobs').getAll(), tx.done]);
    if (tasks.length === 0) return [];
    const into = target.db.transaction(['tasks', 'blobs'], 'readwrite');
    const known = new Set(await into.objectStore('tasks').getAllKeys());
    const writes: Promise<unknown>[] = [];
    for (const task of tasks) if (!known.has(task.id)) writes.push(into.objectStore('tasks').add(task));
    blobKeys.forEach((key, i) => {
      if (!known.has(key[0])) writes.push(into.objectStore('blobs').put(blobs[i]!, key));
    });
    await Promise.all([...writes, into.done]);
    const ids = tasks.map((t) => t.id);
    await this.delete(ids);
    return ids;
  }

  // ------------------------------------------------------------------------------------------------------
  // The share inbox

  async putShare(share: InboxShare): Promise<void> {
    await this.db.put('inbox', share);
  }

  getShare(id: string): Promise<InboxShare | undefined> {
    return this.db.get('inbox', id);
  }

  async deleteShare(id: string): Promise<void> {
    await this.db.delete('inbox', id);
  }

  /** Deletes the shares received up to `until` (ISO time); those received after it stay. */
  async deleteSharesUntil(until: string): Promise<void> {
    const tx = this.db.transaction('inbox', 'readwrite');
    let cursor = await tx.store.openCursor();
    while (cursor) {
      if (cursor.value.createdAt <= until) await cursor.delete();
      cursor = await cursor.continue();
    }
    await tx.done;
  }

  /** Every share waiting for an album, oldest first. */
  async listShares(): Promise<InboxShare[]> {
    const all = await this.db.getAll('inbox');
    return all.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  /**
   * Hands a share over to the queue: its tasks are added and the share leaves the inbox in one transaction,
   * so a closed app leaves either the share waiting or its files queued, never both. A task already stored
   * under the same id (the share's file ids) is not added again. Returns the ids of the tasks added; null,
   * adding nothing, when the share is no longer in the inbox (already handed over or discarded).
   *
   * `inbox`: the store holding the share, when it is not this one (an account's queue takes the device's
   * shares). Two databases share no transaction, so the tasks are added first and the share leaves after: cut
   * between the two, the share waits again with its files queued, and handing it over again adds nothing
   * (the tasks' ids are the share's) and lets it go.
   */
  async addShareBatch(shareId: string, entries: readonly { task: UploadTask; source: Blob | null }[], inbox: UploadStore = this): Promise<string[] | null> {
    const together = inbox === this;
    if (!together && !(await inbox.getShare(shareId))) return null;
    const tx = this.db.transaction(['inbox', 'tasks', 'blobs'], 'readwrite');
    const shares = tx.objectStore('inbox');
    const tasks = tx.objectStore('tasks');
    const blobs = tx.objectStore('blobs');
    if (together && !(await shares.get(shareId))) {
      await tx.done;
      return null;
    }
    const known = await Promise.all(entries.map(({ task }) => tasks.getKey(task.id)));
    const writes: Promise<unknown>[] = together ? [shares.delete(shareId)] : [];
    const added: string[] = [];
    entries.forEach(({ task, source }, i) => {
      if (known[i] !== undefined) return;
      added.push(task.id);
      writes.push(tasks.add(task));
      if (source !== null) writes.push(blobs.put(source, [task.id, 'source']));
    });
    await Promise.all([...writes, tx.done]);
    if (!together) await inbox.deleteShare(shareId);
    return added;
  }
}
