import { createContext, useContext, useSyncExternalStore } from 'react';
import type { UrlBatcher } from './url-batcher';

export const UrlBatcherContext = createContext<UrlBatcher | null>(null);

/** The URL of one object, fetched together with the others asked for in the same frame. */
export function useObjectUrl(key: string | null | undefined): string | undefined {
  const batcher = useContext(UrlBatcherContext);
  if (!batcher) throw new Error('useObjectUrl outside UrlBatcherContext');
  return useSyncExternalStore(batcher.subscribe, () => (key ? batcher.get(key) : undefined));
}
