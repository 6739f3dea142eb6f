/** FunctionsPort of the local backend: only what the server's functions do that still applies on a device. */
import { AppError } from '../../lib/app-error';
import type { CallOptions, FunctionsPort } from '../ports';
import type { LocalData } from './local-data';

export class LocalFunctions implements FunctionsPort {
  constructor(private readonly data: LocalData) {}

  async invoke<T = unknown>(name: string, _body: unknown, opts: CallOptions = {}): Promise<T> {
    if (name === 'purge') return (await this.data.purgeTrash(opts)) as T;
    // Links to the public page need a server to answer them: on this device no link exists.
    if (name === 'share-open') throw new AppError('share/not-found', 'This backend has no share links.', { retryable: false });
    throw new AppError('backend/unreachable', 'This function is not available on the local backend.', {
      retryable: false,
      details: { name },
    });
  }
}
