/** The albums port on IndexedDB. The local profile owns every local album. */
import type { AlbumsPort, CallOptions } from '../ports';
import type { AlbumInput, AlbumPatch } from '../../domain/inputs';
import type { Album } from '../../domain/entities';
import { addActivity } from './local-activity';
import { albumChange } from './local-changes';
import { albumView, isCoverable, requireAlbum, toAlbum } from './local-album-view';
import { now, readTransaction, writeTransaction, type LocalDataDeps } from './local-data-deps';
import { newAlbumRecord, prefixRange, type AlbumRecord } from './local-db';
import { guard, invalid } from './local-errors';
import { log } from '../../lib/log';

// The text rules (and zod) load with the first write that checks text: reading albums never needs them.
const validation = () => import('../../lib/validation');

/** The albums port on IndexedDB. */
export function localAlbums(deps: LocalDataDeps): AlbumsPort {
  return {
    listAlbums(opts: CallOptions = {}): Promise<Album[]> {
      return readTransaction(deps, opts.signal, async (tx) => {
        const records = await tx.objectStore('albums').index('updated').getAll();
        records.reverse();
        return Promise.all(records.map((r) => albumView(tx, r)));
      });
    },
    getAlbum(albumId: string, opts: CallOptions = {}): Promise<Album> {
      return readTransaction(deps, opts.signal, async (tx) => albumView(tx, await requireAlbum(tx, albumId)));
    },
    createAlbum(input: AlbumInput, opts: CallOptions = {}): Promise<Album> {
      return guard(opts.signal, async () => {
        const { title, description } = (await validation()).validateAlbumInput(input ?? { title: '' });
        const profile = await deps.profile();
        const at = now();
        const record = newAlbumRecord(crypto.randomUUID(), profile.id, title, description, at);
        await writeTransaction(deps, async (tx) => {
          await tx.objectStore('albums').add(record);
          await addActivity(tx, record.id, profile.id, 'created_album', 1, at);
        });
        const album = toAlbum(record, null);
        deps.realtime.emit([albumChange('insert', album)]);
        return album;
      });
    },
    updateAlbum(albumId: string, patch: AlbumPatch, opts: CallOptions = {}): Promise<Album> {
      return guard(opts.signal, async () => {
        const changes: Partial<AlbumRecord> = {};
        const { albumDescription, albumTitle, parseField } = await validation();
        if (patch?.title !== undefined) changes.title = parseField(albumTitle, patch.title, 'title');
        if (patch?.description !== undefined) changes.description = parseField(albumDescription, patch.description, 'description');
        if (patch?.keepLocation !== undefined) {
          // The local profile owns every local album, so the owner's choice is always its to make.
          if (typeof patch.keepLocation !== 'boolean') throw invalid('keepLocation', 'Keeping location is on or off.', 'invalid');
          changes.keepLocation = patch.keepLocation;
        }
        const album = await writeTransaction(deps, async (tx) => {
          const current = await requireAlbum(tx, albumId);
          if (patch?.coverItemId !== undefined) {
            if (patch.coverItemId === null) changes.coverItemId = null;
            else {
              const id = typeof patch.coverItemId === 'string' ? patch.coverItemId : '';
              const item = id ? await tx.objectStore('items').get([albumId, id]) : undefined;
              if (!item || !isCoverable(item)) throw invalid('coverItemId', 'Choose a photo or video of this album as its cover.', 'invalid');
              changes.coverItemId = id;
            }
          }
          const next: AlbumRecord = { ...current, ...changes, updatedAt: now() };
          await tx.objectStore('albums').put(next);
          return albumView(tx, next);
        });
        deps.realtime.emit([albumChange('update', album)]);
        return album;
      });
    },
    deleteAlbum(albumId: string, opts: CallOptions = {}): Promise<void> {
      return guard(opts.signal, async () => {
        // Loaded before the transaction: one that waits on anything but its own requests commits early.
        const { forgetSocial } = await import('./local-social');
        const album = await writeTransaction(deps, async (tx) => {
          const record = await requireAlbum(tx, albumId);
          const view = await albumView(tx, record);
          await tx.objectStore('albums').delete(albumId);
          await tx.objectStore('items').delete(prefixRange(albumId));
          await tx.objectStore('counts').delete(prefixRange(albumId));
          const activity = tx.objectStore('activity');
          const activityIds = await activity.index('album').getAllKeys(albumId);
          await Promise.all(activityIds.map((id) => activity.delete(id)));
          await forgetSocial(tx, albumId);
          return view;
        });
        deps.realtime.emit([albumChange('delete', album)]);
        // The rows are gone; the bytes follow. A failure here leaves unreachable bytes, never a broken album.
        await deps.files.removeTree(`albums/${albumId}`).catch((e: unknown) => log.error('Could not remove album files', e));
      });
    },
  };
}
