import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { requirePort, useAlbumBackend } from '../../backend/backend-context';
import type { Item } from '../../domain/entities';
import type { ItemEdit } from '../../domain/inputs';
import { applyItemEdit, checkItemEdit, undoEdit } from '../../lib/item-edit';
import { describeError } from '../../lib/error-messages';
import { applyItemChange, heardOf, type ItemPlaces } from '../../shared/live/apply-item-change';
import { itemKeys } from '../../shared/item-keys';
import { searchKeys } from '../../shared/search-keys';
import { useToast } from '../../ui/toast';

/** How long an edit can be taken back from its notice. */
const UNDO_MS = 8000;

/**
 * Writes items as they now are into the cache, from where they were (`from`): they move months if their date
 * changed, and the viewer's item follows. The same path a change heard on the album's channel takes, so hearing
 * one's own edit again afterwards changes nothing.
 */
function writeIntoCache(qc: QueryClient, albumId: string, from: readonly Item[], to: readonly Item[]): void {
  const places: ItemPlaces = new Map(from.map((i) => [i.id, heardOf(i)]));
  for (const row of to) applyItemChange(qc, { entity: 'item', op: 'update', albumId, id: row.id, row }, places);
}

/**
 * Edits items' details: shown at once, saved, and offered for undoing for a few seconds ("Undo" on the notice).
 * A failed save puts the items back as they were and throws (the caller keeps what the person typed).
 */
export function useEditItems(albumId: string) {
  const { itemWrites } = useAlbumBackend();
  const qc = useQueryClient();
  const toast = useToast();
  return useCallback(
    async (items: readonly Item[], edit: ItemEdit, done: string): Promise<void> => {
      const writes = requirePort(itemWrites, 'item writes');
      const checked = checkItemEdit(edit);
      const at = new Date().toISOString();
      const shown = items.map((i) => ({ ...i, ...applyItemEdit(i, checked), editedAt: at }));
      writeIntoCache(qc, albumId, items, shown);
      let saved: Item[];
      try {
        saved = await writes.editItems(albumId, items.map((i) => i.id), checked);
      } catch (e) {
        writeIntoCache(qc, albumId, shown, items);
        throw e;
      }
      writeIntoCache(qc, albumId, shown, saved);
      // What a search finds may have changed with it.
      void qc.invalidateQueries({ queryKey: searchKeys.all });

      const undo = async () => {
        // Items whose undoing is the same edit go together: a shift, or a keyword added to all, is one call.
        const groups = new Map<string, { edit: ItemEdit; ids: string[] }>();
        for (const before of items) {
          const back = undoEdit(before, checked);
          const key = JSON.stringify(back);
          const group = groups.get(key) ?? { edit: back, ids: [] };
          group.ids.push(before.id);
          groups.set(key, group);
        }
        try {
          for (const { edit: back, ids } of groups.values()) {
            const now = ids.map((id) => cachedItem(qc, albumId, id) ?? saved.find((s) => s.id === id)!);
            writeIntoCache(qc, albumId, now, await writes.editItems(albumId, ids, back));
          }
          void qc.invalidateQueries({ queryKey: searchKeys.all });
        } catch (e) {
          toast({ title: 'The edit could not be undone', description: describeError(e)?.title, tone: 'error' });
        }
      };
      toast({ title: done, key: `edit:${albumId}`, action: { label: 'Undo', altText: 'Edit the details again to take this back', onAction: () => void undo() }, duration: UNDO_MS });
    },
    [itemWrites, qc, albumId, toast],
  );
}

/** The item as the cache holds it now (its detail, else a loaded month), if it does. */
function cachedItem(qc: QueryClient, albumId: string, id: string): Item | undefined {
  const detail = qc.getQueryData<Item>(itemKeys.detail(albumId, id));
  if (detail) return detail;
  for (const [, rows] of qc.getQueriesData<Item[]>({ queryKey: [...itemKeys.album(albumId), 'month'] })) {
    const found = rows?.find((r) => r.id === id);
    if (found) return found;
  }
  return undefined;
}

/** The keywords of the album's items this screen has read, most used first: what a keyword field offers. */
export function knownKeywords(qc: QueryClient, albumId: string): string[] {
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  const add = (item: Item | undefined) => {
    if (!item || seen.has(item.id)) return;
    seen.add(item.id);
    for (const k of item.metadata.keywords ?? []) counts.set(k, (counts.get(k) ?? 0) + 1);
  };
  for (const [, rows] of qc.getQueriesData<Item[]>({ queryKey: [...itemKeys.album(albumId), 'month'] })) rows?.forEach(add);
  for (const [, item] of qc.getQueriesData<Item>({ queryKey: [...itemKeys.album(albumId), 'detail'] })) add(item);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k]) => k);
}
