/**
 * The original an upload sends, in an album that removes location. See [Note: Originals without location on
 * upload].
 */
import type { UploadBackend } from '../backend/ports';
import { throwIfAborted } from '../lib/app-error';
import type { findLocationPatches, withPatches } from '../media/location-patches';
import type { LocationDecision, ProcessedFacts } from './upload-task';

// [Note: Originals without location on upload]
//
// In an album that removes location (the default, albums.keep_location false), the original that leaves the
// device is the user's file with its location blanked in place (src/media/location-patches.ts). The reading
// stage asks the album (data.getAlbum; if that cannot be asked, offline say, location is removed: the safe
// side), finds the patches from the metadata blocks alone, and hashes the file as it will be uploaded. The
// patches are stored with the task, so after a reload the same bytes go up: the upload reads the original as
// `withPatches(source, patches)`, slices of the stored file with a few kilobytes laid over them, never a copy.
// Previews and thumbnails are drawn on a canvas and encoded anew, so they carry no metadata at all. The item
// records the outcome (metadata.location: `removed`, or `kept` for a file that may hold a place that could not
// be removed in place); the viewer's details say so.

/** How long an album's choice about location is trusted for the files of one batch. */
const ALBUM_CHOICE_TTL_MS = 30_000;
/** Image types that hold no place anywhere: nothing to say about location for them. */
const PLACELESS_TYPES = new Set(['image/gif', 'image/svg+xml', 'image/bmp', 'image/x-icon', 'image/vnd.microsoft.icon']);

interface LocationFns {
  find: typeof findLocationPatches;
  apply: typeof withPatches;
}

export class OriginalLocation {
  private readonly albumChoices = new Map<string, { keeps: Promise<boolean>; at: number }>();

  constructor(private readonly backend: UploadBackend) {}

  /** Keep the file as it is (the album keeps locations), or the patches that blank its location. */
  async decide(albumId: string, source: Blob, signal: AbortSignal): Promise<LocationDecision> {
    if (await this.keepsLocation(albumId, signal)) return { outcome: 'album-keeps', patches: [] };
    return (await this.locationFns()).find(source);
  }

  /** The original as it is hashed and uploaded: the user's file with the decision's patches laid over it. */
  async original(source: Blob, decision: LocationDecision | null | undefined): Promise<Blob> {
    const patches = decision?.patches ?? [];
    if (patches.length === 0) return source;
    return (await this.locationFns()).apply(source, patches);
  }

  private async locationFns(): Promise<LocationFns> {
    const m = await import('../media/location-patches');
    return { find: m.findLocationPatches, apply: m.withPatches };
  }

  /** Whether the album keeps locations; false (remove them) when it cannot be asked. */
  private keepsLocation(albumId: string, signal: AbortSignal): Promise<boolean> {
    const cached = this.albumChoices.get(albumId);
    if (cached && Date.now() - cached.at < ALBUM_CHOICE_TTL_MS) return cached.keeps;
    // Not tied to one task's signal: the answer serves the whole batch. A failure is not remembered.
    throwIfAborted(signal);
    // A backend that cannot read the album (a link's guest) cannot say: locations are removed.
    const albums = this.backend.albums;
    if (!albums) return Promise.resolve(false);
    const keeps = albums.getAlbum(albumId).then(
      (album) => album.keepLocation === true,
      () => {
        this.albumChoices.delete(albumId);
        return false;
      },
    );
    this.albumChoices.set(albumId, { keeps, at: Date.now() });
    return keeps;
  }
}

/** What the item says about its original's location (see [Note: Originals without location on upload]). */
export function locationNote(task: { location?: LocationDecision | null }, facts: ProcessedFacts): { location?: 'removed' | 'kept' } {
  const outcome = task.location?.outcome;
  if (outcome === 'removed') return { location: 'removed' };
  const mayHoldPlace = facts.kind === 'video' || (facts.kind === 'image' && !PLACELESS_TYPES.has(facts.mime));
  if (outcome === 'unsupported' && mayHoldPlace) return { location: 'kept' };
  return {};
}
