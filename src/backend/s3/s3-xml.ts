/** The few S3 XML documents the engine reads and writes (fast-xml-parser, entities never expanded). */
import { XMLParser } from 'fast-xml-parser';
import { decodeXmlEntities, escapeXmlText } from '../../lib/xml-entities';

const parser = new XMLParser({
  ignoreAttributes: true,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true,
  removeNSPrefix: true,
  isArray: (name) => name === 'Part' || name === 'Upload',
});

type Node = Record<string, unknown>;

function root(xml: string, name: string): Node | undefined {
  if (!xml.trim()) return undefined;
  try {
    const doc = parser.parse(xml) as Node;
    const node = doc[name];
    return node && typeof node === 'object' ? (node as Node) : undefined;
  } catch {
    return undefined;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? decodeXmlEntities(v) : typeof v === 'number' ? String(v) : undefined;
}

export interface S3ErrorBody {
  code: string;
  message: string;
  /** RequestTimeTooSkewed carries the server's clock. */
  serverTime?: string;
}

/** An `<Error>` document, or undefined when the body is not one (some answers have no body). */
export function parseS3Error(xml: string): S3ErrorBody | undefined {
  const e = root(xml, 'Error');
  if (!e) return undefined;
  const serverTime = str(e.ServerTime);
  return { code: str(e.Code) ?? '', message: str(e.Message) ?? '', ...(serverTime ? { serverTime } : {}) };
}

export function parseUploadId(xml: string): string | undefined {
  return str(root(xml, 'InitiateMultipartUploadResult')?.UploadId);
}

export interface ListedPart {
  partNumber: number;
  etag: string;
  /** Some providers (Supabase Storage) list parts with size 0: unknown. */
  size: number;
}

export interface PartsPage {
  parts: ListedPart[];
  nextMarker: number | undefined;
}

export function parseListParts(xml: string): PartsPage | undefined {
  const r = root(xml, 'ListPartsResult');
  if (!r) return undefined;
  const parts = ((r.Part as Node[] | undefined) ?? []).map((p) => ({
    partNumber: Number(str(p.PartNumber)),
    etag: str(p.ETag) ?? '',
    size: Number(str(p.Size) ?? 0),
  }));
  const truncated = str(r.IsTruncated) === 'true';
  const next = Number(str(r.NextPartNumberMarker));
  return { parts: parts.filter((p) => Number.isInteger(p.partNumber) && p.partNumber > 0), nextMarker: truncated && next > 0 ? next : undefined };
}

/** The unfinished multipart uploads a ListMultipartUploads page names: key and upload id. */
export function parseListUploads(xml: string): { key: string; uploadId: string }[] | undefined {
  const r = root(xml, 'ListMultipartUploadsResult');
  if (!r) return undefined;
  return ((r.Upload as Node[] | undefined) ?? []).flatMap((u) => {
    const key = str(u.Key);
    const uploadId = str(u.UploadId);
    return key !== undefined && uploadId ? [{ key, uploadId }] : [];
  });
}

/** CompleteMultipartUpload can answer 200 with an `<Error>` inside; this says whether it really completed. */
export function isCompleteResult(xml: string): boolean {
  return root(xml, 'CompleteMultipartUploadResult') !== undefined;
}

export function completeBody(parts: { partNumber: number; etag: string }[]): string {
  const items = [...parts]
    .sort((a, b) => a.partNumber - b.partNumber)
    .map((p) => `<Part><PartNumber>${p.partNumber}</PartNumber><ETag>${escapeXmlText(p.etag)}</ETag></Part>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${items}</CompleteMultipartUpload>`;
}
