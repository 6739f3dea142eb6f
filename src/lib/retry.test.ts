import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { backoffMs } from './backoff';
import { withRetry } from './retry';

const policy = { retries: 3, baseMs: 1, maxMs: 4 };

describe('retries', () => {
  it('tries a retryable failure again, up to the policy, then gives up with the last error', async () => {
    let calls = 0;
    const p = withRetry(
      async () => {
        calls++;
        throw new AppError('backend/unreachable', `HTTP 503 #${calls}`);
      },
      { policy, isOffline: () => false },
    );
    await expect(p).rejects.toMatchObject({ code: 'backend/unreachable', message: 'HTTP 503 #4' });
    expect(calls).toBe(4);
  });

  it('says when each wait ends, and that it is over', async () => {
    const told: (number | null)[] = [];
    let calls = 0;
    const before = Date.now();
    const answer = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw new AppError('backend/unreachable', 'HTTP 503', { retryAfterMs: 30 });
        return 'stored';
      },
      { policy, isOffline: () => false, onWait: (at) => told.push(at) },
    );
    expect(answer).toBe('stored');
    expect(told.map((at) => (at === null ? null : 'at'))).toEqual(['at', null, 'at', null]);
    for (const at of told) if (at !== null) expect(at).toBeGreaterThanOrEqual(before + 30);
  });

  it('never retries a refusal (denied, quota)', async () => {
    let calls = 0;
    const p = withRetry(
      async () => {
        calls++;
        throw new AppError('storage/denied', 'HTTP 403');
      },
      { policy, isOffline: () => false },
    );
    await expect(p).rejects.toMatchObject({ code: 'storage/denied' });
    expect(calls).toBe(1);
  });

  it('waits for the network while offline without spending retries', async () => {
    let calls = 0;
    let offline = true;
    let waits = 0;
    const result = await withRetry(
      async () => {
        calls++;
        if (calls <= 10) throw new AppError('offline', 'no network');
        return 'sent';
      },
      {
        policy: { retries: 1, baseMs: 1, maxMs: 1 },
        isOffline: () => offline,
        waitForOnline: async () => {
          waits++;
          if (waits === 10) offline = false;
        },
      },
    );
    expect(result).toBe('sent');
    expect(waits).toBe(10);
  });

  it('waits a random time under the exponential cap, and never less than Retry-After', () => {
    const p = { retries: 5, baseMs: 100, maxMs: 1000 };
    expect(backoffMs(0, p, () => 0.999)).toBeLessThanOrEqual(100);
    expect(backoffMs(3, p, () => 0.999)).toBeLessThanOrEqual(800);
    expect(backoffMs(10, p, () => 0.999)).toBeLessThanOrEqual(1000);
    expect(backoffMs(2, p, () => 0)).toBe(0);
    expect(backoffMs(2, p, () => 0, 5000)).toBe(5000);
  });
});
