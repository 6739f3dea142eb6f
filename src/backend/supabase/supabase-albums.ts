/** Albums over PostgREST: read from `album_summaries` (RLS decides what the caller sees), written through the SQL functions. */
import { AppError, throwIfAborted } from '../../lib/app-error';
import { albumDescription, albumTitle, parseField, validateAlbumInput } from '../../lib/validation';
import type { AlbumsPort, CallOptions } from '../ports';
import type { AlbumInput, AlbumPatch } from '../../domain/inputs';
import type { Album } from '../../domain/entities';
import type { PostgrestCalls, Sendable } from './supabase-calls';
import { rows, toAlbum } from './supabase-rows';

export class SupabaseAlbums implements AlbumsPort {
  constructor(private readonly calls: PostgrestCalls) {}

  async listAlbums(opts: CallOptions = {}): Promise<Album[]> {
    const query = this.calls.client
      .from('album_summaries')
      .select('*')
      .is('deleted_at', null)
      .order('updated_at', { ascending: false })
      .order('id', { ascending: false });
    return rows(await this.calls.send(query as unknown as Sendable, opts.signal)).map(toAlbum);
  }

  async getAlbum(albumId: string, opts: CallOptions = {}): Promise<Album> {
    const query = this.calls.client.from('album_summaries').select('*').eq('id', albumId).is('deleted_at', null).single();
    return this.calls.one(query as unknown as Sendable, opts.signal, 'album/not-found', toAlbum);
  }

  async createAlbum(input: AlbumInput, opts: CallOptions = {}): Promise<Album> {
    throwIfAborted(opts.signal);
    const { title, description } = validateAlbumInput(input);
    return this.calls.one(this.calls.rpc('create_album', { p_title: title, p_description: description }), opts.signal, 'album/not-found', toAlbum);
  }

  async updateAlbum(albumId: string, patch: AlbumPatch, opts: CallOptions = {}): Promise<Album> {
    throwIfAborted(opts.signal);
    const p_patch: Record<string, unknown> = {};
    if (patch.title !== undefined) p_patch.title = parseField(albumTitle, patch.title, 'title');
    if (patch.description !== undefined) p_patch.description = parseField(albumDescription, patch.description, 'description');
    if (patch.coverItemId !== undefined) {
      if (patch.coverItemId !== null && typeof patch.coverItemId !== 'string') {
        throw new AppError('validation/invalid', 'The cover must be a photo or video of this album.', { details: { field: 'coverItemId', rule: 'invalid' } });
      }
      p_patch.cover_item_id = patch.coverItemId;
    }
    if (patch.keepLocation !== undefined) {
      if (typeof patch.keepLocation !== 'boolean') {
        throw new AppError('validation/invalid', 'Keeping location is on or off.', { details: { field: 'keepLocation', rule: 'invalid' } });
      }
      p_patch.keep_location = patch.keepLocation;
    }
    return this.calls.one(this.calls.rpc('update_album', { p_album_id: albumId, p_patch }), opts.signal, 'album/not-found', toAlbum);
  }

  async deleteAlbum(albumId: string, opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('delete_album', { p_album_id: albumId }), opts.signal, 'album/not-found');
  }
}
