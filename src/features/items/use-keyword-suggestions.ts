import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useMemo } from 'react';
import { useAlbumBackend } from '../../backend/backend-context';
import { queryWords, wordsMatch } from '../../lib/search-words';
import { searchKeys } from '../../shared/search-keys';
import { knownKeywords } from './use-item-edits';

const MAX = 50;

/**
 * The album's keywords that begin with what is typed (each word of it, as a search matches), offered while typing
 * one: those of the items this screen has read, most used first, then those the album's search finds in items
 * not loaded here (a huge album's keywords are not all on screen). `exclude`: keywords the item already has.
 */
export function useKeywordSuggestions(albumId: string, typed: string, exclude: readonly string[] = []): string[] {
  const { search } = useAlbumBackend();
  const qc = useQueryClient();
  const text = useDeferredValue(typed.trim());
  const words = useMemo(() => queryWords(text), [text]);
  const found = useQuery({
    queryKey: [...searchKeys.all, 'keywords', albumId, words.join(' ')],
    queryFn: async ({ signal }) => {
      const page = await search!.searchItems({ albumId, text: words.join(' '), limit: 200 }, { signal });
      return page.rows.flatMap((i) => i.metadata.keywords ?? []);
    },
    enabled: !!search && words.length > 0,
    staleTime: 60_000,
  });
  return useMemo(() => {
    if (words.length === 0) return [];
    const skip = new Set(exclude);
    const out: string[] = [];
    for (const k of [...knownKeywords(qc, albumId), ...(found.data ?? [])]) {
      if (skip.has(k) || !wordsMatch(queryWords(k), words)) continue;
      skip.add(k);
      out.push(k);
      if (out.length === MAX) break;
    }
    return out;
  }, [words, exclude, qc, albumId, found.data]);
}
