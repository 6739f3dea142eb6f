/**
 * The sidecar an upload stores beside its original ([Note: Sidecars beside originals] in
 * src/backend/sidecar-writer.ts): the one added with the photo, its place taken out unless the album keeps
 * locations, with the item's fields merged in. Loaded only for a photo that came with a sidecar.
 */
import type { FilesPort } from '../backend/ports';
import { AppError, isAbortError } from '../lib/app-error';
import { log } from '../lib/log';
import { mergeXmpSidecar, SIDECAR_TYPE, type SidecarSource } from '../lib/xmp-sidecar';
import { blankXmpLocation, Unreadable } from '../media/location-patches';

export function storedSidecar(uploaded: string, keepsLocation: boolean, item: SidecarSource): Uint8Array<ArrayBuffer> {
  if (keepsLocation) return mergeXmpSidecar(uploaded, item, { uploaded: true });
  const bytes = new TextEncoder().encode(uploaded);
  try {
    blankXmpLocation(bytes, 0, bytes.length);
  } catch (e) {
    // A place written where it cannot be taken out: the uploaded sidecar is not kept, the item's fields are.
    if (e instanceof Unreadable) return mergeXmpSidecar(null, item);
    throw e;
  }
  return mergeXmpSidecar(new TextDecoder().decode(bytes), item, { uploaded: true });
}

/**
 * Puts the sidecar at `key`, after the item's other objects and before it is finished; on a retry, the same bytes
 * over the same key. A network failure fails the step, to be tried again with the upload; a bucket that refuses the
 * sidecar does not cost the photo.
 */
export async function storeSidecar(
  files: Pick<FilesPort, 'upload'>,
  key: string,
  uploaded: string,
  keepsLocation: boolean,
  item: SidecarSource,
  signal: AbortSignal,
): Promise<void> {
  const bytes = storedSidecar(uploaded, keepsLocation, item);
  try {
    await files.upload({ key, blob: new Blob([bytes], { type: SIDECAR_TYPE }), contentType: SIDECAR_TYPE }, { signal });
  } catch (e) {
    if (isAbortError(e) || !(e instanceof AppError) || e.retryable) throw e;
    log.warn('The sidecar was not stored beside the original', e);
  }
}
