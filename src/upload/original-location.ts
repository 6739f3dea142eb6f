/**
 * The original an upload sends, in an album that removes location. See [Note: Originals without location on
 * upload].
 */
import type { UploadBackend } from '../backend/ports';
import { AppError, throwIfAborted } from '../lib/app-error';
import type { findLocationPatches, withPatches } from '../media/location-patches';
import { LOCATION_LEFT, type LocationDecision, type ProcessedFacts, type UploadTask } from './upload-task';

// [Note: Originals without location on upload]
//
// In an album that removes location (the default, albums.keep_location false), the original that leaves the
// device is the user's file with its location blanked in place (src/media/location-patches.ts). The reading
// stage asks the album (data.getAlbum; if that cannot be asked, offline say, location is removed: the safe
// side), finds the patches from the metadata blocks alone, and hashes the file as it will be uploaded. The
// patches are stored with the task, so after a reload the same bytes go up: the upload reads the original as
// `withPatches(source, patches)`, slices of the stored file with a few kilobytes laid over them, never a copy.
// Previews and thumbnails are drawn on a canvas and encoded anew, so they carry no metadata at all. The item
// records the outcome (metadata.location: `removed`, or `preview` below); the viewer's details say so.

// [Note: An original that keeps its place]
//
// Some files may hold a place that cannot be removed with certainty: a format the remover does not edit (a
// camera RAW it cannot follow, a PNG whose XMP is compressed), a block too large or a structure that points
// into itself. In an album that removes location such an original is never uploaded. Its upload stops before
// anything is reserved, after its preview is made, with `upload/unsupported` and the reason `location`; the
// person then chooses, for that file or for all of them at once, to upload the preview only (drawn anew on a
// canvas: no metadata at all) or to remove it from the queue. The preview then goes up as the item's original:
// named `<name>.webp` (or `.jpg`), its own size, hash and dimensions, a photo even when the file was a video
// (its poster), and metadata.location `preview`. Files of kinds that never hold a place (GIF, BMP, SVG, icons;
// documents) go up as they are. Videos are held to this in every container: the remover walks the ISO base media
// formats phones and cameras write (MP4, MOV, 3GP), Matroska and WebM ([Note: Location in a Matroska file]), AVI
// ([Note: Location in an AVI file]), MPEG transport streams, as camcorders write AVCHD ([Note: Location in an MPEG
// transport stream]), MPEG program streams ([Note: Location in an MPEG program stream]), Flash ([Note: Location in
// a Flash video]) and Windows Media ([Note: Location in a Windows Media file]); a video in any other container
// (Ogg, RealMedia…) is stopped as above, its poster offered when the browser could draw one. Items uploaded before
// this rule may say metadata.location `kept`: their details still say so.

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

/** Why this original may not go up as it is, or null: it may hold a place that could not be removed. */
export function locationRefusal(task: Pick<UploadTask, 'location' | 'original'>, facts: ProcessedFacts): AppError | null {
  if (task.original === 'preview' || task.location?.outcome !== 'unsupported' || !mayHoldPlace(facts)) return null;
  return new AppError('upload/unsupported', 'The place where this was taken could not be removed from the file.', {
    retryable: false,
    details: { reason: LOCATION_LEFT },
  });
}

/** What the item says about its original's location (see [Note: Originals without location on upload]). */
export function locationNote(task: Pick<UploadTask, 'location' | 'original'>): { location?: 'removed' | 'preview' } {
  if (task.original === 'preview') return { location: 'preview' };
  return task.location?.outcome === 'removed' ? { location: 'removed' } : {};
}

/** By the type read from its content: any video, and a picture kept as a file (one not decoded, a RAW). */
function mayHoldPlace(facts: ProcessedFacts): boolean {
  return facts.mime.startsWith('video/') || (facts.mime.startsWith('image/') && !PLACELESS_TYPES.has(facts.mime));
}
