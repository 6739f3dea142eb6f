/** The headers of a presigned request that the caller may not choose, decided from the item's row. */
import { attachment, DERIVED_SERVED_TYPE, isAttachment, isInlineOriginalType, OCTET_STREAM } from './content-safety.ts';
import type { Overrides } from './presign.ts';
import type { ParsedRequest } from './sign-request.ts';

/** The columns of an item that decide an original's type and name. */
export interface ItemRow {
  id: string;
  mime: string;
  filename: string;
}

/**
 * What the caller may not choose, decided before signing.
 * Uploads: a derived object's type is already one of DERIVED_TYPES. An original keeps its type only when it is
 * on the inline list and is the type its row was reserved with; anything else is stored as
 * application/octet-stream, an attachment under the row's filename. A row the caller cannot see (someone
 * else's unfinished upload) counts as unsafe.
 * Downloads: every GET names `response-content-type` and `response-content-disposition`, so that no stored
 * type, whatever put it there, reaches the browser: a listed original as its row's type, inline; any other
 * original as bytes, an attachment; derived objects as images, inline. `downloadAs` makes any of them an
 * attachment with that name.
 */
export function overridesFor(p: ParsedRequest, item: ItemRow | undefined): Overrides {
  const req = p.request;
  const original = p.key.file === 'original';
  // A sidecar is XML, and XML with an XHTML namespace runs script on the bucket's origin: it is stored and served
  // as bytes to download, whatever the request says.
  if (p.key.file === 'original.xmp') {
    if (req.op === 'put' || req.op === 'create') {
      return { contentType: OCTET_STREAM, contentDisposition: isAttachment(req.contentDisposition) ? req.contentDisposition : attachment() };
    }
    if (req.op === 'get') return { responseType: OCTET_STREAM, responseDisposition: attachment(req.downloadAs) };
    return {};
  }
  if (req.op === 'put' || req.op === 'create') {
    if (!original || (item !== undefined && isInlineOriginalType(req.contentType) && item.mime === req.contentType)) return {};
    return {
      contentType: OCTET_STREAM,
      contentDisposition: isAttachment(req.contentDisposition) ? req.contentDisposition : attachment(item?.filename),
    };
  }
  if (req.op === 'get') {
    const named = req.downloadAs === undefined ? 'inline' : attachment(req.downloadAs);
    if (!original) return { responseType: DERIVED_SERVED_TYPE, responseDisposition: named };
    if (item !== undefined && isInlineOriginalType(item.mime)) return { responseType: item.mime, responseDisposition: named };
    return { responseType: OCTET_STREAM, responseDisposition: attachment(req.downloadAs ?? item?.filename) };
  }
  return {};
}
