/**
 * The requests of the storage-sign wire protocol, as the browser sends them (src/backend/s3/s3-signer.ts
 * `SignOp`), checked field by field. A malformed request is answered `validation/invalid` on its own,
 * without failing the others.
 */
import { parseObjectKey, type ObjectKey } from '../_shared/object-key.ts';

export type SignRequest =
  | { op: 'put' | 'create'; key: string; contentType: string; contentDisposition?: string; contentMd5?: string; contentLength?: number }
  | { op: 'part'; key: string; uploadId: string; partNumber: number; contentMd5?: string; partSize?: number }
  | { op: 'complete' | 'abort'; key: string; uploadId: string }
  | { op: 'list-parts'; key: string; uploadId: string; partNumberMarker?: number }
  | { op: 'list-uploads'; key: string }
  | { op: 'head'; key: string }
  | { op: 'get'; key: string; downloadAs?: string }
  | { op: 'delete'; key: string };

export type Op = SignRequest['op'];

/** What each operation does to the object, in the terms of public.object_access. */
export const ACTION_OF: Record<Op, 'read' | 'write' | 'delete'> = {
  put: 'write',
  create: 'write',
  part: 'write',
  complete: 'write',
  abort: 'write',
  'list-parts': 'write',
  // Listed by the object's full key as prefix: only that key's own unfinished uploads, to abort them.
  'list-uploads': 'write',
  head: 'read',
  get: 'read',
  delete: 'delete',
};

export interface ParsedRequest {
  request: SignRequest;
  key: ObjectKey;
}

export const MAX_REQUESTS = 1000;
const MAX_PARTS = 10000;
/** S3's bounds: a single PUT or a part holds at most 5 GiB; every part but the last at least 5 MiB. */
const MiB = 1024 * 1024;
export const MIN_PART_BYTES = 5 * MiB;
export const MAX_PUT_BYTES = 5 * 1024 * MiB;

// type/subtype with optional parameters, printable ASCII only (it is sent as a header).
const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;[\x20-\x7e]*)?$/i;
const HEADER_VALUE = /^[\x20-\x7e]+$/;
// deno-lint-ignore no-control-regex -- control characters are exactly what it looks for
const CONTROL = /[\x00-\x1f\x7f]/;
// Content-MD5: the base64 of a 16-byte MD5 digest.
const CONTENT_MD5 = /^[A-Za-z0-9+/]{21}[AQgw]==$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const isUploadId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= 1024 && !CONTROL.test(v);
const isOptional = (v: unknown, check: (x: unknown) => boolean) => v === undefined || check(v);
const isMd5 = (v: unknown): v is string => typeof v === 'string' && CONTENT_MD5.test(v);

/** One request checked, or null when it is malformed. */
export function parseSignRequest(raw: unknown): ParsedRequest | null {
  if (!isObject(raw)) return null;
  const key = parseObjectKey(raw.key);
  if (!key) return null;
  const k = raw.key as string;
  switch (raw.op) {
    case 'put':
    case 'create': {
      const { contentType, contentDisposition, contentMd5, contentLength } = raw;
      if (typeof contentType !== 'string' || contentType.length > 255 || !CONTENT_TYPE.test(contentType)) return null;
      if (!isOptional(contentDisposition, (v) => typeof v === 'string' && v.length <= 1024 && HEADER_VALUE.test(v))) return null;
      // Only a single PUT has one body to check; a multipart upload's parts carry their own.
      if (!isOptional(contentMd5, (v) => raw.op === 'put' && isMd5(v))) return null;
      // The length of a single PUT's body, which a guest's upload is signed with (the size it was reserved at).
      if (!isOptional(contentLength, (v) => raw.op === 'put' && isInt(v, 0, MAX_PUT_BYTES))) return null;
      return {
        key,
        request: {
          op: raw.op,
          key: k,
          contentType,
          ...(contentDisposition === undefined ? {} : { contentDisposition: contentDisposition as string }),
          ...(contentMd5 === undefined ? {} : { contentMd5: contentMd5 as string }),
          ...(contentLength === undefined ? {} : { contentLength: contentLength as number }),
        },
      };
    }
    case 'part': {
      const { contentMd5, partSize } = raw;
      if (!isUploadId(raw.uploadId) || !isInt(raw.partNumber, 1, MAX_PARTS) || !isOptional(contentMd5, isMd5)) return null;
      // The upload's part size: every part's length follows from it and the object's size.
      if (!isOptional(partSize, (v) => isInt(v, MIN_PART_BYTES, MAX_PUT_BYTES))) return null;
      return {
        key,
        request: {
          op: 'part',
          key: k,
          uploadId: raw.uploadId,
          partNumber: raw.partNumber,
          ...(contentMd5 === undefined ? {} : { contentMd5: contentMd5 as string }),
          ...(partSize === undefined ? {} : { partSize: partSize as number }),
        },
      };
    }
    case 'complete':
    case 'abort':
      if (!isUploadId(raw.uploadId)) return null;
      return { key, request: { op: raw.op, key: k, uploadId: raw.uploadId } };
    case 'list-parts': {
      const marker = raw.partNumberMarker;
      if (!isUploadId(raw.uploadId) || !isOptional(marker, (v) => isInt(v, 0, MAX_PARTS))) return null;
      return {
        key,
        request: { op: 'list-parts', key: k, uploadId: raw.uploadId, ...(marker === undefined ? {} : { partNumberMarker: marker as number }) },
      };
    }
    case 'head':
    case 'delete':
    case 'list-uploads':
      return { key, request: { op: raw.op, key: k } };
    case 'get': {
      const name = raw.downloadAs;
      if (!isOptional(name, (v) => typeof v === 'string' && v.length >= 1 && v.length <= 1024 && !CONTROL.test(v) && v.isWellFormed())) return null;
      return { key, request: { op: 'get', key: k, ...(name === undefined ? {} : { downloadAs: name as string }) } };
    }
    default:
      return null;
  }
}
