/**
 * The `shoebox` bucket on Supabase Storage: its allowed_mime_types is the app's closed list of stored types,
 * so that Storage itself refuses an upload that could store a page a browser would render.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STORABLE_TYPES } from '../../src/backend/s3/content-types';
import { startDb, type Harness } from './db-harness';

let db: Harness;
let allowed: string[] | null;

beforeAll(async () => {
  db = await startDb();
  const [row] = await db.query<{ allowed_mime_types: string[] | null }>(`select allowed_mime_types from storage.buckets where id = 'shoebox'`);
  allowed = row?.allowed_mime_types ?? null;
});
afterAll(async () => {
  await db?.close();
});

/**
 * Storage's upload check as it documents and implements it: no list accepts everything; otherwise the type's
 * part before the first '/' must equal an entry's, and the part after it must equal the entry's or the entry
 * must end in '/*'. Parameters are not removed first.
 */
function storageAccepts(list: string[] | null, type: string): boolean {
  if (!list || list.length === 0) return true;
  const [major, minor] = type.split('/');
  if (minor === undefined) return false;
  return list.some((entry) => {
    const [m, n] = entry.split('/');
    return m === major && (n === '*' || n === minor);
  });
}

describe('the shoebox bucket', () => {
  test('allows exactly the types the app stores objects with, without wildcards', () => {
    expect([...(allowed ?? [])].sort()).toEqual([...STORABLE_TYPES].sort());
    expect(allowed!.some((t) => t.includes('*'))).toBe(false);
  });

  test.each(['text/html', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'application/pdf', 'image/png; x=1, text/html', 'image/webp;text/html'])(
    'makes Storage refuse an upload of type %s',
    (type) => {
      expect(storageAccepts(allowed, type)).toBe(false);
    },
  );

  test('lets photos, previews and other files as bytes through', () => {
    for (const type of ['image/jpeg', 'image/webp', 'video/mp4', 'application/octet-stream']) expect(storageAccepts(allowed, type), type).toBe(true);
  });
});
