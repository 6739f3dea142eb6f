import { log } from '../lib/log';
import type { QueueSnapshot, UploadEngine, UploadEngineDeps, UploadTaskView } from './upload-engine';
import { DEFAULT_UPLOAD_DB, queueChannelName, UploadStore } from './upload-store';

/** What the app's screens use of the queue: the engine's commands, its snapshot, and its start and end. */
export type UploadQueueApi = Pick<
  UploadEngine,
  'start' | 'dispose' | 'enqueue' | 'pause' | 'resume' | 'cancel' | 'retry' | 'uploadPreviewOnly' | 'remove' | 'pauseAll' | 'resumeAll' | 'clearFinished' | 'thumbnail' | 'subscribe' | 'getSnapshot' | 'isRunner'
>;

/** The queue before its engine is loaded: nothing unfinished is stored (else the engine would be loading). */
const NOTHING_QUEUED: QueueSnapshot = Object.freeze({
  tasks: [],
  totals: { filesTotal: 0, filesDone: 0, filesFailed: 0, filesAwaitingChoice: 0, bytesTotal: 0, bytesDone: 0, speedBps: 0, etaSeconds: null, running: false, paused: false, offline: false, retryAt: null },
}) as QueueSnapshot;

/**
 * [Note: The upload engine loads when there is work]
 * Most starts have nothing to upload, and the engine (the task runner, the queue's store and channel, and
 * through them the media pipeline) is not needed to show the albums. This stands in for it: `start()` listens
 * on the queue's channel (another tab adding files) and looks in the store for unfinished work (a reload or a
 * crash mid-upload, files added offline, failed uploads to show); either loads the engine and starts it, and
 * so do adding files, any command and `load()` (a screen that lists the queue). Until then the snapshot is an
 * empty queue, which it is for every screen but the uploads list (finished uploads are not shown elsewhere).
 * The tab that loads its engine first takes the runner lock, as any engine would at start.
 */
export class LazyUploadEngine implements UploadQueueApi {
  private engine: UploadEngine | null = null;
  private loading: Promise<UploadEngine> | null = null;
  /** Between start() and dispose(): a loaded engine is started. */
  private live = false;
  private stopWatching: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly dbName: string;

  constructor(private readonly deps: UploadEngineDeps) {
    this.dbName = deps.dbName ?? DEFAULT_UPLOAD_DB;
  }

  /** Starts the engine if it is loaded; otherwise watches for work that needs it. */
  start(): Promise<void> {
    this.live = true;
    if (this.engine) return this.engine.start();
    this.watchForWork();
    return Promise.resolve();
  }

  dispose(): void {
    this.live = false;
    this.stopWatching?.();
    this.stopWatching = null;
    this.engine?.dispose();
  }

  /** Loads (and, while started, starts) the engine. */
  load(): Promise<UploadEngine> {
    this.loading ??= import('./upload-engine').then(
      ({ UploadEngine }) => {
        const engine = new UploadEngine(this.deps);
        this.engine = engine;
        this.stopWatching?.();
        this.stopWatching = null;
        engine.subscribe(() => this.notify());
        if (this.live) void engine.start().catch((e: unknown) => log.warn('Upload queue did not start', e));
        this.notify();
        return engine;
      },
      (e: unknown) => {
        // The code could not be fetched (offline before it was cached, a deploy mid-load): the next need tries again.
        this.loading = null;
        throw e;
      },
    );
    return this.loading;
  }

  async enqueue(albumId: string, files: File[], share?: { id: string; fileIds?: readonly string[] }): Promise<UploadTaskView[]> {
    return (await this.load()).enqueue(albumId, files, share);
  }

  async pause(id: string): Promise<void> {
    return (await this.load()).pause(id);
  }

  async resume(id: string): Promise<void> {
    return (await this.load()).resume(id);
  }

  async cancel(id: string): Promise<void> {
    return (await this.load()).cancel(id);
  }

  async retry(id: string): Promise<void> {
    return (await this.load()).retry(id);
  }

  async uploadPreviewOnly(id: string): Promise<void> {
    return (await this.load()).uploadPreviewOnly(id);
  }

  async remove(id: string): Promise<void> {
    return (await this.load()).remove(id);
  }

  async pauseAll(): Promise<void> {
    return (await this.load()).pauseAll();
  }

  async resumeAll(): Promise<void> {
    return (await this.load()).resumeAll();
  }

  async clearFinished(): Promise<void> {
    return (await this.load()).clearFinished();
  }

  async thumbnail(id: string): Promise<Blob | undefined> {
    return (await this.load()).thumbnail(id);
  }

  readonly subscribe = (cb: () => void): (() => void) => {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  };

  readonly getSnapshot = (): QueueSnapshot => this.engine?.getSnapshot() ?? NOTHING_QUEUED;

  get isRunner(): boolean {
    return this.engine?.isRunner ?? false;
  }

  private notify(): void {
    for (const cb of [...this.listeners]) cb();
  }

  /** The channel first, so that files another tab adds while the store is read are not missed. */
  private watchForWork(): void {
    if (this.stopWatching) return;
    let stopped = false;
    const wake = () => {
      if (stopped) return;
      this.load().catch((e: unknown) => log.warn('Upload queue could not load', e));
    };
    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(queueChannelName(this.dbName));
    if (channel) channel.onmessage = wake;
    this.stopWatching = () => {
      stopped = true;
      channel?.close();
    };
    void (async () => {
      const store = await UploadStore.open(this.dbName);
      try {
        if (await store.hasUnfinishedTasks()) wake();
      } finally {
        store.close();
      }
    })().catch((e: unknown) => log.warn('Upload queue could not be read', e));
  }
}
