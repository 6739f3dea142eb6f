import { AppError } from '../../lib/app-error';
import { ChunkPool, readPooled, writeReturning } from './chunk-pool';
import type { PickedFolder } from './save-targets';
import type { ZipEntry, ZipPlan } from './zip-plan';
import type { OpenEntry, ZipProgress } from './zip-stream';

/**
 * [Note: A folder download never leaves a half file under a final name]
 * Each file of the plan is written into a folder the user picked (Chromium), under the same safe, unique names
 * as the ZIP's entries, with the manifest beside them. A file already there with the right size is skipped,
 * so a download that was interrupted resumes where it stopped. For that rule to hold, a file must appear
 * under its name only once it is whole: it is written under a temporary name (`<name>.shoebox-partial`), its bytes
 * counted on the way in, and only when they are exactly as many as its row says is it moved to its name.
 * A cancel or a failure removes the temporary file; one left behind by a closed tab is written over next time.
 * (A file's writable already lands only on close, but opening it creates an empty file under the name.)
 */
export async function downloadToFolder(folder: PickedFolder, plan: ZipPlan, open: OpenEntry, opts: { signal: AbortSignal; onProgress?: (p: ZipProgress & { skipped: number }) => void }): Promise<{ written: number; skipped: number }> {
  const { signal } = opts;
  const progress = { bytes: 0, totalBytes: plan.fileBytes, files: 0, totalFiles: plan.entries.length, skipped: 0 };
  const report = () => opts.onProgress?.({ ...progress });
  report();
  const pool = new ChunkPool();
  for (const entry of plan.entries) {
    signal.throwIfAborted();
    const existing = await folder.getFileHandle(entry.name).then((h) => h.getFile(), () => null);
    if (existing && existing.size === entry.size) {
      progress.skipped++;
    } else {
      const before = progress.bytes;
      await writeWhole(folder, entry, open, pool, signal, (n) => {
        progress.bytes += n;
        report();
      });
      progress.bytes = before;
    }
    progress.bytes += entry.size;
    progress.files++;
    report();
  }
  // The manifest and the sidecars say what the album holds now: written each time, over any from before.
  for (const made of [plan.manifest, ...plan.sidecars]) {
    signal.throwIfAborted();
    const file = await (await folder.getFileHandle(made.name, { create: true })).createWritable();
    await file.write(made.bytes);
    await file.close();
  }
  return { written: progress.files - progress.skipped, skipped: progress.skipped };
}

const PARTIAL = '.shoebox-partial';

async function writeWhole(folder: PickedFolder, entry: ZipEntry, open: OpenEntry, pool: ChunkPool, signal: AbortSignal, onBytes: (n: number) => void): Promise<void> {
  const partialName = entry.name + PARTIAL;
  const partial = await folder.getFileHandle(partialName, { create: true });
  let body: ReadableStream<Uint8Array> | null = null;
  try {
    // Chromium renames files in a picked folder since version 110; without it no file could be shown whole.
    if (typeof partial.move !== 'function') throw new AppError('storage/denied', 'this browser cannot rename a file in the folder', { retryable: false });
    const source = await open(entry, signal);
    body = readPooled(source instanceof Blob ? source.stream() : source, pool);
    let seen = 0;
    const mismatch = () => new AppError('item/not-found', `"${entry.name}": expected ${entry.size} bytes, got ${seen}`, { retryable: false });
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > entry.size) throw mismatch();
          onBytes(chunk.byteLength);
          controller.enqueue(chunk);
        },
        // Thrown here, the writable is aborted and its bytes never land.
        flush() {
          if (seen !== entry.size) throw mismatch();
        },
      }),
    );
    await writeReturning(counted, await partial.createWritable(), pool, signal);
    // A file of the wrong size may be in the way (cut short before): the whole one replaces it.
    await folder.removeEntry(entry.name).catch(() => undefined);
    await partial.move(entry.name);
  } catch (e) {
    if (body && !body.locked) await body.cancel().catch(() => undefined);
    await folder.removeEntry(partialName).catch(() => undefined);
    throw e;
  }
}
