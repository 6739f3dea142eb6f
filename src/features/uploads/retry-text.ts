import { formatTransfer } from '../../lib/format';
import type { QueueSnapshot } from '../../upload/queue-snapshot';

/** Whole seconds until `at` (ms since the epoch), at least 1: the queue's snapshot is rebuilt every second while it waits. */
function secondsUntil(at: number): number {
  return Math.max(1, Math.ceil((at - Date.now()) / 1000));
}

/**
 * "No answer from the server · trying again in 8 s", for a file, or a queue, that waits to be tried again at `at`
 * ([Note: A file's upload tried again]).
 */
export function retryText(at: number): string {
  return `No answer from the server · trying again in ${secondsUntil(at)} s`;
}

/** The queue's speed and time left; while all of it waits to be tried again, when it will be, not "finishing". */
export function queueTransferText(totals: QueueSnapshot['totals']): string {
  return totals.retryAt !== null ? retryText(totals.retryAt) : formatTransfer(totals.speedBps, totals.etaSeconds);
}
