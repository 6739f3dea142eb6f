import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/app-error';
import { decodeItemCursor, encodeItemCursor } from './local-cursor';

describe('item cursors', () => {
  it('round-trip as URL-safe text', () => {
    const cursor = { sort: 'taken' as const, time: 1_700_000_000_123, id: 'a1b2-c3_d4' };
    const text = encodeItemCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeItemCursor(text, 'taken')).toEqual(cursor);
  });

  it('refuse garbage and a cursor of the other sort with validation/invalid', () => {
    const added = encodeItemCursor({ sort: 'added', time: 5, id: 'x' });
    for (const [text, sort] of [['not a cursor', 'taken'], [added, 'taken'], ['', 'added']] as const) {
      let caught: unknown;
      try {
        decodeItemCursor(text, sort);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('validation/invalid');
    }
  });
});
