import { describe, expect, it } from 'vitest';
import { lazyPort } from './lazy-port';

interface Counter {
  add(n: number): Promise<number>;
  total(): Promise<number>;
}

function counter(): Counter {
  let sum = 0;
  return {
    add: async (n) => (sum += n),
    total: async () => sum,
  };
}

describe('lazyPort', () => {
  it('loads the port with its first call, once, and answers every method from it', async () => {
    let loads = 0;
    const port = lazyPort(async () => (loads++, counter()));
    expect(loads).toBe(0);
    await Promise.all([port.add(2), port.add(3)]);
    expect(await port.total()).toBe(5);
    expect(loads).toBe(1);
  });

  it('asks again after a load that failed (a chunk that could not be fetched)', async () => {
    let tries = 0;
    const port = lazyPort(async () => {
      if (++tries === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return counter();
    });
    await expect(port.add(1)).rejects.toThrow('Failed to fetch');
    expect(await port.add(1)).toBe(1);
    expect(tries).toBe(2);
  });

  it('is no thenable, so awaiting it or returning it from an async function does not load it', async () => {
    let loads = 0;
    const port = lazyPort(async () => (loads++, counter()));
    expect(await Promise.resolve(port)).toBe(port);
    expect(loads).toBe(0);
  });

  it('keeps a method set on it (a stand-in) instead of the loaded one', async () => {
    const port = lazyPort(async () => counter());
    port.total = async () => 42;
    expect(await port.total()).toBe(42);
  });
});
