import type { Item } from '../../domain/entities';
import type { ItemsPort } from '../../backend/ports';
import type { Page } from '../../domain/queries';

/** Every finished item of an album, page by page (keyset), in the album's order: what "Download album" takes. */
export async function loadAlbumItems(items: Pick<ItemsPort, 'listItems'>, albumId: string, signal: AbortSignal): Promise<Item[]> {
  const ready: Item[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<Item> = await items.listItems(albumId, { sort: 'taken', cursor, limit: 500 }, { signal });
    for (const item of page.rows) if (item.status === 'ready') ready.push(item);
    cursor = page.nextCursor;
  } while (cursor);
  return ready;
}
