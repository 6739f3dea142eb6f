import type { Item } from '../../backend/entities';
import type { DataPort } from '../../backend/ports';

/** Every finished item of an album, page by page (keyset), in the album's order: what "Download album" takes. */
export async function loadAlbumItems(data: DataPort, albumId: string, signal: AbortSignal): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<DataPort['listItems']>> = await data.listItems(albumId, { sort: 'taken', cursor, limit: 500 }, { signal });
    for (const item of page.rows) if (item.status === 'ready') items.push(item);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
