/** Every S3 answer that is not a success becomes an `AppError` here, with a code of PRODUCT.md §8. */
import { AppError } from '../../lib/app-error';
import type { S3Response } from './s3-http';
import type { SignOp } from './s3-signer';
import { parseS3Error, type S3ErrorBody } from './s3-xml';

/** An answer that failed, with what S3 said about it. Internal to the adapter: callers see `AppError`. */
export interface S3Failure {
  status: number;
  s3: S3ErrorBody | undefined;
}

export function failureOf(res: S3Response): S3Failure {
  return { status: res.status, s3: parseS3Error(res.text) };
}

/** The CORS rule a bucket needs so that this site can upload to it and read ETags (S3 PutBucketCors JSON). */
export function corsRuleFor(origin: string): string {
  return JSON.stringify(
    [
      {
        AllowedOrigins: [origin],
        AllowedMethods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'],
        AllowedHeaders: ['*'],
        ExposeHeaders: ['ETag'],
        MaxAgeSeconds: 3600,
      },
    ],
    null,
    2,
  );
}

function currentOrigin(): string {
  return typeof location === 'undefined' ? '*' : location.origin;
}

export function corsError(reason: 'blocked' | 'etag-hidden'): AppError {
  const origin = currentOrigin();
  const message =
    reason === 'blocked'
      ? `The storage bucket does not allow requests from ${origin} (its CORS rules are missing).`
      : 'The storage bucket does not expose the ETag header to this site (its CORS rule lacks ExposeHeaders: ETag).';
  return new AppError('storage/cors', message, { retryable: false, details: { corsRule: corsRuleFor(origin), reason } });
}

/** True when a presigned URL's own expiry (X-Amz-Date + X-Amz-Expires) has passed. */
export function presignedUrlExpired(url: string, nowMs = Date.now()): boolean {
  let q: URLSearchParams;
  try {
    q = new URL(url).searchParams;
  } catch {
    return false;
  }
  const date = q.get('X-Amz-Date');
  const expires = Number(q.get('X-Amz-Expires'));
  if (!date || !Number.isFinite(expires)) return false;
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date);
  if (!m) return false;
  const signedAt = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return nowMs > signedAt + expires * 1000;
}

const DENIED = new Set(['AccessDenied', 'SignatureDoesNotMatch', 'InvalidSignature', 'InvalidAccessKeyId', 'S3InvalidAccessKeyId', 'InvalidToken', 'AllAccessDisabled', 'AccountProblem', 'InvalidSecurity', 'TenantNotFound']);
const INTEGRITY = new Set(['BadDigest', 'InvalidDigest', 'InvalidPart', 'InvalidPartOrder', 'EntityTooSmall', 'IncompleteBody', 'XAmzContentSHA256Mismatch', 'InvalidChecksum', 'MissingPart']);

function retryAfterMs(res: S3Response | undefined): number | undefined {
  const v = res?.header('retry-after');
  if (!v) return undefined;
  const secs = Number(v);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Operations that send a file's bytes or start or finish doing so. */
const WRITES: ReadonlySet<SignOp['op']> = new Set(['put', 'create', 'part', 'complete']);

/**
 * Translates a failed answer to `what` (a short phrase: "upload part 3") into the product's error. `op` is the
 * operation that failed, where known: a request of the wrong form refused while sending a file means this file
 * cannot go there, not that the person lacks access.
 */
export function s3AppError(f: S3Failure, what: string, res?: S3Response, op?: SignOp['op']): AppError {
  const code = f.s3?.code ?? '';
  const said = f.s3?.message ? `: ${f.s3.message}` : '';
  const details = { status: f.status, ...(code ? { s3Code: code } : {}) };
  const cause = { status: f.status, code };
  if (code === 'RequestTimeTooSkewed') {
    return new AppError('storage/clock-skew', `Storage refused to ${what}: this device's clock differs from the server's.`, { details, cause, retryable: false });
  }
  if (code === 'QuotaExceeded' || code === 'StorageQuotaExceeded' || code === 'InsufficientStorage') {
    return new AppError('upload/quota-exceeded', `Storage refused to ${what}: the quota is used up${said}.`, { details, cause, retryable: false });
  }
  if (code === 'EntityTooLarge' || f.status === 413) {
    return new AppError('upload/too-large', `Storage refused to ${what}: the file is larger than the bucket allows${said}.`, { details, cause, retryable: false });
  }
  // Supabase Storage: a type the bucket's allowed_mime_types leave out.
  if (code === 'InvalidMimeType' || f.status === 415) {
    return new AppError('upload/unsupported', `Storage does not take this type of file (${what})${said}.`, { details, cause, retryable: false });
  }
  if (code === 'ExpiredToken' || code === 'InvalidJWT') {
    return new AppError('auth/session-expired', `Storage refused to ${what}: the session has expired.`, { details, cause, retryable: false });
  }
  if (INTEGRITY.has(code)) {
    return new AppError('upload/integrity', `Storage did not accept the bytes sent to ${what}${said}.`, { details, cause });
  }
  if (code === 'NoSuchKey' || (f.status === 404 && code !== 'NoSuchUpload' && code !== 'NoSuchBucket')) {
    return new AppError('item/not-found', `Storage has no such object (${what}).`, { details, cause, retryable: false });
  }
  if (f.status === 429 || code === 'SlowDown' || f.status >= 500) {
    const after = retryAfterMs(res);
    return new AppError('backend/unreachable', `Storage is busy or failing (${what}, HTTP ${f.status}${said}).`, {
      details,
      cause,
      retryable: true,
      ...(after === undefined ? {} : { retryAfterMs: after }),
    });
  }
  if (f.status === 400 && !DENIED.has(code) && op && WRITES.has(op)) {
    return new AppError('upload/unsupported', `Storage did not accept the request to ${what} (HTTP 400${code ? ` ${code}` : ''}${said}).`, { details, cause, retryable: false });
  }
  if (f.status === 401 || f.status === 403 || DENIED.has(code) || code === 'NoSuchBucket') {
    return new AppError('storage/denied', `Storage refused to ${what} (HTTP ${f.status}${code ? ` ${code}` : ''}${said}).`, { details, cause, retryable: false });
  }
  return new AppError('storage/denied', `Storage could not ${what} (HTTP ${f.status}${code ? ` ${code}` : ''}${said}).`, { details, cause, retryable: false });
}
