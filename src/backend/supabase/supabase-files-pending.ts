/**
 * The files port of a Supabase backend until its object storage is connected: every call refuses with
 * `storage/denied`, so the app says why uploads and images are unavailable instead of failing obscurely.
 */
import { AppError } from '../../lib/app-error';
import type { FilesPort } from '../ports';

function notConfigured(): AppError {
  return new AppError('storage/denied', 'File storage is not configured: set "storage" in config.json (or VITE_STORAGE_PROVIDER) as the README describes.', { retryable: false });
}

export class SupabaseFilesPending implements FilesPort {
  upload(): Promise<{ bytes: number }> {
    return Promise.reject(notConfigured());
  }

  urls(): Promise<Map<string, string>> {
    return Promise.reject(notConfigured());
  }

  read(): Promise<Blob> {
    return Promise.reject(notConfigured());
  }

  remove(): Promise<void> {
    return Promise.reject(notConfigured());
  }

  abortUpload(): Promise<void> {
    return Promise.reject(notConfigured());
  }
}
