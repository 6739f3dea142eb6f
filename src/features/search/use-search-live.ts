import { useQueryClient } from '@tanstack/react-query';
import type { ChangeEvent } from '../../backend/ports';
import { useLiveAnywhere } from '../../shared/live/use-live-anywhere';
import { searchKeys } from '../../shared/search-keys';

const changesFound = (ev: ChangeEvent) => ev.entity === 'item' || ev.entity === 'album';

/**
 * Keeps a search across albums live: what others add, edit, trash or restore in any album the person can see may
 * change what it finds, so the results are read again, once per burst of changes, as the albums screen is.
 */
export function useSearchLive(active: boolean): void {
  const qc = useQueryClient();
  useLiveAnywhere(() => void qc.invalidateQueries({ queryKey: searchKeys.all }), { active, wants: changesFound });
}
