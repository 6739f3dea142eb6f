/**
 * The files port on an S3-compatible bucket. It holds no secret: a signer (session-signer.ts or
 * function-signer.ts) signs each request, and the engine sends it straight from the browser to the bucket.
 */
import { limits } from '../../config';
import { AppError, throwIfAborted } from '../../lib/app-error';
import type { CallOptions, FilesPort, UploadCheckpoint, UploadOptions, UploadRequest, UrlOptions } from '../ports';
import { abortUnfinishedUploads, uploadObject, type UploaderLimits } from './object-uploader';
import { S3Caller, type S3CallerDeps } from './s3-caller';
import { isSigned, type S3Signer } from './s3-signer';

/** Signed GET URLs for many objects in one call; keys that cannot be read are left out. */
export type UrlSource = (keys: string[], opts: UrlOptions) => Promise<Map<string, string>>;

export interface S3FilesConfig extends Omit<S3CallerDeps, 'signer'> {
  signer: S3Signer;
  /** Where display URLs come from when not from the signer (Supabase Storage's batch signing). */
  urls?: UrlSource;
  limits?: () => UploaderLimits;
  /**
   * Whether single PUTs carry Content-MD5 (default: yes; S3 itself, R2, B2, MinIO and Ceph check it).
   * Supabase Storage documents it as unsupported, so hashing each body there would be wasted work.
   */
  contentMd5?: boolean;
  /**
   * The error for a read of an object the bucket says is not there, where "not there" may also mean "not
   * yours" (Supabase Storage answers 404 to a read its policies refuse). Without it: `item/not-found`.
   */
  explainMissing?: (key: string, signal: AbortSignal | undefined) => Promise<AppError>;
  /**
   * Tells the backend an original has sent its last byte, where the database cannot see the bucket itself
   * (storage-sign looks and records it; [Note: An upload is finished only once its original is stored]).
   */
  confirmStored?: (key: string, signal: AbortSignal | undefined) => Promise<void>;
}

const DELETES_IN_FLIGHT = 8;

export class S3Files implements FilesPort {
  private readonly caller: S3Caller;

  constructor(private readonly config: S3FilesConfig) {
    this.caller = new S3Caller(config);
  }

  async upload(req: UploadRequest, opts: UploadOptions = {}): Promise<{ bytes: number }> {
    throwIfAborted(opts.signal);
    const l = this.config.limits?.() ?? limits();
    const done = await uploadObject(this.caller, req, opts, l, { contentMd5: this.config.contentMd5 ?? true });
    if (this.config.confirmStored && req.key.endsWith('/original')) await this.config.confirmStored(req.key, opts.signal);
    return done;
  }

  async urls(keys: string[], opts: UrlOptions = {}): Promise<Map<string, string>> {
    throwIfAborted(opts.signal);
    if (keys.length === 0) return new Map();
    if (this.config.urls) return this.config.urls(keys, opts);
    const signed = await this.config.signer.sign(
      keys.map((key) => ({ op: 'get' as const, key, ...(opts.downloadAs ? { downloadAs: opts.downloadAs } : {}) })),
      opts.signal,
    );
    const out = new Map<string, string>();
    signed.forEach((r, i) => {
      if (isSigned(r)) out.set(keys[i]!, r.url);
    });
    return out;
  }

  async read(key: string, opts: CallOptions = {}): Promise<Blob> {
    const { res, failure } = await this.caller.call(
      { op: 'get', key },
      { what: 'download the file', signal: opts.signal, responseType: 'blob', ...(this.config.explainMissing ? { accept: (f) => f.status === 404 } : {}) },
    );
    if (failure) throw await this.config.explainMissing!(key, opts.signal);
    if (!res.blob) throw new AppError('backend/unreachable', 'Storage sent no file.', { retryable: true });
    return res.blob;
  }

  async remove(keys: string[], opts: CallOptions = {}): Promise<void> {
    const queue = [...keys];
    const worker = async () => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        // Deleting what is already gone is success.
        await this.caller.call({ op: 'delete', key }, { what: 'delete the file', signal: opts.signal, accept: (f) => f.status === 404 });
      }
    };
    await Promise.all(Array.from({ length: Math.min(DELETES_IN_FLIGHT, keys.length) }, worker));
  }

  async abortUpload(key: string, checkpoint: UploadCheckpoint | undefined, opts: CallOptions = {}): Promise<void> {
    if (checkpoint?.uploadId) {
      await this.caller.call(
        { op: 'abort', key, uploadId: checkpoint.uploadId },
        { what: 'cancel the upload', signal: opts.signal, accept: (f) => f.status === 404 },
      );
    }
    // Uploads of this key whose id was never stored (the run stopped before its first checkpoint).
    await abortUnfinishedUploads(this.caller, key, opts.signal, checkpoint?.uploadId);
  }
}
