/** FunctionsPort of the local backend: only what the server's functions do that still applies on a device. */
import { AppError } from '../../lib/app-error';
import type { CallOptions, FunctionsPort } from '../ports';
import type { LocalDataDeps } from './local-data-deps';

export class LocalFunctions implements FunctionsPort {
  constructor(private readonly deps: LocalDataDeps) {}

  async invoke<T = unknown>(name: string, _body: unknown, opts: CallOptions = {}): Promise<T> {
    // Deletes items trashed more than `limits().trashDays` ago: rows first, then their bytes.
    if (name === 'purge') return (await (await import('./local-trash-purge')).purgeTrash(this.deps, opts)) as T;
    // Links to the public page need a server to answer them: on this device no link exists.
    if (name === 'share-open') throw new AppError('share/not-found', 'This backend has no share links.', { retryable: false });
    throw new AppError('backend/unreachable', 'This function is not available on the local backend.', {
      retryable: false,
      details: { name },
    });
  }
}
