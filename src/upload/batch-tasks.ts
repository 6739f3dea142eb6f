import { limits } from '../config';
import { AppError } from '../lib/app-error';
import { createTask, transition, type UploadTask } from './upload-task';

export interface BatchEntry {
  task: UploadTask;
  /** The file's bytes, for a task that will upload; null for one refused at once. */
  source: Blob | null;
}

/**
 * The tasks for files added together, in the order given. A batch over the limit is refused whole; an
 * empty or too large file gets a task that has already failed, so the user sees why it was not uploaded.
 * `ids`, when given, are the tasks' ids (a shared file's id, fixed when the share arrived); `sidecars`, by index,
 * the XMP sidecars that go with files (upload/sidecars.ts).
 */
export function batchTasks(albumId: string, files: readonly File[], ids?: readonly string[], sidecars?: ReadonlyMap<number, string>): BatchEntry[] {
  const max = limits().maxFilesPerBatch;
  if (files.length > max) {
    throw new AppError('validation/invalid', `At most ${max.toLocaleString('en')} files can be added at once.`, {
      details: { field: 'files', rule: 'too-many', limit: max, given: files.length },
    });
  }
  if (files.length === 0) return [];
  const createdAt = new Date().toISOString();
  const maxBytes = limits().maxUploadBytes;
  return files.map((file, order) => {
    let task = createTask({
      id: ids?.[order] ?? crypto.randomUUID(),
      albumId,
      filename: file.name,
      bytes: file.size,
      declaredType: file.type,
      lastModified: file.lastModified,
      createdAt,
      order,
      ...(sidecars?.has(order) ? { sidecar: sidecars.get(order)! } : {}),
    });
    if (file.size === 0) {
      task = transition(task, { type: 'fail', error: new AppError('upload/empty', 'The file is empty.', { retryable: false }).toJSON() }, createdAt);
    } else if (file.size > maxBytes) {
      const error = new AppError('upload/too-large', 'The file is larger than the upload limit.', {
        retryable: false,
        details: { maxBytes },
      });
      task = transition(task, { type: 'fail', error: error.toJSON() }, createdAt);
    }
    return { task, source: task.state === 'queued' ? (file as Blob) : null };
  });
}
