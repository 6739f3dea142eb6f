/** Adding items, the trash and others' unfinished uploads, each through its SQL function, which checks the caller's role. */
import type { CallOptions, ItemWritesPort } from '../ports';
import type { FinalizeItemInput, ItemEdit, ReserveItemInput } from '../../domain/inputs';
import { checkItemEdit } from '../../lib/item-edit';
import type { Item } from '../../domain/entities';
import type { SidecarWriter } from '../sidecar-writer';
import type { PostgrestCalls } from './supabase-calls';
import { rows, toFinalizeInput, toItem } from './supabase-rows';

/** The most rows one clear_pending_items call clears. */
const CLEAR_BATCH = 5000;

export class SupabaseItemWrites implements ItemWritesPort {
  /** `sidecars`: writes edited items' sidecars beside their originals, where file storage is set up. */
  constructor(
    private readonly calls: PostgrestCalls,
    private readonly sidecars?: SidecarWriter,
  ) {}

  async reserveItems(albumId: string, inputs: ReserveItemInput[], opts: CallOptions = {}): Promise<Item[]> {
    const p_items = inputs.map((i) => ({ id: i.id, filename: i.filename, mime: i.mime, kind: i.kind, bytes: i.bytes, ...(i.stored ? { stored: i.stored } : {}) }));
    const reserved = rows(await this.calls.send(this.calls.rpc('reserve_items', { p_album_id: albumId, p_items }), opts.signal, 'album/not-found')).map(toItem);
    // Returned in the order asked, whatever order the function gives them back in.
    const byId = new Map(reserved.map((item) => [item.id, item]));
    return inputs.map((i) => byId.get(i.id)).filter((item): item is Item => item !== undefined);
  }

  async finalizeItem(albumId: string, itemId: string, input: FinalizeItemInput, opts: CallOptions = {}): Promise<Item> {
    const p_input = toFinalizeInput(input);
    return this.calls.one(this.calls.rpc('finalize_item', { p_album_id: albumId, p_item_id: itemId, p_input }), opts.signal, 'item/not-found', toItem);
  }

  async failItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('fail_item', { p_album_id: albumId, p_item_id: itemId }), opts.signal, 'item/not-found');
  }

  async trashItems(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('trash_items', { p_album_id: albumId, p_item_ids: itemIds }), opts.signal, 'item/not-found');
  }

  async restoreItems(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('restore_items', { p_album_id: albumId, p_item_ids: itemIds }), opts.signal, 'item/not-found');
  }

  async editItems(albumId: string, itemIds: string[], edit: ItemEdit, opts: CallOptions = {}): Promise<Item[]> {
    // Checked here too: a mistake is told at once, with the field, as the local backend tells it.
    const p_edit = checkItemEdit(edit);
    const edited = rows(await this.calls.send(this.calls.rpc('edit_items', { p_album_id: albumId, p_item_ids: itemIds, p_edit }), opts.signal, 'item/not-found')).map(toItem);
    this.sidecars?.write(edited);
    const byId = new Map(edited.map((item) => [item.id, item]));
    return itemIds.map((id) => byId.get(id)).filter((item): item is Item => item !== undefined);
  }

  async countPendingItems(albumId: string, opts: CallOptions = {}): Promise<number> {
    return Number(await this.calls.send(this.calls.rpc('count_pending_items', { p_album_id: albumId }), opts.signal, 'album/not-found'));
  }

  async clearPendingItems(albumId: string, opts: CallOptions = {}): Promise<number> {
    // A call clears at most CLEAR_BATCH rows, each well within the statement timeout ([Note: Guests cannot block
    // an album] in the migrations); called again until one clears fewer.
    let cleared = 0;
    for (;;) {
      const n = Number(await this.calls.send(this.calls.rpc('clear_pending_items', { p_album_id: albumId }), opts.signal, 'album/not-found'));
      cleared += n;
      if (n < CLEAR_BATCH) return cleared;
    }
  }
}
