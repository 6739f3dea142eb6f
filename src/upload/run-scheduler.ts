/**
 * Which queued tasks run now: in queue order, never a task twice, and (offline) none whose next stage needs the
 * network. Each run can be stopped, and a stopped task is not run again before its previous run has settled.
 *
 * [Note: Reading and sending overlap]
 * A run takes its task through every stage, but the stages draw on two different things: reading and processing
 * on the device's cores, uploading and finalizing on the network. A task holds a local slot (`concurrency` of
 * them) while it is read and processed, then asks for a network slot (`networkConcurrency`) and gives its local
 * slot to the next task in line, which starts processing while this one is sent. Before, three runs each went
 * through all four stages, so the cores idled while all three were waiting on the network: on Supabase and S3
 * a photo spent about a third of its run uploading (858 ms of 2.7 s for 24 MP JPEGs). At most
 * `networkConcurrency` processed tasks wait for a network slot; past that, no new task starts processing, so a
 * slow network does not leave the whole queue processed and nothing sent.
 */
import { isNetworkStage, resumeStage, type UploadTask } from './upload-task';
import { log } from '../lib/log';

export interface RunSchedulerDeps {
  /** Tasks read and processed at once. */
  concurrency: number;
  /** Tasks uploading and finalizing at once. */
  networkConcurrency: number;
  /** The tasks in queue order. */
  tasks: () => Iterable<UploadTask>;
  /** Whether this tab runs the queue now. */
  canRun: () => boolean;
  isOffline: () => boolean;
  /** Runs the task until it is done, failed or stopped by `signal`. */
  run: (id: string, signal: AbortSignal) => Promise<void>;
  /** After a run ended, however it did. */
  onSettled: (id: string) => void;
}

/** Where a run is: holding a local slot, waiting for a network slot, or holding one. */
type Phase = 'local' | 'waiting' | 'network';

interface Run {
  controller: AbortController;
  settled: Promise<void>;
  phase: Phase;
  /** While waiting: lets the run into the network. */
  admit?: () => void;
}

/** How long stopping a run waits for it to notice its abort before it returns. */
export const STOP_WAIT_MS = 1500;

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class RunScheduler {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly deps: RunSchedulerDeps) {}

  /** Lets waiting runs into the network, then starts queued tasks while there is room. */
  pump(): void {
    const { canRun, tasks, isOffline, concurrency, networkConcurrency } = this.deps;
    if (!canRun()) return;
    // Counted once, and again only after a run starts or moves: the queue can hold thousands of tasks.
    let n = this.counts();
    for (const run of this.runs.values()) {
      if (run.admit && n.network < networkConcurrency) {
        this.enter(run);
        n = this.counts();
      }
    }
    for (const task of tasks()) {
      const localRoom = n.local < concurrency && n.waiting < networkConcurrency;
      const networkRoom = n.network + n.waiting < networkConcurrency;
      if (!localRoom && !networkRoom) return;
      if (task.state !== 'queued' || this.runs.has(task.id)) continue;
      const network = isNetworkStage(resumeStage(task));
      if (network ? !networkRoom || isOffline() : !localRoom) continue;
      this.launch(task.id, network ? 'network' : 'local');
      n = this.counts();
    }
  }

  /**
   * Resolves once run `id` holds a network slot; its local slot, if it held one, goes to the next task in line
   * at once. Rejects if `signal` aborts first.
   */
  network(id: string, signal: AbortSignal): Promise<void> {
    const run = this.runs.get(id);
    if (!run || run.phase === 'network') return Promise.resolve();
    signal.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const aborted = () => {
        run.admit = undefined;
        reject(signal.reason);
      };
      signal.addEventListener('abort', aborted, { once: true });
      run.phase = 'waiting';
      run.admit = () => {
        signal.removeEventListener('abort', aborted);
        resolve();
      };
      this.pump();
    });
  }

  /** Resolves once the task's current run (if any) has ended. */
  settled(id: string): Promise<void> {
    return this.runs.get(id)?.settled ?? Promise.resolve();
  }

  /**
   * Aborts the task's run and waits until it stopped, or STOP_WAIT_MS at most: a stage slow to notice its
   * abort must not hold the caller.
   */
  async stop(id: string): Promise<void> {
    const run = this.runs.get(id);
    if (!run) return;
    run.controller.abort();
    await Promise.race([run.settled, delay(STOP_WAIT_MS)]);
  }

  /** Aborts the runs of the tasks `which` picks, without waiting. */
  abortWhere(which: (id: string) => boolean): void {
    for (const [id, run] of this.runs) if (which(id)) run.controller.abort();
  }

  /** Aborts every run; resolves once all have ended. */
  abortAll(): Promise<void> {
    this.abortWhere(() => true);
    return Promise.allSettled([...this.runs.values()].map((r) => r.settled)).then(() => undefined);
  }

  private counts(): Record<Phase, number> {
    const n = { local: 0, waiting: 0, network: 0 };
    for (const run of this.runs.values()) n[run.phase]++;
    return n;
  }

  private enter(run: Run): void {
    run.phase = 'network';
    const admit = run.admit;
    run.admit = undefined;
    admit?.();
  }

  private launch(id: string, phase: Phase): void {
    const controller = new AbortController();
    const run: Run = { controller, settled: Promise.resolve(), phase };
    run.settled = this.deps
      .run(id, controller.signal)
      .catch((e: unknown) => log.warn('Upload run ended unexpectedly', e))
      .finally(() => {
        if (this.runs.get(id) === run) this.runs.delete(id);
        this.deps.onSettled(id);
        this.pump();
      });
    this.runs.set(id, run);
  }
}
