/**
 * [Note: The rows' positions are laid out once per layout]: scrolling renders the grid every frame, and the
 * virtualizer must not lay out every row again for it, only when the rows themselves change. Counted by
 * whether the positions it hands out are the same ones from render to render (no timing involved).
 */
import { useReducer, useRef } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import type { GridRow } from './grid-model';
import { useGridVirtualizer } from './use-grid-virtualizer';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

const headers = (n: number, tag: string): GridRow[] =>
  Array.from({ length: n }, (_, i) => ({ kind: 'header', key: `${tag}${i}`, month: '2024-01', count: 1, height: 44 }));

test('the rows are laid out once per layout, not again on every render a scroll causes', () => {
  const layouts: unknown[] = [];
  let rerender = () => {};
  function Grid({ rows }: { rows: GridRow[] }) {
    const ref = useRef<HTMLDivElement>(null);
    const [, bump] = useReducer((n: number) => n + 1, 0);
    rerender = bump;
    const v = useGridVirtualizer(rows, ref);
    const height = v.getTotalSize();
    // The positions the render above was given (the virtualizer keeps its last layout here).
    layouts.push(v.measurementsCache);
    return <div ref={ref} style={{ height: 400, overflow: 'auto' }}><div style={{ height }} /></div>;
  }
  const first = headers(17_000, 'a');
  flushSync(() => root.render(<Grid rows={first} />));
  for (let i = 0; i < 10; i++) flushSync(() => rerender());
  const sameRows = layouts.slice(1);
  expect(new Set(sameRows).size).toBe(1);
  expect(sameRows[0]).toBe(layouts[0]);

  // New rows (a month loaded): laid out again, once.
  const before = layouts.length;
  flushSync(() => root.render(<Grid rows={headers(17_001, 'b')} />));
  for (let i = 0; i < 5; i++) flushSync(() => rerender());
  const after = layouts.slice(before);
  expect(after[0]).not.toBe(layouts[0]);
  expect(new Set(after).size).toBe(1);
});
