/**
 * [Note: A file's upload tried again]
 * The S3 adapter tries each of its own calls again, but everything else a file's network stages ask for
 * (reserving the item, finishing it, signing, a guest's upload function) is asked once. Before, one 5xx or 429
 * from any of them stopped the file at "failed" until the person pressed Try again, though nothing was wrong
 * with it: a deadlock the database gave up on, a function restarting, a moment of rate limiting. Now a network
 * stage that fails with a retryable error (PRODUCT.md §9: no answer, 5xx, 429) goes back in line after a
 * jittered backoff, never sooner than the server's Retry-After, and resumes from what is persisted, exactly as
 * the person's Try again would; only after `TASK_RETRY.retries` such failures in a row does it stop as failed.
 * The run keeps its network slot while it waits, so a server in trouble is not asked by more files at once, and
 * the queue says when it will try again (UploadTaskView.retryAt). Any other failure (a 4xx, a refusal, a fault
 * in reading or processing) stops it at once, as before. The S3 adapter's own retries of a part are shown the
 * same way while every request of the file waits for one (`adapterWaits`; src/backend/s3/retry-watch.ts).
 */
import { AppError } from '../lib/app-error';
import { backoffMs, sleep, type RetryPolicy } from '../lib/backoff';
import { log } from '../lib/log';

/** A network stage is tried again 4 times, waiting up to 2, 4, 8 and 16 s (full jitter). */
export const TASK_RETRY: RetryPolicy = { retries: 4, baseMs: 2_000, maxMs: 30_000 };

/** Each task's retryable failures in a row, and the wait before its next try. */
export class StageRetries {
  private readonly failures = new Map<string, number>();
  /** When each waiting task is tried again (ms since the epoch). */
  private readonly waits = new Map<string, number>();

  constructor(
    private readonly policy: RetryPolicy,
    /** Task `id` began or ended a wait. */
    private readonly onWaiting: (id: string) => void,
  ) {}

  /** A stage of task `id` went through: its failures are counted afresh. */
  succeeded(id: string): void {
    this.failures.delete(id);
  }

  retryAt(id: string): number | null {
    return this.waits.get(id) ?? null;
  }

  /**
   * The storage adapter waits to try task `id`'s requests again on its own (UploadOptions.onRetry): shown as this
   * task's wait, until `at` is null.
   */
  adapterWaits(id: string, at: number | null): void {
    if (at === null ? !this.waits.delete(id) : this.waits.get(id) === at) return;
    if (at !== null) this.waits.set(id, at);
    this.onWaiting(id);
  }

  /**
   * After failure `e` of task `id`'s network stage: `again` once its backoff has been waited, `give-up` at once
   * when the failure is not worth another try or the tries are spent, `stopped` when `signal` aborted the wait
   * (whoever aborted it has put the task where it belongs).
   */
  async wait(id: string, e: unknown, signal: AbortSignal): Promise<'again' | 'give-up' | 'stopped'> {
    const failures = this.failures.get(id) ?? 0;
    if (!(e instanceof AppError) || !e.retryable || failures >= this.policy.retries) {
      this.failures.delete(id);
      return 'give-up';
    }
    this.failures.set(id, failures + 1);
    log.info('Upload failed; trying again', e.code);
    const wait = backoffMs(failures, this.policy, Math.random, e.retryAfterMs);
    this.waits.set(id, Date.now() + wait);
    this.onWaiting(id);
    try {
      await sleep(wait, signal);
      return 'again';
    } catch {
      this.failures.delete(id);
      return 'stopped';
    } finally {
      this.waits.delete(id);
      this.onWaiting(id);
    }
  }
}
