import { describe, expect, it } from 'vitest';
import { RunScheduler, type RunSchedulerDeps } from './run-scheduler';
import { createTask, type TaskState, type UploadTask } from './upload-task';

let order = 0;
function task(id: string, state: TaskState, facts: Partial<UploadTask> = {}): UploadTask {
  const created = createTask({
    id,
    albumId: 'album',
    filename: `${id}.txt`,
    bytes: 1,
    declaredType: 'text/plain',
    lastModified: 0,
    createdAt: '2026-11-21T00:00:00.000Z',
    order: order++,
  });
  return { ...created, state, ...facts };
}

/** A scheduler over `tasks` whose runs last until the test ends them, recording what ran. */
function harness(tasks: UploadTask[], overrides: Partial<RunSchedulerDeps> = {}) {
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const aborted: string[] = [];
  const scheduler = new RunScheduler({
    concurrency: 2,
    networkConcurrency: 2,
    tasks: () => tasks,
    canRun: () => true,
    isOffline: () => false,
    run: (id, signal) =>
      new Promise<void>((resolve) => {
        started.push(id);
        const t = tasks.find((x) => x.id === id)!;
        t.state = 'uploading';
        const end = () => {
          t.state = 'done';
          resolve();
        };
        ends.set(id, end);
        signal.addEventListener('abort', () => {
          aborted.push(id);
          t.state = 'paused';
          resolve();
        });
      }),
    onSettled: () => undefined,
    ...overrides,
  });
  return { scheduler, started, aborted, end: (id: string) => ends.get(id)?.() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Read and processed: what is left (uploading) needs the network. */
const processed = {
  sniffed: { mime: 'text/plain', kind: 'file' as const, decodable: false },
  sha256: 'f'.repeat(64),
  location: { outcome: 'unsupported' as const, patches: [] },
  processed: { kind: 'file' as const, mime: 'text/plain', width: null, height: null, durationMs: null, takenAt: null, thumbhash: null, metadata: {}, notice: null, hasPreview: false, hasThumb: false },
};

/**
 * A scheduler with one local and one network slot over `tasks`, whose runs do their local work until the test
 * says (`local(id)`), then ask for the network and send until the test says (`sent(id)`).
 */
function stagedHarness(tasks: UploadTask[]) {
  const started: string[] = [];
  const sending: string[] = [];
  const gates = new Map<string, () => void>();
  const gate = (name: string) => new Promise<void>((resolve) => gates.set(name, resolve));
  const scheduler: RunScheduler = new RunScheduler({
    concurrency: 1,
    networkConcurrency: 1,
    tasks: () => tasks,
    canRun: () => true,
    isOffline: () => false,
    run: async (id, signal) => {
      started.push(id);
      const t = tasks.find((x) => x.id === id)!;
      t.state = t.processed ? 'uploading' : 'processing';
      if (!t.processed) {
        await gate(`local:${id}`);
        t.state = 'uploading';
      }
      try {
        await scheduler.network(id, signal);
      } catch {
        t.state = 'paused';
        return;
      }
      sending.push(id);
      await gate(`sent:${id}`);
      t.state = 'done';
    },
    onSettled: () => undefined,
  });
  const open = async (name: string) => {
    gates.get(name)?.();
    await tick();
  };
  return { scheduler, started, sending, local: (id: string) => open(`local:${id}`), sent: (id: string) => open(`sent:${id}`) };
}

describe('RunScheduler', () => {
  it('runs queued tasks in order, at most `concurrency` at once, and the next as soon as one ends', async () => {
    const tasks = [task('a', 'queued'), task('b', 'paused'), task('c', 'queued'), task('d', 'queued'), task('e', 'queued')];
    const h = harness(tasks);
    h.scheduler.pump();
    h.scheduler.pump();
    expect(h.started).toEqual(['a', 'c']);
    h.end('c');
    await tick();
    expect(h.started).toEqual(['a', 'c', 'd']);
  });

  it('offline, leaves tasks whose next stage needs the network in line, and runs local work', () => {
    const tasks = [task('net', 'queued', processed), task('fresh', 'queued')];
    const h = harness(tasks, { isOffline: () => true });
    h.scheduler.pump();
    expect(h.started).toEqual(['fresh']);
  });

  it('does nothing in a tab that does not run the queue', () => {
    const h = harness([task('a', 'queued')], { canRun: () => false });
    h.scheduler.pump();
    expect(h.started).toEqual([]);
  });

  it('stop aborts the run and waits for it; settled resolves once it has ended', async () => {
    const tasks = [task('a', 'queued')];
    const h = harness(tasks);
    h.scheduler.pump();
    await h.scheduler.stop('a');
    expect(h.aborted).toEqual(['a']);
    await h.scheduler.settled('a');
    // Paused now: pumping again does not restart it.
    h.scheduler.pump();
    expect(h.started).toEqual(['a']);
  });

  it('a processed task gives its local slot to the next in line while it is sent ([Note: Reading and sending overlap])', async () => {
    const h = stagedHarness([task('a', 'queued'), task('b', 'queued'), task('c', 'queued')]);
    h.scheduler.pump();
    expect(h.started).toEqual(['a']);
    await h.local('a');
    // a is sent while b is processed.
    expect(h.sending).toEqual(['a']);
    expect(h.started).toEqual(['a', 'b']);
    await h.local('b');
    // b waits for the network; with one processed task already waiting, c does not start.
    expect(h.sending).toEqual(['a']);
    expect(h.started).toEqual(['a', 'b']);
    await h.sent('a');
    expect(h.sending).toEqual(['a', 'b']);
    expect(h.started).toEqual(['a', 'b', 'c']);
  });

  it('a task resumed with only its upload left takes a network slot, not a local one', () => {
    const h = stagedHarness([task('net', 'queued', processed), task('fresh', 'queued'), task('net2', 'queued', processed)]);
    h.scheduler.pump();
    expect(h.started).toEqual(['net', 'fresh']);
  });

  it('a run stopped while it waits for the network ends, and its place goes to the next', async () => {
    const tasks = [task('a', 'queued'), task('b', 'queued'), task('c', 'queued')];
    const h = stagedHarness(tasks);
    h.scheduler.pump();
    await h.local('a');
    await h.local('b');
    await h.scheduler.stop('b');
    expect(h.sending).toEqual(['a']);
    // b's run has ended (its task is for the caller to place); c starts processing.
    expect(h.started).toEqual(['a', 'b', 'c']);
  });

  it('abortAll stops every run and resolves when all have ended', async () => {
    const tasks = [task('a', 'queued'), task('b', 'queued')];
    const h = harness(tasks);
    h.scheduler.pump();
    await h.scheduler.abortAll();
    expect(h.aborted.sort()).toEqual(['a', 'b']);
  });
});
