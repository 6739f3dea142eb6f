/**
 * The requests of one upload, watched for the adapter's own retries (retry.ts): a part that fails for a moment is
 * tried again inside the adapter, where the upload queue cannot see it. Told when every request under way waits to
 * be tried again, the queue says so on the file's row ("trying again in 6 s") instead of a speed of nought; while
 * any request still moves, the file is not waiting, and nothing is said.
 */
import type { S3Caller } from './s3-caller';

/** What an upload needs of an S3Caller. */
export type S3Calls = Pick<S3Caller, 'call'>;

/** `caller`, telling `onRetry` the soonest retry while every call under way waits for one, and null once one goes again. */
export function watchRetries(caller: S3Calls, onRetry: (at: number | null) => void): S3Calls {
  let running = 0;
  const waits = new Map<object, number>();
  let told: number | null = null;
  const tell = () => {
    const at = running > 0 && waits.size === running ? Math.min(...waits.values()) : null;
    if (at === told) return;
    told = at;
    onRetry(at);
  };
  return {
    async call(op, opts) {
      const call = {};
      running += 1;
      try {
        return await caller.call(op, {
          ...opts,
          onWait: (at) => {
            if (at === null) waits.delete(call);
            else waits.set(call, at);
            tell();
          },
        });
      } finally {
        running -= 1;
        waits.delete(call);
        tell();
      }
    },
  };
}
