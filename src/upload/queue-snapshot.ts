import type { ItemKind } from '../domain/entities';
import type { SerializedAppError } from '../lib/app-error';
import { SpeedMeter, etaSeconds, queueTotals } from './upload-progress';
import { isActive, locationChoiceOf, type LocationChoice, type TaskState, type UploadTask } from './upload-task';

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
  /** Stopped because its location could not be removed: what the person may choose (`locationChoiceOf`). */
  locationChoice: LocationChoice;
  /** Once its thumbnail is made (`UploadEngine.thumbnail`), its thumbhash; none before, and for a file with none. */
  thumbhash: string | null | undefined;
  /**
   * While its network stage waits to be tried again, in the tab that runs the queue ([Note: A file's upload tried
   * again]): when, in ms since the epoch. Else null.
   */
  retryAt: number | null;
}

export interface QueueSnapshot {
  tasks: UploadTaskView[];
  totals: {
    filesTotal: number;
    filesDone: number;
    /** Failed, not counting those waiting for the person's choice about their location. */
    filesFailed: number;
    /** Stopped until the person chooses what to do about the location they hold. */
    filesAwaitingChoice: number;
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
    /** Every file being worked on waits to be tried again (UploadTaskView.retryAt): the soonest; else null. */
    retryAt: number | null;
  };
}

/** What a snapshot is made from. */
export interface QueueSnapshotSource {
  /** Every task in creation order. */
  tasks(): Iterable<UploadTask>;
  isOffline(): boolean;
  /** UploadTaskView.retryAt; never, unless given. */
  retryAt?(id: string): number | null;
}

const EMPTY_SNAPSHOT: QueueSnapshot = Object.freeze({
  tasks: [],
  totals: {
    filesTotal: 0,
    filesDone: 0,
    filesFailed: 0,
    filesAwaitingChoice: 0,
    bytesTotal: 0,
    bytesDone: 0,
    speedBps: 0,
    etaSeconds: null,
    running: false,
    paused: false,
    offline: false,
    retryAt: null,
  },
}) as QueueSnapshot;

/**
 * [Note: The queue's time left]
 * The queue's time left is the bytes still to send over the rate at which the whole queue gets through them.
 * Importing photos, each file is read and made into previews before its bytes go, and they go in a fraction of
 * that time, so the queue's bytes move in bursts. The speed was shown only while some file was sending: between
 * bursts, most of an import, the screen said "—" and no time left. It is now shown whenever any file is being
 * worked on, measured over the last five seconds, pauses between bursts included (SpeedMeter), which is the
 * rate the queue gets through its bytes.
 */

/** Progress notifications reach subscribers at most this often; state changes go out at once. */
const NOTIFY_INTERVAL_MS = 200;

const now = () => performance.now();

/**
 * What subscribers see of the queue: one snapshot object that stays the same until something changed
 * (as `useSyncExternalStore` needs), with speeds and times left measured from the bytes that move.
 */
export class QueueSnapshots {
  private readonly listeners = new Set<() => void>();
  private snapshot: QueueSnapshot = EMPTY_SNAPSHOT;
  private readonly meters = new Map<string, SpeedMeter>();
  private readonly overall = new SpeedMeter();
  private sentTotal = 0;

  private dirty = false;
  private flushQueued = false;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private lastFlush = -Infinity;
  private tick: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly source: QueueSnapshotSource) {}

  subscribe(cb: () => void): () => void {
    this.listeners.add(cb);
    return () => {
      this.listeners.delete(cb);
    };
  }

  current(): QueueSnapshot {
    return this.snapshot;
  }

  /** `urgent`: a state change, sent out at once; otherwise progress, sent at most every 200 ms. */
  notify(urgent: boolean): void {
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

  /** While files are worked on, the speed shown must also fall when bytes stop moving. */
  startTicking(): void {
    this.tick = setInterval(() => {
      if ([...this.source.tasks()].some((t) => isActive(t.state))) this.notify(false);
    }, 1000);
  }

  /** Stops the timers; the last snapshot stays readable. */
  stop(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
  }

  /** The original of task `id` went from `before` to `after` bytes sent. */
  trackProgress(id: string, before: number, after: number): void {
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

  /** The task's run ended: its next run measures its speed afresh. */
  resetSpeed(id: string): void {
    this.meters.get(id)?.reset();
  }

  forget(id: string): void {
    this.meters.delete(id);
  }

  /** Views of the given tasks, all as of now. */
  views(tasks: readonly UploadTask[]): UploadTaskView[] {
    const at = now();
    return tasks.map((task) => this.viewOf(task, at));
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
      locationChoice: locationChoiceOf(task),
      thumbhash: task.processed?.thumbhash,
      retryAt: this.source.retryAt?.(task.id) ?? null,
    };
  }

  private build(at: number): QueueSnapshot {
    const all = [...this.source.tasks()];
    const base = queueTotals(all);
    const running = all.some((t) => isActive(t.state));
    // [Note: The queue's time left]
    const speedBps = running ? this.overall.rate(at) : 0;
    const unfinished = all.filter((t) => t.state === 'queued' || t.state === 'paused' || isActive(t.state));
    const tasks = all.map((t) => this.viewOf(t, at));
    const awaitingChoice = tasks.filter((t) => t.locationChoice !== null).length;
    const working = tasks.filter((t) => isActive(t.state));
    // Bytes all sent while a file waits to be tried again is no time to say "finishing".
    const retryAt = working.length > 0 && working.every((t) => t.retryAt !== null) ? Math.min(...working.map((t) => t.retryAt as number)) : null;
    return {
      tasks,
      totals: {
        filesTotal: base.filesTotal,
        filesDone: base.filesDone,
        filesFailed: base.filesFailed - awaitingChoice,
        filesAwaitingChoice: awaitingChoice,
        bytesTotal: base.bytesTotal,
        bytesDone: base.bytesDone,
        speedBps,
        etaSeconds: etaSeconds(base.bytesRemaining, speedBps),
        running,
        paused: unfinished.length > 0 && unfinished.every((t) => t.state === 'paused'),
        offline: this.source.isOffline(),
        retryAt,
      },
    };
  }
}
