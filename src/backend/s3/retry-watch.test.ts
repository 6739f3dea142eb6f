import { describe, expect, it } from 'vitest';
import type { CallOptions, S3Answer } from './s3-caller';
import { watchRetries } from './retry-watch';
import type { SignOp } from './s3-signer';

const part = (partNumber: number): SignOp => ({ op: 'part', key: 'k', uploadId: 'u', partNumber });

/** A caller whose calls wait until the test lets each go, and can be made to wait for a retry meanwhile. */
function heldCaller() {
  const calls: { opts: CallOptions; done: () => void }[] = [];
  return {
    calls,
    caller: {
      call: (_op: SignOp, opts: CallOptions) =>
        new Promise<S3Answer>((resolve) => {
          calls.push({ opts, done: () => resolve({ res: { status: 200, headers: {}, text: '' } } as unknown as S3Answer) });
        }),
    },
  };
}

describe('watchRetries', () => {
  it('tells of a retry only while every call under way waits for one, the soonest first', async () => {
    const { calls, caller } = heldCaller();
    const told: (number | null)[] = [];
    const watched = watchRetries(caller, (at) => told.push(at));
    const first = watched.call(part(1), { what: 'upload part 1' });
    const second = watched.call(part(2), { what: 'upload part 2' });
    expect(calls).toHaveLength(2);

    // One part waits while the other still moves: the file is not waiting.
    calls[0]!.opts.onWait!(5000);
    expect(told).toEqual([]);
    // Both wait: the sooner is told.
    calls[1]!.opts.onWait!(3000);
    expect(told).toEqual([3000]);
    // One goes again: no longer waiting.
    calls[1]!.opts.onWait!(null);
    expect(told).toEqual([3000, null]);
    // The one still moving finishes: the other is now all that is under way, and it waits.
    calls[1]!.done();
    await second;
    expect(told).toEqual([3000, null, 5000]);
    calls[0]!.opts.onWait!(null);
    calls[0]!.done();
    await first;
    expect(told).toEqual([3000, null, 5000, null]);
  });

  it('a call that ends while it waits (aborted, or its retries spent) is no longer waited for', async () => {
    const { calls, caller } = heldCaller();
    const told: (number | null)[] = [];
    const watched = watchRetries(caller, (at) => told.push(at));
    const only = watched.call({ op: 'head', key: 'k' }, { what: 'upload the file' });
    calls[0]!.opts.onWait!(1000);
    calls[0]!.done();
    await only;
    expect(told).toEqual([1000, null]);
  });
});
