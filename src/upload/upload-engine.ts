import type { UploadBackend } from '../backend/ports';
import { limits } from '../config';
import { AppError } from '../lib/app-error';
import type { digestFile, processMedia } from '../media/media-client';
import type { sniffType } from '../media/sniff-type';
import { abortError } from '../lib/app-error';
import { batchTasks } from './batch-tasks';
import { LeaveGuard } from './leave-guard';
import { QueueChannel, type CommandOp } from './queue-channel';
import { QueueSnapshots, type QueueSnapshot, type UploadTaskView } from './queue-snapshot';
import { QueueTasks } from './queue-tasks';
import type { RetryPolicy } from '../lib/backoff';
import { delay, RunScheduler, STOP_WAIT_MS } from './run-scheduler';
import { claimRunnerLock, type RunnerRole } from './runner-lock';
import { TaskRunner } from './task-runner';
import { Connectivity, type Probe } from './connectivity';
import { DEFAULT_UPLOAD_DB, queueChannelName, UploadStore } from './upload-store';
import { canTransition, isActive, isNetworkStage, type UploadTask } from './upload-task';
import { log } from '../lib/log';

export type { QueueSnapshot, UploadTaskView } from './queue-snapshot';

export interface UploadEngineDeps {
  backend: UploadBackend;
  dbName?: string;
  /** The database whose inbox holds the shared files handed over by `enqueue`; the queue's own unless given. */
  inboxDbName?: string;
  concurrency?: number;
  lockName?: string;
  process?: typeof processMedia;
  sniff?: typeof sniffType;
  hash?: typeof digestFile;
  /** How to tell a dead network from a failing server; see [Note: When is the queue offline]. */
  probe?: Probe;
  /**
   * Whether a done upload keeps its thumbnail in the queue until it leaves it, for a list of uploads that shows
   * them (`thumbnail`); default yes. A guest's page lists what it added from the album instead, and its done
   * uploads are never shown from the queue.
   */
  keepThumbnails?: boolean;
  /** How a file's failed network stage is tried again; TASK_RETRY unless given (tests wait less). */
  retry?: RetryPolicy;
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

/**
 * The upload queue: persisted tasks (IndexedDB), three files at a time, pause/resume/cancel/retry, and
 * resumption after a reload or a crash (see [Note: Resuming multipart uploads] in task-runner.ts). One tab
 * runs the queue (Web Lock); the others show it and send their commands to the running tab over a
 * BroadcastChannel.
 */
/** Sidecars are looked for (their module loaded) only when a file is named like one. */
const mayBeSidecar = (f: File) => /\.xmp$/i.test(f.name);

export class UploadEngine {
  private readonly backend: UploadBackend;
  private readonly dbName: string;
  private readonly inboxDbName: string;
  private readonly lockName: string;

  private readonly tasks = new QueueTasks({
    changed: () => this.snapshots.notify(true),
    persisted: (id) => this.channel.announce([id]),
  });
  private readonly snapshots = new QueueSnapshots({
    tasks: () => this.tasks.values(),
    isOffline: () => this.isOffline(),
    retryAt: (id) => this.runner.retryAt(id),
  });
  private readonly channel = new QueueChannel({
    changed: (ids) => {
      void this.enqueueSerial(() => this.reload(ids)).catch((e: unknown) => log.warn('Upload queue reload failed', e));
    },
    progress: (id, bytesDone) => this.onRemoteProgress(id, bytesDone),
    command: (op, id) => (this.role === 'runner' ? this.exec(op, id) : null),
  });
  private readonly runner: TaskRunner;
  private readonly scheduler: RunScheduler;
  private readonly leaveGuard = new LeaveGuard();
  private role: RunnerRole | null = null;
  private life: Life | null = null;
  /** Reloads and role changes happen one at a time, in order. */
  private serial: Promise<void> = Promise.resolve();
  private readonly connectivity: Connectivity;

