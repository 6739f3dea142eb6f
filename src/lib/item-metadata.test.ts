import { describe, expect, it } from 'vitest';
import { boundItemMetadata, jsonbTextBytes, METADATA_MAX_BYTES } from './item-metadata';
import { itemMetadata } from './validation';

describe('itemMetadata: what the database accepts', () => {
  it('accepts the known fields within the bound', () => {
    const fine = { cameraMake: 'Canon', iso: 100, rating: 4, keywords: Array.from({ length: 200 }, (_, i) => `k${i}`), notice: 'image/too-large' };
    expect(itemMetadata.safeParse(fine).success).toBe(true);
  });

  it('refuses 201 keywords, a keyword of 101 characters, an unknown key, a number as text and 17 KiB', () => {
    for (const bad of [
      { keywords: Array.from({ length: 201 }, () => 'k') },
      { keywords: ['k'.repeat(101)] },
      { cameraMake: 'Canon', tracking: 'x' },
      { iso: '100' },
      { description: 'x'.repeat(17 * 1024) },
    ]) {
      expect(itemMetadata.safeParse(bad).success, JSON.stringify(bad).slice(0, 60)).toBe(false);
    }
  });
});

describe('jsonbTextBytes', () => {
  it('counts as Postgres prints jsonb: a space after each colon and comma, UTF-8 bytes', () => {
    expect(jsonbTextBytes({})).toBe(2);
    expect(jsonbTextBytes({ a: 1 })).toBe('{"a": 1}'.length);
    expect(jsonbTextBytes({ a: [1, 2], b: 'é' })).toBe(new TextEncoder().encode('{"a": [1, 2], "b": "é"}').length);
    // 1e-7 is printed written out by Postgres (0.0000001): never counted as less.
    expect(jsonbTextBytes(1e-7)).toBeGreaterThanOrEqual('0.0000001'.length);
  });
});

describe('boundItemMetadata: a photo is never refused for its metadata', () => {
  it('keeps the first 200 keywords, each cut to 100 characters, and fits in 16 KiB', () => {
    const out = boundItemMetadata({ cameraMake: 'Nikon', keywords: Array.from({ length: 5000 }, (_, i) => `${i} ${'w'.repeat(150)}`) });
    expect(out.cameraMake).toBe('Nikon');
    expect(out.keywords!.length).toBeLessThanOrEqual(200);
    expect(out.keywords!.length).toBeGreaterThan(100);
    expect(out.keywords![0]).toBe(`0 ${'w'.repeat(98)}`);
    expect(jsonbTextBytes(out)).toBeLessThanOrEqual(METADATA_MAX_BYTES);
    expect(itemMetadata.safeParse(out).success).toBe(true);
  });

  it('drops unknown keys and values of the wrong type, and cuts a 20 MiB description', () => {
    const out = boundItemMetadata({ tracking: 'x', iso: '100', fNumber: Infinity, notice: 'other', rating: 5, description: 'd'.repeat(20 * 1024 * 1024) });
    expect(out).toEqual({ rating: 5, description: 'd'.repeat(2000) });
    expect(itemMetadata.safeParse(out).success).toBe(true);
  });

  it('removes what jsonb cannot hold: NUL and half surrogate pairs', () => {
    expect(boundItemMetadata({ title: 'a\u0000b\ud800c', keywords: ['\udc00'] })).toEqual({ title: 'ab\ufffdc', keywords: ['\ufffd'] });
  });

  it('gives an empty object for anything that is not an object', () => {
    for (const v of [null, undefined, 'x', 3, [1]]) expect(boundItemMetadata(v)).toEqual({});
  });
});
