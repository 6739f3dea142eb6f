import type { PickedFolder } from './save-targets';
import type { ZipPlan } from './zip-plan';
import type { OpenEntry, ZipProgress } from './zip-stream';

/**
 * Writes each file of the plan into a folder the user picked (Chromium), under the same safe, unique names
 * as the ZIP's entries, with the manifest beside them. A file already there with the same size is skipped,
 * so a download that was interrupted resumes where it stopped (a file cut short has a smaller size, and is
 * written again).
 */
export async function downloadToFolder(folder: PickedFolder, plan: ZipPlan, open: OpenEntry, opts: { signal: AbortSignal; onProgress?: (p: ZipProgress & { skipped: number }) => void }): Promise<{ written: number; skipped: number }> {
  const { signal } = opts;
  const progress = { bytes: 0, totalBytes: plan.fileBytes, files: 0, totalFiles: plan.entries.length, skipped: 0 };
  const report = () => opts.onProgress?.({ ...progress });
  report();
  for (const entry of plan.entries) {
    signal.throwIfAborted();
    const existing = await folder.getFileHandle(entry.name).then((h) => h.getFile(), () => null);
    if (existing && existing.size === entry.size) {
      progress.skipped++;
    } else {
      const writable = await (await folder.getFileHandle(entry.name, { create: true })).createWritable();
      const source = await open(entry, signal);
      const body = source instanceof Blob ? source.stream() : source;
      const before = progress.bytes;
      await body
        .pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            progress.bytes += chunk.byteLength;
            controller.enqueue(chunk);
            report();
          },
        }))
        .pipeTo(writable, { signal });
      progress.bytes = before;
    }
    progress.bytes += entry.size;
    progress.files++;
    report();
  }
  const manifest = await (await folder.getFileHandle(plan.manifest.name, { create: true })).createWritable();
  await manifest.write(plan.manifest.bytes);
  await manifest.close();
  return { written: progress.files - progress.skipped, skipped: progress.skipped };
}
