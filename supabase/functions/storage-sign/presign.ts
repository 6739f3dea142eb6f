/**
 * One S3 request presigned for the browser: the method, the URL, and the headers that are part of the
 * signature, which the browser must send exactly as given (Content-Type and Content-Disposition of uploads).
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Target } from '../_shared/s3-target.ts';
import type { SignRequest } from './sign-request.ts';

export interface SignedRequest {
  method: 'PUT' | 'POST' | 'GET' | 'HEAD' | 'DELETE';
  url: string;
  headers: Record<string, string>;
}

/** What the caller may not choose: decided from the item's row before signing. */
export interface Overrides {
  /** Upload: store with this type and disposition instead of the requested ones. */
  contentType?: string;
  contentDisposition?: string;
  /** Download: serve with this disposition (and type). */
  responseDisposition?: string;
  responseType?: string;
}

export async function presign(
  target: S3Target,
  req: SignRequest,
  overrides: Overrides,
  expiresIn: number,
  signingDate: Date,
): Promise<SignedRequest> {
  const { client, bucket: Bucket } = target;
  const Key = req.key;
  const opts = { expiresIn, signingDate };
  switch (req.op) {
    case 'put':
    case 'create': {
      const ContentType = overrides.contentType ?? req.contentType;
      const ContentDisposition = overrides.contentDisposition ?? req.contentDisposition;
      const headers: Record<string, string> = { 'content-type': ContentType };
      if (ContentDisposition !== undefined) headers['content-disposition'] = ContentDisposition;
      const input = { Bucket, Key, ContentType, ...(ContentDisposition === undefined ? {} : { ContentDisposition }) };
      // The S3 presigner leaves Content-Type out of the signature by default; the stored type must be
      // the one decided here, so it is signed like Content-Disposition.
      const typed = { ...opts, signableHeaders: new Set(['content-type']) };
      return req.op === 'put'
        ? { method: 'PUT', url: await getSignedUrl(client, new PutObjectCommand(input), typed), headers }
        : { method: 'POST', url: await getSignedUrl(client, new CreateMultipartUploadCommand(input), typed), headers };
    }
    case 'part':
      return { method: 'PUT', url: await getSignedUrl(client, new UploadPartCommand({ Bucket, Key, UploadId: req.uploadId, PartNumber: req.partNumber }), opts), headers: {} };
    case 'complete':
      return { method: 'POST', url: await getSignedUrl(client, new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: req.uploadId }), opts), headers: {} };
    case 'abort':
      return { method: 'DELETE', url: await getSignedUrl(client, new AbortMultipartUploadCommand({ Bucket, Key, UploadId: req.uploadId }), opts), headers: {} };
    case 'list-parts': {
      const marker = req.partNumberMarker === undefined ? {} : { PartNumberMarker: String(req.partNumberMarker) };
      return { method: 'GET', url: await getSignedUrl(client, new ListPartsCommand({ Bucket, Key, UploadId: req.uploadId, ...marker }), opts), headers: {} };
    }
    case 'head':
      return { method: 'HEAD', url: await getSignedUrl(client, new HeadObjectCommand({ Bucket, Key }), opts), headers: {} };
    case 'get': {
      const response = {
        ...(overrides.responseDisposition ? { ResponseContentDisposition: overrides.responseDisposition } : {}),
        ...(overrides.responseType ? { ResponseContentType: overrides.responseType } : {}),
      };
      return { method: 'GET', url: await getSignedUrl(client, new GetObjectCommand({ Bucket, Key, ...response }), opts), headers: {} };
    }
    case 'delete':
      return { method: 'DELETE', url: await getSignedUrl(client, new DeleteObjectCommand({ Bucket, Key }), opts), headers: {} };
  }
}
