import { describe, expect, it } from 'vitest';
import { ITEM_WORDS_MAX, itemWords, queryWords, SEARCH_WORD_MAX_CHARS, wordsMatch } from './search-words';

const item = (filename: string, metadata = {}) => itemWords({ filename, metadata });

describe('search words', () => {
  it('cuts names and details into lower-case words without accents', () => {
    expect(item('IMG_1234.JPG', { title: 'Été à Porto—Ribeira', keywords: ['Straße', 'Ærø', 'Łódź'], cameraModel: 'X100V' })).toEqual([
      'img', '1234', 'jpg', 'ete', 'a', 'porto', 'ribeira', 'strasse', 'aero', 'lodz', 'x100v',
    ]);
  });

  it('keeps letters of every script as words', () => {
    expect(item('東京タワー.heic')).toEqual(['東京タワー', 'heic']);
    expect(queryWords('ПОРТО')).toEqual(['порто']);
  });

  it('finds an item when every word of the search begins one of its words', () => {
    const words = item('IMG_1234.JPG', { keywords: ['Porto'], lens: 'XF23mm F2' });
    expect(wordsMatch(words, queryWords('img 12'))).toBe(true);
    expect(wordsMatch(words, queryWords('port xf23'))).toBe(true);
    expect(wordsMatch(words, queryWords('orto'))).toBe(false);
    expect(wordsMatch(words, queryWords('porto lisbon'))).toBe(false);
    expect(wordsMatch(words, queryWords('PÔRTO'))).toBe(true);
  });

  it('bounds what it keeps', () => {
    expect(queryWords('a b c d e f g h i j k a')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(queryWords(`${'x'.repeat(100)} y`)).toEqual(['x'.repeat(SEARCH_WORD_MAX_CHARS), 'y']);
    const many = Array.from({ length: 2000 }, (_, i) => `w${i}`).join(' ');
    expect(item('f', { description: many })).toHaveLength(ITEM_WORDS_MAX);
    expect(queryWords(' — ,. ')).toEqual([]);
  });
});
