/**
 * `Content-Disposition` values that carry a file's original name (RFC 6266 with RFC 5987's `filename*`), and
 * the rule that active content (SVG, HTML, XML: they can run script) is always served as an attachment.
 */
const ACTIVE_TYPES = /^(image\/svg\+xml|text\/html|application\/xhtml\+xml|text\/xml|application\/xml|application\/javascript|text\/javascript)\b/i;

/** Types a browser could run as a page if an object were opened directly. */
export function isActiveContent(contentType: string): boolean {
  return ACTIVE_TYPES.test(contentType.trim());
}

/** RFC 5987 percent-encoding (attr-char kept, everything else as UTF-8 bytes). */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A plain-ASCII stand-in for clients that ignore `filename*`. */
function asciiFallback(name: string): string {
  const s = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_').trim();
  return s || 'download';
}

export function contentDisposition(kind: 'attachment' | 'inline', filename: string | undefined): string {
  if (!filename) return kind;
  return `${kind}; filename="${asciiFallback(filename)}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}

/** How an original is stored: active content as opaque bytes, always downloaded, never shown inline. */
export function storedOriginal(contentType: string, filename: string | undefined): { contentType: string; contentDisposition: string } {
  if (isActiveContent(contentType)) return { contentType: 'application/octet-stream', contentDisposition: contentDisposition('attachment', filename) };
  return { contentType: contentType || 'application/octet-stream', contentDisposition: contentDisposition('inline', filename) };
}
