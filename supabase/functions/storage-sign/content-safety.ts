/**
 * Which types a browser may show inline from the bucket. Anything else (SVG, HTML, XHTML, XML, scripts,
 * unknown types) could run script in the bucket's origin when opened, so it is stored as
 * application/octet-stream and always served as an attachment (PRODUCT.md §5: SVG and HTML are files).
 */
export function isInlineSafe(mime: string | null | undefined): boolean {
  if (!mime) return false;
  const type = mime.split(';')[0]!.trim().toLowerCase();
  const [major, minor] = type.split('/');
  if (!major || !minor) return false;
  if (minor.includes('xml') || minor.includes('html')) return false;
  if (major === 'image' || major === 'video' || major === 'audio') return true;
  return type === 'application/pdf' || type === 'text/plain';
}

/** `attachment`, with the name as an RFC 5987 `filename*` when there is one. */
export function attachment(filename?: string | null): string {
  return filename ? `attachment; filename*=UTF-8''${encodeRfc5987(filename)}` : 'attachment';
}

/** Percent-encodes everything but RFC 5987 attr-chars. */
export function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Whether a Content-Disposition value already says attachment. */
export function isAttachment(disposition: string | undefined): boolean {
  return disposition !== undefined && /^\s*attachment\s*(;|$)/i.test(disposition);
}
