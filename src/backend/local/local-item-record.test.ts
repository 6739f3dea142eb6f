import { describe, expect, it } from 'vitest';
import type { Item } from '../../domain/entities';
import { monthOf, monthRange, toItem } from './local-item-record';
import { withListFields } from './local-list-fields';

function item(overrides: Partial<Item>): Item {
  return {
    id: 'i1',
    albumId: 'a1',
    uploaderId: 'u1',
    kind: 'image',
    status: 'ready',
    filename: 'x.jpg',
    mime: 'image/jpeg',
    bytes: 1,
    sha256: null,
    width: null,
    height: null,
    durationMs: null,
    takenAt: null,
    originalKey: 'albums/a1/i1/original',
    previewKey: null,
    thumbKey: null,
    thumbhash: null,
    metadata: {},
    createdAt: '2024-05-06T07:08:09.000Z',
    deletedAt: null,
    ...overrides,
  };
}

describe('local item rows', () => {
  it('are listed in the album when ready, in the trash when deleted, and nowhere while uploading or failed', () => {
    expect(withListFields(item({})).lb).toBe('a');
    expect(withListFields(item({ deletedAt: '2024-06-01T00:00:00.000Z' })).lb).toBe('t');
    expect('lb' in withListFields(item({ status: 'uploading' }))).toBe(false);
    // A row that leaves the lists loses the field (a stale one would keep it in an index).
    expect('lb' in withListFields({ ...withListFields(item({})), status: 'failed' })).toBe(false);
  });

  it('sort by capture date, or by the date added when the capture date is missing or unusable', () => {
    const added = Date.parse('2024-05-06T07:08:09.000Z');
    expect(withListFields(item({ takenAt: '2019-12-31T23:59:59.000Z' })).st).toBe(Date.parse('2019-12-31T23:59:59.000Z'));
    expect(withListFields(item({ takenAt: null })).st).toBe(added);
    expect(withListFields(item({ takenAt: 'yesterday-ish' })).st).toBe(added);
    expect(withListFields(item({ takenAt: '+275760-09-13T00:00:00.000Z' })).st).toBe(added);
    expect(withListFields(item({})).sa).toBe(added);
  });

  it('come back to the app without their derived fields', () => {
    const original = item({ takenAt: '2020-01-01T00:00:00.000Z' });
    expect(toItem(withListFields(original))).toEqual(original);
  });

  it('fall into UTC months with exact boundaries', () => {
    expect(monthOf(Date.parse('2023-01-31T23:59:59.999Z'))).toBe('2023-01');
    expect(monthOf(Date.parse('2023-02-01T00:00:00.000Z'))).toBe('2023-02');
    expect(monthRange('2023-12')).toEqual([Date.parse('2023-12-01T00:00:00.000Z'), Date.parse('2024-01-01T00:00:00.000Z')]);
    expect(monthRange('0099-02')).toEqual([Date.parse('0099-02-01T00:00:00.000Z'), Date.parse('0099-03-01T00:00:00.000Z')]);
    expect(monthRange('2023-13')).toBeNull();
    expect(monthRange('2023-1')).toBeNull();
  });
});
