import { describe, expect, it } from 'vitest';
import { poolSizeFor } from './media-client';

describe('the media workers a device runs', () => {
  it('are one per core, no more than the files in flight', () => {
    expect(poolSizeFor(2, 3)).toBe(2);
    expect(poolSizeFor(8, 3)).toBe(3);
    expect(poolSizeFor(0, 3)).toBe(1);
  });

  it('are one per 2 GiB where the browser says how much memory the device has, and never none', () => {
    // A phone of 8 cores and 4 GB: two workers, each of which may hold a 100 MP picture and a decoder's heap.
    expect(poolSizeFor(8, 3, 4)).toBe(2);
    expect(poolSizeFor(8, 3, 8)).toBe(3);
    expect(poolSizeFor(4, 3, 2)).toBe(1);
    expect(poolSizeFor(4, 3, 0.5)).toBe(1);
    // Firefox and Safari do not say: cores decide.
    expect(poolSizeFor(4, 3, undefined)).toBe(3);
  });
});
