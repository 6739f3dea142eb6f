import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { applyItemEdit, checkItemEdit, undoEdit } from './item-edit';
import type { ItemEdit } from '../domain/inputs';

const photo = (metadata = {}, takenAt: string | null = '2024-05-01T10:00:00.000Z') => ({ metadata, takenAt });

describe('checkItemEdit', () => {
  it('trims texts, turns blanks and a rating of 0 into clearing, and keeps each keyword once', () => {
    expect(checkItemEdit({ title: '  Dawn ', description: ' \n ', rating: 0, keywords: [' sea', 'sea', '', 'boat '] })).toEqual({
      title: 'Dawn',
      description: null,
      rating: null,
      keywords: ['sea', 'boat'],
    });
    expect(checkItemEdit({ takenAt: '2019-06-01T12:00:00+02:00' })).toEqual({ takenAt: '2019-06-01T10:00:00.000Z' });
  });

  it('refuses with the field what the database would refuse', () => {
    const cases: [unknown, string][] = [
      [{}, 'edit'],
      [{ rating: 7 }, 'rating'],
      [{ lens: 'x' }, 'lens'],
      [{ title: 'é'.repeat(2001) }, 'title'],
      [{ keywords: ['k'.repeat(101)] }, 'keywords'],
      [{ addKeywords: Array.from({ length: 201 }, (_, i) => String(i)) }, 'addKeywords'],
      [{ takenAt: '31/12/2024' }, 'takenAt'],
      [{ shiftTakenAtMs: 0.5 }, 'shiftTakenAtMs'],
    ];
    for (const [edit, field] of cases) {
      let caught: unknown;
      try {
        checkItemEdit(edit);
      } catch (e) {
        caught = e;
      }
      expect(caught, JSON.stringify(edit)).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe('validation/invalid');
      expect((caught as AppError).details).toMatchObject({ field });
    }
    // 2,000 characters that are each two UTF-16 units are still 2,000 characters.
    expect(checkItemEdit({ title: '😀'.repeat(2000) }).title).toHaveLength(4000);
  });
});

describe('applyItemEdit and undoEdit', () => {
  const cases: [string, { metadata: Record<string, unknown>; takenAt: string | null }, ItemEdit][] = [
    ['texts and a rating', photo({ title: 'Old', rating: 2, cameraMake: 'Canon' }), { title: 'New', rating: 5, label: 'Red' }],
    ['keywords added and removed', photo({ keywords: ['a', 'b'] }), { addKeywords: ['c', 'a'], removeKeywords: ['b', 'z'] }],
    ['keywords replaced', photo({ keywords: ['a', 'b'] }), { keywords: ['c'] }],
    ['a keyword removed with its place in the hierarchy', photo({ keywords: ['Porto', 'Ana'], keywordPaths: ['Places|Portugal|Porto', 'People|Ana'] }), { removeKeywords: ['Porto'] }],
    ['keywords replaced, places with them', photo({ keywords: ['Porto'], keywordPaths: ['Places|Portugal|Porto'] }), { keywords: ['Lisbon'] }],
    ['a shift', photo({}), { shiftTakenAtMs: -90 * 60_000 }],
    ['a date set', photo({}, null), { takenAt: '2020-02-02T00:00:00.000Z' }],
  ];
  for (const [name, before, edit] of cases) {
    it(`takes back ${name} exactly`, () => {
      const after = applyItemEdit(before, checkItemEdit(edit));
      expect(after).not.toEqual(before);
      const undone = applyItemEdit(after, checkItemEdit(undoEdit(before, edit)));
      expect(undone.takenAt).toEqual(before.takenAt);
      // Keywords and places come back, each at the end of its list.
      const sorted = (m: Record<string, unknown>) => ({
        ...m,
        keywords: [...((m.keywords as string[]) ?? [])].sort(),
        ...(m.keywordPaths ? { keywordPaths: [...(m.keywordPaths as string[])].sort() } : {}),
      });
      expect(sorted(undone.metadata as Record<string, unknown>)).toEqual(sorted(before.metadata));
    });
  }

  it('adds keywords once, at the end, and clears the list when none remain', () => {
    expect(applyItemEdit(photo({ keywords: ['x'] }), { addKeywords: ['y', 'x'] }).metadata.keywords).toEqual(['x', 'y']);
    expect(applyItemEdit(photo({ keywords: ['x'] }), { removeKeywords: ['x'] }).metadata).toEqual({});
  });

  it('keeps a place given back only with its keyword', () => {
    const item = photo({ keywords: ['Porto'] });
    expect(applyItemEdit(item, checkItemEdit({ addKeywordPaths: ['Places|Portugal|Porto', 'Places|Spain|Vigo'] })).metadata).toEqual({
      keywords: ['Porto'],
      keywordPaths: ['Places|Portugal|Porto'],
    });
    expect(() => checkItemEdit({ addKeywordPaths: ['x'.repeat(201)] })).toThrow(AppError);
  });

  it('leaves an undated item undated when shifted', () => {
    expect(applyItemEdit(photo({}, null), { shiftTakenAtMs: 3600_000 }).takenAt).toBeNull();
  });
});
