import { describe, expect, it } from 'vitest';
import { fitWithin } from './fit-within';

describe('fitWithin', () => {
  it('brings the long edge down to the limit, keeping the aspect ratio', () => {
    expect(fitWithin(6000, 4000, 2048)).toEqual({ width: 2048, height: 1365 });
    expect(fitWithin(4000, 6000, 480)).toEqual({ width: 320, height: 480 });
    expect(fitWithin(3000, 3000, 480)).toEqual({ width: 480, height: 480 });
  });

  it('never upscales a smaller image', () => {
    expect(fitWithin(800, 600, 2048)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(480, 100, 480)).toEqual({ width: 480, height: 100 });
  });

  it('keeps at least one pixel on the short side of a very thin image', () => {
    expect(fitWithin(29_000, 10, 480)).toEqual({ width: 480, height: 1 });
  });
});
