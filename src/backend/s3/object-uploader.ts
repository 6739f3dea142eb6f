/**
 * Puts one object into the bucket: a single PUT under 16 MiB, a multipart upload above, resumable from the
 * checkpoint the upload engine persisted. See [Note: Resuming multipart uploads] in src/upload/task-runner.ts.
 */
import { AppError } from '../../lib/app-error';
import { abortError } from '../../lib/app-error';
import type { UploadCheckpoint, UploadOptions, UploadRequest } from '../ports';
import { storedObject, type StoredAs } from './content-disposition';
import { contentMd5 } from '../../lib/content-md5';
import { partCount, partRange, partSizeFor, usesMultipart, type PartPlanLimits } from './part-plan';
import { watchRetries, type S3Calls } from './retry-watch';
import type { SignOp } from './s3-signer';
import { corsError, s3AppError } from './s3-errors';
import { completeBody, isCompleteResult, parseListParts, parseListUploads, parseS3Error, parseUploadId, type ListedPart } from './s3-xml';

export interface UploaderLimits extends PartPlanLimits {
  partsInFlight: number;
}

export interface UploaderSettings {
  /**
   * Send a single PUT's Content-MD5 so the provider refuses bytes damaged on the way (src/lib/content-md5.ts).
   * [Note: No MD5 per part] Parts are not hashed: reading and hashing every part in the tab took a 1 GiB
   * upload from 5.4 to 12.8 CPU-seconds in Chromium, below lib-storage's speed, and grew the tab by ~100 MiB
   * (bench/results/s3.md). A multipart object is checked by its size and by the parts' ETags the provider
   * matches at completion; over HTTPS, TLS already rejects bytes damaged in transit.
   */
  contentMd5: boolean;
}

type Part = { partNumber: number; size: number; etag: string };

/**
 * For calls on an upload id, 404 means the upload is gone (some gateways say NoSuchKey rather than NoSuchUpload;
 * Supabase Storage says 400 InvalidUploadId for an id it no longer knows).
 */
const isNoSuchUpload = (f: { status: number; s3?: { code: string } | undefined }) =>
  f.s3?.code === 'NoSuchUpload' || f.s3?.code === 'InvalidUploadId' || (f.status === 404 && f.s3?.code !== 'NoSuchBucket');

export async function uploadObject(
  s3: S3Calls,
  req: UploadRequest,
  opts: UploadOptions,
  limits: UploaderLimits,
  settings: UploaderSettings,
): Promise<{ bytes: number }> {
  const caller = opts.onRetry ? watchRetries(s3, opts.onRetry) : s3;
  const size = req.blob.size;
  // The type and disposition the object is stored with: never a type a browser could render as a page.
  const stored = storedObject(req.key, req.contentType, req.filename);
  if (!usesMultipart(size, limits) && !req.checkpoint?.uploadId) {
    const md5 = settings.contentMd5 ? (req.contentMd5 ?? (await contentMd5(req.blob, opts.signal))) : undefined;
    await putWhole(caller, { op: 'put', key: req.key, ...stored, ...(md5 ? { contentMd5: md5 } : {}), contentLength: size }, req.blob, opts);
    opts.onProgress?.(size);
    return { bytes: size };
  }
  return new MultipartUpload(caller, req, opts, limits, stored).run();
}

/**
 * One PUT of the whole body. A cancel that comes once every byte has left cannot stop the bucket from
 * storing the object: the request is then left to finish, and the object it stored is deleted before the
 * upload reports the cancel. (Deleting at once could reach the bucket before the write and miss it.)
 */
