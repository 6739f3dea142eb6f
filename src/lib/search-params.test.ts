import { describe, expect, it } from 'vitest';
import { asksForSearch, searchFromParams } from './search-params';

const p = (s: string) => new URLSearchParams(s);

describe('a search in the address', () => {
  it('reads every criterion', () => {
    const f = searchFromParams(p('q=porto+bridge&rating=4&label=Red&kind=video&from=2024-03-01&to=2024-03-31&filter=favorites&by=u1'));
    expect(f).toMatchObject({ text: 'porto bridge', minRating: 4, label: 'Red', kind: 'video', favoritesOnly: true, uploaderId: 'u1' });
    // Whole days as the photos' clocks show them, whoever opens the address: 1 March to the end of 31 March.
    expect(f.from).toBe('2024-03-01T00:00:00.000Z');
    expect(f.to).toBe('2024-04-01T00:00:00.000Z');
  });

  it('leaves out what no search takes', () => {
    expect(searchFromParams(p('q=%20%20&rating=9&label=Pink&kind=doc&from=yesterday&to=2024-02-30x'))).toEqual({});
    expect(searchFromParams(p(`q=${'a'.repeat(500)}`)).text).toHaveLength(200);
  });

  it('tells a search from the album’s own filters', () => {
    expect(asksForSearch(p('filter=favorites&by=u1&sort=added'))).toBe(false);
    expect(asksForSearch(p('q=x'))).toBe(true);
    expect(asksForSearch(p('rating=3'))).toBe(true);
    expect(asksForSearch(p('q=&rating=0'))).toBe(false);
  });
});