  constructor(deps: UploadEngineDeps) {
    this.backend = deps.backend;
    this.dbName = deps.dbName ?? DEFAULT_UPLOAD_DB;
    this.inboxDbName = deps.inboxDbName ?? this.dbName;
    this.lockName = deps.lockName ?? `${this.dbName}:runner`;
    this.connectivity = new Connectivity({
      ...(deps.probe ? { probe: deps.probe } : {}),
      changed: (offline) => (offline ? this.onOffline() : this.onOnline()),
    });
    this.runner = new TaskRunner({
      backend: deps.backend,
      tasks: this.tasks,
      media: { process: deps.process, sniff: deps.sniff, hash: deps.hash },
      isOffline: () => this.isOffline(),
      connectionLost: () => this.connectionLost(),
      isDisposed: () => this.disposed,
      keepThumbnails: deps.keepThumbnails ?? true,
      ...(deps.retry ? { retry: deps.retry } : {}),
      onWaiting: () => this.snapshots.notify(true),
      networkSlot: (id, signal) => this.scheduler.network(id, signal),
      onProgress: (id, before, after) => {
        this.snapshots.trackProgress(id, before, after);
        this.snapshots.notify(false);
        this.channel.progress(id, after);
      },
    });
    this.scheduler = new RunScheduler({
      concurrency: Math.max(1, deps.concurrency ?? limits().filesInFlight),
      networkConcurrency: Math.max(1, deps.concurrency ?? limits().filesInFlight),
      tasks: () => this.tasks.values(),
      canRun: () => this.role === 'runner' && !this.disposed,
      isOffline: () => this.isOffline(),
      run: (id, signal) => this.runner.run(id, signal),
      onSettled: (id) => {
        this.snapshots.resetSpeed(id);
        this.snapshots.notify(true);
      },
    });
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

  /**
   * Adds files to the queue of an album. `share`, for files shared into the app: their ids (fixed when the
   * share arrived) become the tasks' ids, and the share leaves the inbox with them, so a share is never queued
   * twice (UploadStore.addShareBatch).
   */
  async enqueue(albumId: string, files: File[], share?: { id: string; fileIds?: readonly string[] }): Promise<UploadTaskView[]> {
    // Until their copies are stored the files are not in the queue yet (a big file takes a moment).
    const release = this.leaveGuard.hold();
    let entries: ReturnType<typeof batchTasks>;
    try {
      await this.start();
      // Sidecars added with their photos go with them ([Note: Sidecars merge into their photo]); a share's files
      // are each taken from the inbox by id, so they go as they came.
      const paired = !share && files.some(mayBeSidecar) ? await import('./sidecars').then((m) => m.pairSidecars(files)) : null;
      entries = batchTasks(albumId, paired?.files ?? files, share?.fileIds, paired?.sidecars);
      if (share) entries = await this.tasks.addFromShare(share.id, entries, this.inboxDbName === this.dbName ? undefined : this.inboxDbName);
      else if (entries.length > 0) await this.tasks.add(entries);
      if (entries.length === 0) return [];
    } finally {
      release();
    }
    this.channel.announce(entries.map(({ task }) => task.id));
    this.snapshots.notify(true);
    this.scheduler.pump();
    return this.snapshots.views(entries.map(({ task }) => task));
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
  /** Sends the preview instead of an original whose location could not be removed (`offersPreviewOnly`). */
  uploadPreviewOnly(id: string): Promise<void> {
    return this.route('previewOnly', id);
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

  /**
   * The thumbnail made for an upload, from this device's queue (any tab's: they share it), from the moment it is
   * made until the task leaves the list; undefined when there is none (not made yet, a file with no preview,
   * or the queue could not keep it). Asked for tasks in the snapshot: the queue is open by then.
   */
  thumbnail(id: string): Promise<Blob | undefined> {
    return this.tasks.blob(id, 'thumb');
  }

  /** Bound, so it can be handed to `useSyncExternalStore` as it is. */
  readonly subscribe = (cb: () => void): (() => void) => this.snapshots.subscribe(cb);

  /** The same object until something changed. Bound, like `subscribe`. */
  readonly getSnapshot = (): QueueSnapshot => this.snapshots.current();

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
    void this.scheduler.abortAll().then(() => {
      life.release();
      this.tasks.closeStore(life.store);
    });
    this.channel.close();
    this.snapshots.stop();
    this.connectivity.stop();
  }

  private get disposed(): boolean {
    return this.life === null;
  }

  // ------------------------------------------------------------------------------------------------------
  // Start-up, roles and the other tabs

  private async boot(life: Life): Promise<void> {
    const store = await UploadStore.open(this.dbName);
    if (this.life !== life) {
      store.close();
      return;
    }
    this.tasks.open(store);
    life.store = store;
    this.channel.open(queueChannelName(this.dbName));
    this.connectivity.listen();
    this.snapshots.startTicking();
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
    const rows = await this.tasks.requireStore().loadAll();
    if (this.role === 'follower' && this.life === life) {
      this.tasks.replaceAll(rows);
      this.snapshots.notify(true);
    }
  }

  private async becomeRunner(life: Life): Promise<void> {
    if (this.life !== life) return;
    this.role = 'runner';
    const rows = await this.tasks.requireStore().loadAll();
    if (this.life !== life) return;
    this.tasks.replaceAll(rows);
    this.snapshots.notify(true);
    // Tasks left in an active state belonged to a tab that is gone: back in line, resumed from what was stored.
    await Promise.all(
      [...this.tasks.values()].filter((t) => isActive(t.state)).map((t) => this.tasks.change(t.id, { type: 'interrupt' })),
    );
    this.scheduler.pump();
    // Commands this tab sent to the runner that went away are ours to carry out now.
    for (const p of this.channel.takePending()) this.exec(p.op, p.id).then(p.resolve, p.reject);
  }

  /** Another tab changed these tasks in the store. */
  private async reload(ids: string[]): Promise<void> {
    if (this.role === null || this.disposed) return;
    const rows = await this.tasks.requireStore().loadMany(ids);
    if (this.role === 'runner') {
      // The running tab owns every task it knows; only tasks another tab added are news to it.
      if (this.tasks.addUnknown(rows.values())) {
        this.snapshots.notify(true);
        this.scheduler.pump();
      }
      return;
    }
    for (const id of this.tasks.takeStored(rows)) this.snapshots.forget(id);
    this.snapshots.notify(true);
  }

  /** The running tab sent more of a task's original; followers show it before the store has it. */
  private onRemoteProgress(id: string, bytesDone: number): void {
    if (this.role === 'runner') return;
    const task = this.tasks.get(id);
    if (!task) return;
    this.snapshots.trackProgress(id, task.bytesDone, bytesDone);
    this.tasks.set({ ...task, bytesDone });
    this.snapshots.notify(false);
  }

  private async route(op: CommandOp, id: string | null): Promise<void> {
    await this.start();
    if (this.disposed) throw abortError();
    if (this.role === 'runner' || !this.channel.isOpen) return this.exec(op, id);
    return this.channel.request(op, id);
  }

  private onOnline(): void {
    this.snapshots.notify(true);
    this.scheduler.pump();
  }

  private onOffline(): void {
    this.snapshots.notify(true);
    if (this.role !== 'runner' || !this.backend.capabilities.network.required) return;
    // Offline pauses network work instead of failing it: those tasks wait in line for `online`.
    this.scheduler.abortWhere((id) => {
      const task = this.tasks.get(id);
      if (!task || !isNetworkStage(task.state)) return false;
      void this.tasks.change(id, { type: 'interrupt' }).catch(() => undefined);
      return true;
    });
  }

  /** Only a backend that needs the network waits for it. */
  private isOffline(): boolean {
    return this.backend.capabilities.network.required && this.connectivity.offline;
  }

  /** A network stage got no answer: true when the device is offline (and the queue now waits for it). */
  private connectionLost(): Promise<boolean> {
    if (!this.backend.capabilities.network.required || this.disposed) return Promise.resolve(false);
    return this.connectivity.requestFailed();
  }

  // ------------------------------------------------------------------------------------------------------
  // Commands (carried out in the running tab)

  private async exec(op: CommandOp, id: string | null): Promise<void> {
    switch (op) {
      case 'pause':
        return this.pauseTask(this.tasks.require(id).id);
      case 'resume':
        await this.tasks.change(this.tasks.require(id).id, { type: 'resume' });
        this.scheduler.pump();
        return;
      case 'retry':
      case 'previewOnly':
        await this.tasks.change(this.tasks.require(id).id, { type: op });
        this.scheduler.pump();
        return;
      case 'cancel':
        return this.cancelTask(this.tasks.require(id).id);
      case 'remove':
        return this.removeTask(this.tasks.require(id));
      case 'pauseAll':
        await Promise.all([...this.tasks.values()].filter((t) => canTransition(t, 'pause')).map((t) => this.pauseTask(t.id)));
        return;
      case 'resumeAll':
        await Promise.all([...this.tasks.values()].filter((t) => t.state === 'paused').map((t) => this.tasks.change(t.id, { type: 'resume' })));
        this.scheduler.pump();
        return;
      case 'clearFinished': {
        const ids = [...this.tasks.values()].filter((t) => t.state === 'done' || t.state === 'canceled').map((t) => t.id);
        if (ids.length === 0) return;
        await this.tasks.requireStore().delete(ids);
        for (const tid of ids) this.forget(tid);
        this.channel.announce(ids);
        this.snapshots.notify(true);
        return;
      }
    }
  }

  private async pauseTask(id: string): Promise<void> {
    await this.tasks.change(id, { type: 'pause' });
    await this.scheduler.stop(id);
  }

  private async cancelTask(id: string): Promise<void> {
    await this.tasks.change(id, { type: 'cancel' });
    // The bytes and the bucket's copies are let go only once the run has really stopped writing.
    const finish = this.scheduler.settled(id).then(async () => {
      const task = this.tasks.get(id);
      if (!task || task.state !== 'canceled') return;
      await this.tasks.saveAndDropBlobs(task);
      this.channel.announce([id]);
      // Too late to cancel: the item made it into the album, so the queue says so instead of "canceled".
      if ((await this.runner.cleanUp(task)) === 'arrived' && this.tasks.get(id)?.state === 'canceled') {
        await this.tasks.change(id, { type: 'arrived' });
        this.channel.announce([id]);
      }
    });
    await this.scheduler.stop(id);
    await Promise.race([finish, delay(STOP_WAIT_MS)]);
    finish.catch((e: unknown) => log.warn('Canceled upload not cleaned up', e));
  }

  private async removeTask(task: UploadTask): Promise<void> {
    if (task.state !== 'failed' && task.state !== 'canceled' && task.state !== 'done') {
      throw new AppError('validation/invalid', `An upload that is ${task.state} cannot be removed; cancel it first.`, {
        details: { from: task.state, event: 'remove' },
      });
    }
    await this.scheduler.stop(task.id);
    if (task.state === 'failed') await this.runner.cleanUp(task);
    await this.tasks.requireStore().delete([task.id]);
    this.forget(task.id);
    this.channel.announce([task.id]);
    this.snapshots.notify(true);
  }

  private forget(id: string): void {
    this.tasks.forget(id);
    this.snapshots.forget(id);
    this.channel.forget(id);
  }
}
