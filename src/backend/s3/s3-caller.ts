/**
 * One S3 operation from start to answer: sign, send, read the answer, translate failures into `AppError`,
 * and try again where that is safe (retry.ts). Two failures are repaired on the spot, once per call: a clock
 * the server says is off (signers that sign locally take the server's time) and a presigned URL that expired
 * before it was used (signed again).
 */
import { AppError } from '../../lib/app-error';
import { corsError, failureOf, presignedUrlExpired, s3AppError, type S3Failure } from './s3-errors';
import { S3NetworkError, sendS3, type S3Response, type S3Send } from './s3-http';
import { isSigned, type S3Signer, type SignOp } from './s3-signer';
import { browserIsOffline, withRetry, type RetryContext } from '../../lib/retry';

export interface CallOptions {
  /** What the call does, for messages: "upload part 3". */
  what: string;
  body?: Blob | string;
  signal?: AbortSignal | undefined;
  onUploadProgress?: (loaded: number) => void;
  responseType?: 'text' | 'blob';
  /** The body's type, sent unless the signature names one itself (Supabase Storage reads only typed XML bodies). */
  contentType?: string;
  /** Failures the caller handles itself (returned, not thrown): NoSuchUpload on resume, 404 on delete. */
  accept?: (f: S3Failure) => boolean;
  /** The call failed for a moment and waits to be tried again at `at` (ms since the epoch); null once it goes again. */
  onWait?: (at: number | null) => void;
}

export interface S3CallerDeps {
  signer: S3Signer;
  send?: S3Send;
  retry?: Omit<RetryContext, 'signal'>;
  /** Whether a request that got no answer at all should be checked for a CORS refusal (browsers only). */
  detectCors?: boolean;
}

export interface S3Answer {
  res: S3Response;
  failure?: S3Failure;
}

export class S3Caller {
  private readonly send: S3Send;
  private readonly detectCors: boolean;
  /** Origins that answered a cross-origin request: CORS works there, so a later failure is the network's. */
  private readonly corsSeen = new Set<string>();

  constructor(private readonly deps: S3CallerDeps) {
    this.send = deps.send ?? sendS3;
    this.detectCors = deps.detectCors ?? (typeof window !== 'undefined' && typeof XMLHttpRequest === 'function');
  }

  get signer(): S3Signer {
    return this.deps.signer;
  }

  call(op: SignOp, opts: CallOptions): Promise<S3Answer> {
    return withRetry(() => this.attempt(op, opts), { ...this.deps.retry, signal: opts.signal, ...(opts.onWait ? { onWait: opts.onWait } : {}) });
  }

  private async attempt(op: SignOp, opts: CallOptions): Promise<S3Answer> {
    let clockFixed = false;
    let resigned = false;
    for (;;) {
      const [signed] = await this.deps.signer.sign([op], opts.signal);
      if (!signed) throw new AppError('storage/denied', `Storage gave no signature to ${opts.what}.`, { retryable: false });
      if (!isSigned(signed)) throw new AppError(signed.error, `Storage refused to ${opts.what}.`);
      let res: S3Response;
      const request = opts.contentType && !Object.keys(signed.headers).some((h) => h.toLowerCase() === 'content-type')
        ? { ...signed, headers: { ...signed.headers, 'content-type': opts.contentType } }
        : signed;
      try {
        res = await this.send(request, {
          ...(opts.body === undefined ? {} : { body: opts.body }),
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.onUploadProgress ? { onUploadProgress: opts.onUploadProgress } : {}),
          ...(opts.responseType ? { responseType: opts.responseType } : {}),
        });
      } catch (e) {
        if (e instanceof S3NetworkError) throw await this.networkError(e, opts);
        throw e;
      }
      const origin = new URL(signed.url).origin;
      this.corsSeen.add(origin);
      if (res.status >= 200 && res.status < 300) return { res };
      const failure = failureOf(res);
      if (opts.accept?.(failure)) return { res, failure };
      if (failure.s3?.code === 'RequestTimeTooSkewed' && failure.s3.serverTime && this.deps.signer.adjustClock && !clockFixed) {
        const serverMs = Date.parse(failure.s3.serverTime);
        if (!Number.isNaN(serverMs)) {
          this.deps.signer.adjustClock(serverMs);
          clockFixed = true;
          continue;
        }
      }
      // A URL that expired before it was sent, or a session token that ran out in between: signed again, once,
      // with the session as it is now.
      const tokenExpired = failure.s3?.code === 'ExpiredToken';
      if (((failure.status === 403 && presignedUrlExpired(signed.url)) || tokenExpired) && !resigned) {
        resigned = true;
        continue;
      }
      const err = s3AppError(failure, opts.what, res, op.op);
      if (failure.status === 403 && presignedUrlExpired(signed.url)) {
        throw new AppError('storage/denied', `The signed link to ${opts.what} expired before it was used; signing it again did not help.`, {
          retryable: false,
          details: err.details ?? {},
        });
      }
      throw err;
    }
  }

  /** No HTTP answer: the network, or (in a browser, at an origin that never answered us) CORS. */
  private async networkError(e: S3NetworkError, opts: CallOptions): Promise<AppError> {
    const origin = new URL(e.url).origin;
    if (browserIsOffline()) return new AppError('offline', `Could not ${opts.what}: this device is offline.`, { cause: e, retryable: true });
    if (this.detectCors && !this.corsSeen.has(origin) && e.bytesSent === 0 && (await reachableWithoutCors(origin, opts.signal))) {
      return corsError('blocked');
    }
    return new AppError('backend/unreachable', `Could not ${opts.what}: no answer from storage (${origin}).`, { cause: e, retryable: true });
  }
}

/**
 * A `no-cors` request succeeds (with an opaque answer) whenever the server answers at all. If it does while
 * the real request got nothing, the browser refused the real one: the bucket's CORS rules are missing.
 */
async function reachableWithoutCors(origin: string, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await fetch(`${origin}/`, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', ...(signal ? { signal } : {}) });
    return true;
  } catch {
    return false;
  }
}
