/**
 * How an S3 request gets its signature. The multipart engine never holds a secret: it asks a signer for a
 * signed request (method, URL, headers to send) per operation and sends it itself. Two signers exist:
 * - `SessionSigner` signs in the browser with the user's own session (Supabase Storage's S3 endpoint:
 *   access key = project ref, secret = anon key, session token = the user's JWT), so RLS decides;
 * - `FunctionSigner` asks the `storage-sign` edge function, which holds the provider's secret and checks
 *   membership and role first (any other S3 provider).
 * The operations and their fields are the `storage-sign` wire protocol (supabase/functions/storage-sign).
 * `contentMd5` (base64, src/lib/content-md5.ts) becomes a signed `Content-MD5` header the provider checks the body by.
 */
import type { ErrorCode } from '../../lib/app-error';

export type SignOp =
  /** `contentLength`: the body's size, which a signer may sign (share-upload binds a guest's upload to it). */
  | { op: 'put'; key: string; contentType: string; contentDisposition?: string; contentMd5?: string; contentLength?: number }
  | { op: 'create'; key: string; contentType: string; contentDisposition?: string }
  /** `partSize`: the upload's part size, from which a signer knows this part's length. */
  | { op: 'part'; key: string; uploadId: string; partNumber: number; contentMd5?: string; partSize?: number }
  | { op: 'complete'; key: string; uploadId: string }
  | { op: 'abort'; key: string; uploadId: string }
  | { op: 'list-parts'; key: string; uploadId: string; partNumberMarker?: number }
  /** The unfinished multipart uploads whose key starts with `key` (the caller keeps the exact matches). */
  | { op: 'list-uploads'; key: string }
  | { op: 'head'; key: string }
  | { op: 'get'; key: string; downloadAs?: string }
  | { op: 'delete'; key: string };

export interface SignedRequest {
  method: 'PUT' | 'POST' | 'GET' | 'HEAD' | 'DELETE';
  url: string;
  /** Headers that are part of the signature: they must be sent exactly as given. */
  headers: Record<string, string>;
}

export type SignResult = SignedRequest | { error: ErrorCode };

export interface S3Signer {
  /** Signs each operation; the answer has one entry per operation, in order. */
  sign(ops: SignOp[], signal?: AbortSignal): Promise<SignResult[]>;
  /** The server said our clock is off: sign later requests with its time (only a signer that signs locally). */
  adjustClock?(serverTimeMs: number): void;
}

export function isSigned(result: SignResult): result is SignedRequest {
  return 'url' in result;
}
