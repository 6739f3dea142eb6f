import { describe, expect, it } from 'vitest';
import { partCount, partRange, partSizeFor, usesMultipart } from './part-plan';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const l = { partSize: 8 * MiB, maxParts: 10_000, singlePutMaxBytes: 16 * MiB };

describe('part plan', () => {
  it('sends objects under 16 MiB in one PUT and the rest in parts', () => {
    expect(usesMultipart(16 * MiB - 1, l)).toBe(false);
    expect(usesMultipart(16 * MiB, l)).toBe(true);
  });

  it('keeps 8 MiB parts until a file would need more than 10,000 of them, then grows by whole MiB', () => {
    expect(partSizeFor(1 * GiB, l)).toBe(8 * MiB);
    expect(partSizeFor(10_000 * 8 * MiB, l)).toBe(8 * MiB);
    const big = 10_000 * 8 * MiB + 1;
    expect(partSizeFor(big, l)).toBe(9 * MiB);
    const huge = 5 * 1024 * GiB;
    const size = partSizeFor(huge, l);
    expect(size % MiB).toBe(0);
    expect(partCount(huge, size)).toBeLessThanOrEqual(10_000);
  });

  it('covers every byte exactly once', () => {
    const size = 3 * 8 * MiB + 5;
    const n = partCount(size, 8 * MiB);
    expect(n).toBe(4);
    let next = 0;
    for (let p = 1; p <= n; p++) {
      const r = partRange(size, 8 * MiB, p);
      expect(r.start).toBe(next);
      next = r.end;
    }
    expect(next).toBe(size);
  });
});
