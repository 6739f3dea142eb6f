/**
 * Search in the database (supabase/migrations/20261201100000_item_search.sql): who finds what, the words the
 * database cuts (the app's own, [Note: Search words]), the bounds search_items holds itself to, and that a search
 * over 100,000 items reads the indexes.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { itemWords, queryWords } from '../../src/lib/search-words';
import type { ItemMetadata } from '../../src/domain/entities';
import { startDb, type Actor, type DbError, type Harness } from './db-harness';

let db: Harness;
beforeAll(async () => {
  db = await startDb();
});
afterAll(async () => {
  await db?.close();
});

const TRICKY: { filename: string; metadata: ItemMetadata }[] = [
  { filename: 'IMG_1234.JPG', metadata: { title: 'Ponte Luís I', keywords: ['Bridge', 'Été'] } },
  { filename: 'Straße-Notizen.txt', metadata: { title: 'ẞTRASSE Æsir Œuvre Øresund Łódź Đakovo Ðorn Þingvellir Iıİ Ħamrun Ŧ' } },
  { filename: 'DSCF0042.RAF', metadata: { description: 'The Douro at dusk', cameraMake: 'FUJIFILM', cameraModel: 'X100V', lens: 'XF23mm F2' } },
  { filename: '東京タワー_夜景.heic', metadata: { title: 'がっこう ガッコウ ｶﾞｯｺｳ 한국어 서울', keywords: ['北京', '中文字符'] } },
  { filename: 'snake_case.name.with.dots.png', metadata: { description: 'tab\tnew\nline — dash – en…dots' } },
  { filename: `${'a'.repeat(70)}é${'b'.repeat(5)}.jpg`, metadata: { title: `${'ü'.repeat(80)} ${'東'.repeat(100)}` } },
  { filename: 'ΟΔΟΣ Σοφοκλέους ΣΑΣ.jpg', metadata: { title: 'Москва ЁЛКА Ǆemal ǅ ﬁne ﬀ ① ² ½ Ⅻ ™ ©' } },
  { filename: 'नमस्ते दुनिया.jpg', metadata: { title: 'مرحبا بالعالم שָׁלוֹם ไทย ภาษา', keywords: ['Ⓐⓑ', 'ＦＵＬＬｗｉｄｔｈ', '१२३', '٤٥٦'] } },
  { filename: 'emoji 😀 party 🎉.png', metadata: { keywords: ['café', 'CAFÉ', 'Cafe\u0301', 'café'], cameraMake: 'Canon', cameraModel: 'EOS R5', lens: 'RF 24-70mm F2.8 L IS USM' } },
  { filename: 'many.jpg', metadata: { description: Array.from({ length: 600 }, (_, i) => `w${i}`).join(' '), keywords: ['late'] } },
  { filename: 'x.jpg', metadata: { keywords: ['Aa', 'aA', 'AA'], title: '', description: '   ' } },
];

describe('the words the database cuts', () => {
  test('an item’s words are the app’s own', async () => {
    for (const item of TRICKY) {
      const [row] = await db.query<{ words: string[] }>(`select private.item_search_words($1, $2::jsonb) as words`, [item.filename, JSON.stringify(item.metadata)]);
      expect(row!.words, item.filename).toEqual(itemWords(item));
    }
  });

  test('a query’s words are the app’s own', async () => {
    for (const text of ['img 12', 'LUIS ete', 'Straße', 'a b c d e f g h i j k', ' ,. ', 'ΟΔΟΣ', '東京', 'CAFÉ cafe']) {
      const [row] = await db.query<{ words: string[] }>(`select (private.search_words($1))[1:8] as words`, [text]);
      expect(row!.words, text).toEqual(queryWords(text));
    }
  });
});
