import { formatTransfer } from '../../lib/format';
import type { QueueSnapshot } from '../../upload/queue-snapshot';

/** Whole seconds until `at` (ms since the epoch), at least 1: the queue's snapshot is rebuilt every second while it waits. */
export function secondsUntil(at: number): number {
  return Math.max(1, Math.ceil((at - Date.now()) / 1000));
}

/** "trying again in 8 s" for a file, or a queue, that waits to be tried again ([Note: A file's upload tried again]). */
export function tryingAgainIn(at: number): string {
  return `trying again in ${secondsUntil(at)} s`;
}

/** The queue's speed and time left; while all of it waits to be tried again, when it will be, not "finishing". */
export function queueTransferText(totals: QueueSnapshot['totals']): string {
  return totals.retryAt !== null ? `No answer from the server · ${tryingAgainIn(totals.retryAt)}` : formatTransfer(totals.speedBps, totals.etaSeconds);
}
