/**
 * A Backend for a share link's guest, so the upload engine (src/upload/) takes a guest's files through the
 * same pipeline as a member's: resumable, the same processing, the same objects. Items are reserved, finished
 * and marked failed through share-upload; the bucket is reached with S3Files and a signer that asks
 * share-upload's `sign` (only the guest's own keys). It has only the ports adding files takes: a guest can do
 * nothing else.
 */
import { AppError } from '../../lib/app-error';
import type { Item } from '../../domain/entities';
import { objectKeys, type CallOptions, type FilesPort, type FunctionsPort, type UploadBackend } from '../ports';
import { FunctionSigner } from '../s3/function-signer';
import { S3Files } from '../s3/s3-files';
import { duplicateError, GuestUploadClient } from './guest-upload-client';
import { NO_ACCOUNT_CAPABILITIES } from './no-account';

export interface GuestBackendConfig {
  /** The app's functions port (supabase-js's, sending the anon key). */
  functions: FunctionsPort;
  visit: string;
  guest: string;
  /** Whether single PUTs carry Content-MD5 (false on Supabase Storage, as for members). */
  contentMd5?: boolean;
}

export function createGuestBackend(config: GuestBackendConfig): UploadBackend & { guest: GuestUploadClient } {
  const client = new GuestUploadClient(config.functions, config.visit, config.guest);
  // FunctionSigner batches the requests of one tick into one call; here that call is share-upload's `sign`.
  const signer = new FunctionSigner({
    invoke: <T>(_name: string, body: unknown, opts?: CallOptions) => client.sign((body as { requests: Parameters<GuestUploadClient['sign']>[0] }).requests, opts) as Promise<T>,
  });
  const s3 = new S3Files({ signer, contentMd5: config.contentMd5 ?? true });
  const files: FilesPort = {
    upload: (req, opts) => s3.upload(req, opts),
    urls: (keys, opts) => s3.urls(keys, opts),
    read: (key, opts) => s3.read(key, opts),
    // A guest never signs a delete: the objects of an upload that was stopped go with its row, which the purge
    // takes a day later ([Note: Pending uploads]); taking back a finished one is share-upload's `delete`.
    remove: () => Promise.resolve(),
    abortUpload: (key, checkpoint, opts) => s3.abortUpload(key, checkpoint, opts),
  };

  return {
    // A guest's photo that came with a sidecar keeps it beside the original, as a member's does; share-upload
    // signs that write while the upload is in progress, and no read of one.
    capabilities: { ...NO_ACCOUNT_CAPABILITIES, storage: { ...NO_ACCOUNT_CAPABILITIES.storage, sidecars: true } },
    files,
    items: {
      async getItem(albumId, itemId, opts) {
        const found = (await client.mine(opts)).items.find((i) => i.id === itemId);
        if (!found) throw new AppError('item/not-found', 'This item is not one of your uploads.');
        return guestItemAsItem(albumId, found);
      },
    },
    itemWrites: {
      async reserveItems(_albumId, inputs, opts) {
        const { items, duplicates } = await client.reserve(inputs, opts);
        const first = inputs.find((i) => duplicates.includes(i.id));
        if (first && items.length === 0) throw duplicateError(first.filename);
        return items;
      },
      finalizeItem: (_albumId, itemId, input, opts) => client.finalize(itemId, input, opts),
      failItem: (_albumId, itemId, opts) => client.fail(itemId, opts),
    },
    guest: client,
  };
}

function guestItemAsItem(albumId: string, g: { id: string; kind: Item['kind']; status: Item['status']; filename: string; mime: string; bytes: number; createdAt: string; thumbhash: string | null }): Item {
  return {
    id: g.id,
    albumId,
    uploaderId: '',
    kind: g.kind,
    status: g.status,
    filename: g.filename,
    mime: g.mime,
    bytes: g.bytes,
    sha256: null,
    width: null,
    height: null,
    durationMs: null,
    takenAt: null,
    originalKey: objectKeys.original(albumId, g.id),
    previewKey: null,
    thumbKey: null,
    thumbhash: g.thumbhash,
    metadata: {},
    createdAt: g.createdAt,
    deletedAt: null,
  };
}
