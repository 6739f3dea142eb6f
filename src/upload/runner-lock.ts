export type RunnerRole = 'runner' | 'follower';

export interface ClaimRunnerLockOptions {
  name: string;
  /** Withdraws a request that is still waiting (the engine was disposed). */
  signal: AbortSignal;
  /** The lock is held until this settles. */
  release: Promise<unknown>;
  /** Runs as soon as the lock is ours, before `claimRunnerLock` resolves `'runner'`. */
  onAcquire: () => Promise<void>;
}

/**
 * Only one tab runs the upload queue: the one holding a Web Lock. Resolves `'runner'` when this tab got the
 * lock at once, `'follower'` when another tab holds it; a follower keeps its request waiting, and when the
 * running tab closes (or crashes) the browser hands the lock over and `onAcquire` runs here.
 * Without the Web Locks API (very old browsers) every tab runs its own queue.
 */
export async function claimRunnerLock(opts: ClaimRunnerLockOptions): Promise<RunnerRole> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks === undefined) {
    await opts.onAcquire();
    return 'runner';
  }
  const hold = async () => {
    if (opts.signal.aborted) return;
    await opts.onAcquire();
    await opts.release;
  };
  return new Promise<RunnerRole>((resolve, reject) => {
    locks
      .request(opts.name, { ifAvailable: true }, async (lock) => {
        if (lock === null) {
          resolve('follower');
          locks.request(opts.name, { signal: opts.signal }, hold).catch(() => {
            // Withdrawn on dispose, or onAcquire failed; the engine reports its own errors.
          });
          return;
        }
        if (opts.signal.aborted) {
          resolve('follower');
          return;
        }
        try {
          await opts.onAcquire();
        } catch (e) {
          reject(e);
          return;
        }
        resolve('runner');
        await opts.release;
      })
      .catch(reject);
  });
}
