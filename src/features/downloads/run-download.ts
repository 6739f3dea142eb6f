import { log } from '../../lib/log';
import { safeZipName } from '../../lib/zip-entry-names';
import { downloadToFolder } from './folder-download';
import { canPickFile, downloadThroughWorker, pickFolder, pickSaveFile, writeToFile } from './save-targets';
import { planZip, type ZipItem, type ZipPlan } from './zip-plan';
import { zipStream, type OpenEntry, type ZipProgress } from './zip-stream';

export type DownloadMode = 'zip' | 'folder';

export interface DownloadRequest {
  /** The archive's name without `.zip` (an album's title). */
  name: string;
  mode: DownloadMode;
  /** The files, in order; called once the destination is chosen. */
  load: (signal: AbortSignal) => Promise<ZipItem[]>;
  /** Where each file's bytes come from (a member's storage, a link's URLs). */
  open: OpenEntry;
  /** XMP sidecars beside the files, named after the whole file or its stem ([Note: XMP sidecars out]). */
  sidecars?: 'full' | 'stem';
  /**
   * The sidecar kept beside an item's original in the bucket, for items whose upload brought one
   * (`metadata.sidecar`): the download's sidecar starts from it. Absent where it cannot be read (a link).
   */
  keptSidecar?: (itemId: string, signal: AbortSignal) => Promise<string>;
}

/** Kept sidecars read at once: a few KiB each, a small request apiece. */
const SIDECAR_READS = 6;

async function plan(req: DownloadRequest, signal: AbortSignal): Promise<ZipPlan> {
  const items = await req.load(signal);
  if (!req.sidecars) return planZip(items);
  const { buildXmpSidecar, mergeXmpSidecar } = await import('../../lib/xmp-sidecar');
  const kept = req.keptSidecar ? await keptSidecars(items.filter((i) => i.metadata.sidecar), req.keptSidecar, signal) : new Map<string, string>();
  return planZip(items, new Date(), {
    naming: req.sidecars,
    build: (item) => {
      const base = kept.get(item.id);
      return base === undefined ? buildXmpSidecar(item) : mergeXmpSidecar(base, item);
    },
  });
}

/** The kept sidecars of `items` by id; one that cannot be read is left out, and its item's fields alone are written. */
async function keptSidecars(items: ZipItem[], read: NonNullable<DownloadRequest['keptSidecar']>, signal: AbortSignal): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      signal.throwIfAborted();
      const text = await read(item.id, signal).catch((e: unknown) => {
        if (signal.aborted) throw e;
        log.warn('A kept sidecar could not be read; the download writes the item\'s fields alone', e);
        return undefined;
      });
      if (text !== undefined) out.set(item.id, text);
    }
  };
  await Promise.all(Array.from({ length: Math.min(SIDECAR_READS, queue.length) }, worker));
  return out;
}

export type DownloadPhase = 'preparing' | 'writing' | 'done';
export interface DownloadStatus { phase: DownloadPhase; progress: ZipProgress | null; skipped?: number }

/**
 * One download from start to end: the destination first (a picker needs the click that started it), then
 * the list, then the bytes. Resolves false when the user dismissed the picker.
 */
export async function runDownload(req: DownloadRequest, signal: AbortSignal, onStatus: (s: DownloadStatus) => void): Promise<boolean> {
  const filename = safeZipName(`${req.name || 'Shoebox'}.zip`);
  if (req.mode === 'folder') {
    const folder = await pickFolder();
    if (!folder) return false;
    onStatus({ phase: 'preparing', progress: null });
    const made = await plan(req, signal);
    const result = await downloadToFolder(folder, made, req.open, { signal, onProgress: (p) => onStatus({ phase: 'writing', progress: p, skipped: p.skipped }) });
    onStatus({ phase: 'done', progress: { bytes: made.fileBytes, totalBytes: made.fileBytes, files: made.entries.length, totalFiles: made.entries.length }, skipped: result.skipped });
    return true;
  }
  const file = canPickFile() ? await pickSaveFile(filename) : undefined;
  if (file === null) return false;
  onStatus({ phase: 'preparing', progress: null });
  const made = await plan(req, signal);
  let last: ZipProgress | null = null;
  const zip = await zipStream(made, req.open, { signal, onProgress: (p) => onStatus({ phase: 'writing', progress: (last = p) }) });
  if (file) await writeToFile(file, zip, signal);
  else await downloadThroughWorker(zip.stream, zip.size, filename);
  await zip.done;
  onStatus({ phase: 'done', progress: last });
  return true;
}
