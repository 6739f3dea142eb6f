import { describe, expect, it } from 'vitest';
import { parseSharedKey, sharedKey } from './link-object-keys';
import { LinkUrlBook, URL_REFRESH_MARGIN_MS } from './link-url-book';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const HOUR = 3_600_000;

describe('opaque keys of a link visitor', () => {
  it('name an item and a variant, and nothing a bucket knows', () => {
    const key = sharedKey('0b7c-item', 'thumb');
    expect(key).not.toContain('albums/');
    expect(parseSharedKey(key)).toEqual({ itemId: '0b7c-item', variant: 'thumb' });
  });

  it('refuse keys that are not theirs', () => {
    expect(parseSharedKey('albums/a/b/thumb.webp')).toBeNull();
    expect(parseSharedKey('shared/x/poster')).toBeNull();
    expect(parseSharedKey('shared//thumb')).toBeNull();
  });
});

describe('LinkUrlBook', () => {
  it('answers from what the pages carried while the URLs have time left', () => {
    const book = new LinkUrlBook();
    book.record('a', 'thumb', 'https://bucket/a-thumb?sig', NOW + HOUR);
    const { found, refresh } = book.lookup([sharedKey('a', 'thumb')], NOW);
    expect(found.get(sharedKey('a', 'thumb'))).toBe('https://bucket/a-thumb?sig');
    expect(refresh).toEqual({});
  });

  it('asks again for URLs that are about to expire, grouped by variant, each item once', () => {
    const book = new LinkUrlBook();
    book.record('a', 'thumb', 'https://bucket/a', NOW + URL_REFRESH_MARGIN_MS - 1);
    book.record('b', 'thumb', 'https://bucket/b', NOW + HOUR);
    const keys = [sharedKey('a', 'thumb'), sharedKey('a', 'thumb'), sharedKey('b', 'thumb'), sharedKey('c', 'preview'), sharedKey('a', 'original')];
    const { found, refresh } = book.lookup(keys, NOW);
    expect([...found.keys()]).toEqual([sharedKey('b', 'thumb')]);
    expect(refresh).toEqual({ thumb: ['a'], preview: ['c'], original: ['a'] });
  });

  it('never refreshes a key it does not own, and records no missing URL', () => {
    const book = new LinkUrlBook();
    book.record('a', 'original', null, NOW + HOUR);
    const { found, refresh } = book.lookup(['albums/x/y/original'], NOW);
    expect(found.size).toBe(0);
    expect(refresh).toEqual({});
    expect(book.earliestExpiry()).toBeNull();
  });

  it('a refreshed URL replaces the old one with its own expiry', () => {
    const book = new LinkUrlBook();
    book.record('a', 'preview', 'https://bucket/old', NOW + 60_000);
    book.record('a', 'preview', 'https://bucket/new', NOW + HOUR);
    expect(book.lookup([sharedKey('a', 'preview')], NOW).found.get(sharedKey('a', 'preview'))).toBe('https://bucket/new');
    expect(book.earliestExpiry()).toBe(NOW + HOUR);
  });
});
