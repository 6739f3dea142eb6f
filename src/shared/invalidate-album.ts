import type { useQueryClient } from '@tanstack/react-query';
import { albumKeys } from './album-keys';
import { itemKeys } from './item-keys';
import { searchKeys } from './search-keys';

/** After items were added, trashed or restored: the album's lists, counts and summary, and searches, are read again. */
export function invalidateAlbum(qc: ReturnType<typeof useQueryClient>, albumId: string) {
  void qc.invalidateQueries({ queryKey: itemKeys.album(albumId) });
  void qc.invalidateQueries({ queryKey: albumKeys.detail(albumId) });
  void qc.invalidateQueries({ queryKey: albumKeys.list() });
  void qc.invalidateQueries({ queryKey: albumKeys.activity() });
  void qc.invalidateQueries({ queryKey: searchKeys.all });
}