async function putWhole(caller: S3Calls, op: SignOp, body: Blob, opts: UploadOptions): Promise<void> {
  const outer = opts.signal;
  const inner = new AbortController();
  let sentAll = false;
  const onAbort = () => {
    if (!sentAll) inner.abort();
  };
  outer?.addEventListener('abort', onAbort, { once: true });
  if (outer?.aborted) inner.abort();
  try {
    await caller.call(op, {
      what: 'upload the file',
      body,
      signal: inner.signal,
      onUploadProgress: (loaded) => {
        sentAll = loaded >= body.size;
        // A retry that starts after the cancel is not left to finish.
        if (outer?.aborted && !sentAll) inner.abort();
        opts.onProgress?.(loaded);
      },
    });
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
  if (outer?.aborted) {
    await caller.call({ op: 'delete', key: op.key }, { what: 'remove the canceled file', accept: (f) => f.status === 404 }).catch(() => undefined);
    throw abortError();
  }
}

class MultipartUpload {
  private readonly size: number;
  private readonly partSize: number;
  private uploadId: string | undefined;
  private readonly confirmed = new Map<number, Part>();
  private readonly inFlight = new Map<number, number>();

  constructor(
    private readonly caller: S3Calls,
    private readonly req: UploadRequest,
    private readonly opts: UploadOptions,
    private readonly limits: UploaderLimits,
    private readonly stored: StoredAs,
  ) {
    this.size = req.blob.size;
    const cp = req.checkpoint;
    // Part boundaries never move once parts exist: a resumed upload keeps the size it started with.
    this.partSize = cp?.uploadId && cp.partSize ? cp.partSize : partSizeFor(this.size, limits);
    this.uploadId = cp?.uploadId;
    const count = partCount(this.size, this.partSize);
    for (const p of cp?.parts ?? []) {
      if (p.partNumber >= 1 && p.partNumber <= count && p.size === this.expectedSize(p.partNumber) && p.etag) this.confirmed.set(p.partNumber, p);
    }
  }

  async run(): Promise<{ bytes: number }> {
    if (this.uploadId) {
      const done = await this.crossCheck();
      if (done) return this.finished();
    }
    if (!this.uploadId) await this.create();
    this.reportProgress();
    await this.sendParts();
    await this.complete();
    await this.verify();
    return this.finished();
  }

  private expectedSize(partNumber: number): number {
    const r = partRange(this.size, this.partSize, partNumber);
    return r.end - r.start;
  }

  private checkpoint(): UploadCheckpoint {
    return {
      ...(this.uploadId ? { uploadId: this.uploadId } : {}),
      partSize: this.partSize,
      parts: [...this.confirmed.values()].sort((a, b) => a.partNumber - b.partNumber),
    };
  }

  private finished(): { bytes: number } {
    this.opts.onProgress?.(this.size);
    return { bytes: this.size };
  }

  private reportProgress(): void {
    let sent = 0;
    for (const p of this.confirmed.values()) sent += p.size;
    for (const loaded of this.inFlight.values()) sent += loaded;
    this.opts.onProgress?.(Math.min(sent, this.size));
  }

  private async create(): Promise<void> {
    // An earlier run may have started a multipart upload and stopped before its id was stored.
    await abortUnfinishedUploads(this.caller, this.req.key, this.opts.signal);
    const { res } = await this.caller.call(
      { op: 'create', key: this.req.key, ...this.stored },
      { what: 'start the upload', signal: this.opts.signal },
    );
    const id = parseUploadId(res.text);
    if (!id) throw new AppError('storage/denied', 'Storage did not start the upload (no upload id in its answer).', { retryable: true });
    this.uploadId = id;
    this.confirmed.clear();
    this.opts.onCheckpoint?.(this.checkpoint());
  }

  /**
   * Asks the bucket what it holds for the persisted upload. Returns true when the object is already whole
   * (the upload completed just before the last run stopped).
   */
  private async crossCheck(): Promise<boolean> {
    const listed = await this.listParts();
    if (listed === 'gone') {
      if (await this.objectIsWhole()) return true;
      // Aborted, or expired by a lifecycle rule: start again.
      this.uploadId = undefined;
      this.confirmed.clear();
      return false;
    }
    // A provider that lists nothing (Supabase Storage without policies on its multipart tables) cannot
    // contradict the checkpoint; one that lists parts can.
    if (listed.size === 0) return false;
    for (const [n, p] of [...this.confirmed]) {
      const there = listed.get(n);
      const sizeKnown = there !== undefined && there.size > 0;
      if (!there || normEtag(there.etag) !== normEtag(p.etag) || (sizeKnown && there.size !== p.size)) this.confirmed.delete(n);
    }
    this.opts.onCheckpoint?.(this.checkpoint());
    return false;
  }

  private async listParts(): Promise<Map<number, ListedPart> | 'gone'> {
    const all = new Map<number, ListedPart>();
    let marker: number | undefined;
    for (;;) {
      const { res, failure } = await this.caller.call(
        { op: 'list-parts', key: this.req.key, uploadId: this.uploadId!, ...(marker ? { partNumberMarker: marker } : {}) },
        { what: 'check the parts already sent', signal: this.opts.signal, accept: isNoSuchUpload },
      );
      if (failure) return 'gone';
      const page = parseListParts(res.text);
      if (!page) return all;
      for (const p of page.parts) all.set(p.partNumber, p);
      if (page.nextMarker === undefined || page.nextMarker === marker) return all;
      marker = page.nextMarker;
    }
  }

  private async objectIsWhole(): Promise<boolean> {
    const { res, failure } = await this.caller.call(
      { op: 'head', key: this.req.key },
      { what: 'check the stored file', signal: this.opts.signal, accept: (f) => f.status === 404 },
    );
    return !failure && Number(res.header('content-length')) === this.size;
  }

  private async sendParts(): Promise<void> {
    const count = partCount(this.size, this.partSize);
    const queue: number[] = [];
    for (let n = 1; n <= count; n++) if (!this.confirmed.has(n)) queue.push(n);
    const stop = new AbortController();
    const outer = this.opts.signal;
    const onOuterAbort = () => stop.abort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    if (outer?.aborted) stop.abort();
    const worker = async () => {
      for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
        await this.sendPart(n, stop.signal);
      }
    };
    try {
      const workers = Array.from({ length: Math.min(this.limits.partsInFlight, queue.length) }, () =>
        worker().catch((e: unknown) => {
          // One part failing for good stops the others: the upload resumes later from the checkpoint.
          stop.abort();
          throw e;
        }),
      );
      const results = await Promise.allSettled(workers);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !isAbort(r.reason));
      if (failed) throw failed.reason;
      const aborted = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (aborted) throw aborted.reason;
    } finally {
      outer?.removeEventListener('abort', onOuterAbort);
    }
  }

  private async sendPart(partNumber: number, signal: AbortSignal): Promise<void> {
    const { start, end } = partRange(this.size, this.partSize, partNumber);
    this.inFlight.set(partNumber, 0);
    try {
      const { res } = await this.caller.call(
        { op: 'part', key: this.req.key, uploadId: this.uploadId!, partNumber, partSize: this.partSize },
        {
          what: `upload part ${partNumber}`,
          // Read lazily: only this part's bytes, only while it is being sent.
          body: this.req.blob.slice(start, end),
          signal,
          onUploadProgress: (loaded) => {
            this.inFlight.set(partNumber, loaded);
            this.reportProgress();
          },
        },
      );
      const etag = res.header('etag');
      if (!etag) throw corsError('etag-hidden');
      this.confirmed.set(partNumber, { partNumber, size: end - start, etag });
      this.opts.onCheckpoint?.(this.checkpoint());
    } finally {
      this.inFlight.delete(partNumber);
      this.reportProgress();
    }
  }

  private async complete(): Promise<void> {
    const parts = [...this.confirmed.values()];
    const { res, failure } = await this.caller.call(
      { op: 'complete', key: this.req.key, uploadId: this.uploadId! },
      { what: 'finish the upload', body: completeBody(parts), contentType: 'application/xml', signal: this.opts.signal, accept: isNoSuchUpload },
    );
    if (failure) {
      // Completed by an earlier attempt whose answer was lost, or gone: the object decides.
      if (await this.objectIsWhole()) return;
      this.uploadId = undefined;
      this.confirmed.clear();
      this.opts.onCheckpoint?.(this.checkpoint());
      throw new AppError('upload/interrupted', 'The bucket no longer knows this upload; it will start again.', { retryable: true });
    }
    if (!isCompleteResult(res.text)) {
      // A 200 answer can still carry an error document (S3 sends it once the work is done).
      const err = parseS3Error(res.text);
      const appError = s3AppError({ status: 500, s3: err }, 'finish the upload');
      if (err && appError.code === 'upload/integrity') {
        // The bucket rejected our list of parts: send them all again.
        this.confirmed.clear();
        this.opts.onCheckpoint?.(this.checkpoint());
      }
      throw err ? appError : new AppError('backend/unreachable', 'Storage gave an unreadable answer to finishing the upload.', { retryable: true });
    }
  }

  /** The stored object must have the file's size, or the upload did not happen as we think. */
  private async verify(): Promise<void> {
    const { res } = await this.caller.call({ op: 'head', key: this.req.key }, { what: 'check the stored file', signal: this.opts.signal });
    const stored = Number(res.header('content-length'));
    if (stored !== this.size) {
      throw new AppError('upload/integrity', `The stored file has ${stored} bytes instead of ${this.size}.`, { details: { stored, expected: this.size } });
    }
  }
}

