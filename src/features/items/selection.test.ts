import { describe, expect, it } from 'vitest';
import { emptySelection, prune, selectAll, selectRange, toggle, toggleAll } from './selection';

const order = ['a', 'b', 'c', 'd', 'e'];

describe('selection', () => {
  it('toggles single items and remembers the anchor', () => {
    let s = toggle(emptySelection, 'b');
    expect([...s.ids]).toEqual(['b']);
    s = toggle(s, 'b');
    expect(s.ids.size).toBe(0);
    expect(s.anchor).toBe('b');
  });

  it('selects a range in either direction from the anchor', () => {
    const s = selectRange(toggle(emptySelection, 'd'), order, 'b');
    expect([...s.ids].sort()).toEqual(['b', 'c', 'd']);
    const s2 = selectRange(toggle(emptySelection, 'a'), order, 'c');
    expect([...s2.ids].sort()).toEqual(['a', 'b', 'c']);
  });

  it('keeps earlier picks when adding a range', () => {
    let s = toggle(emptySelection, 'a');
    s = toggle(s, 'd');
    s = selectRange(s, order, 'e');
    expect([...s.ids].sort()).toEqual(['a', 'd', 'e']);
  });

  it('selects all and forgets items that disappeared', () => {
    const s = selectAll(order);
    expect(s.ids.size).toBe(5);
    const p = prune(s, new Set(['a', 'c']));
    expect([...p.ids].sort()).toEqual(['a', 'c']);
    expect(prune(p, new Set(['a', 'c']))).toBe(p);
  });

  it("adds a day's items to what is selected, and takes them all out once they all are", () => {
    const one = toggle(emptySelection, 'a');
    const day = toggleAll(one, ['c', 'd']);
    expect([...day.ids].sort()).toEqual(['a', 'c', 'd']);
    // Some of them selected already: the rest join them.
    expect([...toggleAll(toggle(one, 'c'), ['c', 'd']).ids].sort()).toEqual(['a', 'c', 'd']);
    expect([...toggleAll(day, ['c', 'd']).ids]).toEqual(['a']);
  });
});
