/**
 * Which queued tasks run now: at most `concurrency` at once, in queue order, never a task twice, and (offline)
 * none whose next stage needs the network. Each run can be stopped, and a stopped task is not run again before
 * its previous run has settled.
 */
import { isNetworkStage, resumeStage, type UploadTask } from './upload-task';
import { log } from '../lib/log';

export interface RunSchedulerDeps {
  concurrency: number;
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

interface Run {
  controller: AbortController;
  settled: Promise<void>;
}

/** How long stopping a run waits for it to notice its abort before it returns. */
export const STOP_WAIT_MS = 1500;

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class RunScheduler {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly deps: RunSchedulerDeps) {}

  /** Starts queued tasks while there is room. */
  pump(): void {
    if (!this.deps.canRun()) return;
    for (const task of this.deps.tasks()) {
      if (this.runs.size >= this.deps.concurrency) return;
      if (task.state !== 'queued' || this.runs.has(task.id)) continue;
      if (this.deps.isOffline() && isNetworkStage(resumeStage(task))) continue;
      this.launch(task.id);
    }
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

  private launch(id: string): void {
    const controller = new AbortController();
    const run: Run = { controller, settled: Promise.resolve() };
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