/**
 * Aborts every unfinished multipart upload of exactly this key, except `keep`. Object keys belong to one
 * item (albums/<album>/<item>/<file>), so any such upload is one of ours that lost its id: a run stopped
 * between CreateMultipartUpload and storing the checkpoint, or a cancel that came before it. Best effort:
 * a provider that does not list uploads to this user leaves them to the lifecycle rule or to `purge`.
 */
export async function abortUnfinishedUploads(caller: S3Calls, key: string, signal: AbortSignal | undefined, keep?: string): Promise<void> {
  let uploads: { key: string; uploadId: string }[];
  try {
    const { res, failure } = await caller.call(
      { op: 'list-uploads', key },
      { what: 'look for unfinished uploads', signal, accept: (f) => f.status === 403 || f.status === 404 || f.status === 501 },
    );
    if (failure) return;
    uploads = (parseListUploads(res.text) ?? []).filter((u) => u.key === key && u.uploadId !== keep);
  } catch (e) {
    if (isAbort(e)) throw e;
    return;
  }
  await Promise.all(
    uploads.map((u) =>
      caller
        .call({ op: 'abort', key, uploadId: u.uploadId }, { what: 'cancel an unfinished upload', signal, accept: (f) => f.status === 404 })
        .catch((e: unknown) => {
          if (isAbort(e)) throw e;
        }),
    ),
  );
}

function normEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/"/g, '').toLowerCase();
}

function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'AbortError';
}
