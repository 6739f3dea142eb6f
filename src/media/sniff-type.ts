import { fileTypeFromBuffer } from 'file-type/core';
import { BROWSER_IMAGES, WORKER_DECODED_IMAGES } from '../lib/image-types';
import type { SniffedType } from './media-types';

/** Enough for every magic number file-type knows and for the start of an SVG or HTML document. */
const SNIFF_BYTES = 16 * 1024;

const OCTET_STREAM = 'application/octet-stream';

/**
 * Decides a file's type from its first bytes, never from its name (a renamed file is what it is).
 * Binary formats come from file-type; SVG, HTML, XML and plain text from a small text check, which
 * file-type does not do. Images the browser decodes, and those the media worker decodes when the browser cannot
 * (HEIF, JPEG XL, TIFF, camera RAW), get kind 'image'; Photoshop files and the like are kept as files.
 */
export async function sniffType(blob: Blob): Promise<SniffedType> {
  const head = new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer());
  if (head.length === 0) return asFile(OCTET_STREAM);

  // A UTF-16 byte-order mark looks like an MPEG audio frame header to file-type: try text first.
  if (hasByteOrderMark(head)) {
    const text = sniffText(head, blob.size > head.length);
    if (text) return asFile(text);
  }
  const found = await binaryType(head);
  if (found && found.mime !== 'application/xml') return classify(found.mime);

  const text = sniffText(head, blob.size > head.length);
  if (text) return asFile(text);
  return asFile(found?.mime ?? OCTET_STREAM);
}

const isTiff = (h: Uint8Array) => (h[0] === 0x49 && h[1] === 0x49 && h[2] === 0x2a && h[3] === 0) || (h[0] === 0x4d && h[1] === 0x4d && h[2] === 0 && h[3] === 0x2a);
/** Olympus ORF: a TIFF with its own magic ("IIRO", "MMOR", "IIRS"). */
const isOlympusRaw = (h: Uint8Array) => ['IIRO', 'MMOR', 'IIRS'].includes(String.fromCharCode(...h.subarray(0, 4)));

/**
 * The type file-type finds in the first bytes. A TIFF may keep its directory at the end of the file, past those
 * bytes (ImageMagick writes it so), where file-type would have to look to say more: it is a TIFF by its header,
 * and the media worker looks inside it for a raw's preview anyway. An Olympus raw, which file-type knows only in
 * one layout, is told by its magic.
 */
async function binaryType(head: Uint8Array): Promise<{ mime: string } | undefined> {
  const found = await fileTypeFromBuffer(head).catch(() => undefined);
  if (!found && isTiff(head)) return { mime: 'image/tiff' };
  if (!found && isOlympusRaw(head)) return { mime: 'image/x-olympus-orf' };
  return found;
}

function classify(mime: string): SniffedType {
  if (BROWSER_IMAGES.has(mime) || WORKER_DECODED_IMAGES.has(mime)) return { mime, kind: 'image', decodable: true };
  if (mime.startsWith('video/')) return { mime, kind: 'video', decodable: false };
  return asFile(mime);
}

function asFile(mime: string): SniffedType {
  return { mime, kind: 'file', decodable: false };
}

/**
 * SVG, HTML, XML or plain text, or null for binary. HTML is recognised by the same leading tags a browser's
 * own sniffer treats as HTML (WHATWG MIME Sniffing), so nothing a browser would render as a page slips
 * through as "text".
 */
function sniffText(head: Uint8Array, truncated: boolean): string | null {
  const text = decodeText(head, truncated);
  if (text === null) return null;
  const markup = firstMarkup(text);
  if (markup === 'svg') return 'image/svg+xml';
  if (markup === 'html') return 'text/html';
  if (markup === 'xml') return 'application/xml';
  return 'text/plain';
}

function hasByteOrderMark(head: Uint8Array): boolean {
  return (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) || (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
}

function decodeText(head: Uint8Array, truncated: boolean): string | null {
  let encoding = 'utf-8';
  let start = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) start = 3;
  else if (head[0] === 0xff && head[1] === 0xfe) [encoding, start] = ['utf-16le', 2];
  else if (head[0] === 0xfe && head[1] === 0xff) [encoding, start] = ['utf-16be', 2];
  let text: string;
  try {
    // stream: true tolerates a character cut in half at the end of the sample.
    text = new TextDecoder(encoding, { fatal: true }).decode(head.subarray(start), { stream: truncated });
  } catch {
    return null;
  }
  // WHATWG "binary data bytes": controls other than tab, newlines, form feed and escape.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x08 || c === 0x0b || (c >= 0x0e && c <= 0x1a) || (c >= 0x1c && c <= 0x1f)) return null;
  }
  return text;
}

const HTML_TAGS = ['html', 'head', 'script', 'iframe', 'h1', 'div', 'font', 'table', 'a', 'style', 'title', 'b', 'body', 'br', 'p'];

function firstMarkup(text: string): 'svg' | 'html' | 'xml' | null {
  let s = text.trimStart();
  let sawXmlDeclaration = false;
  // Skip the prolog: XML declaration, processing instructions, comments and a doctype.
  for (;;) {
    const lower = s.slice(0, 64).toLowerCase();
    if (lower.startsWith('<!doctype')) {
      if (/^<!doctype\s+html[\s>]/.test(lower)) return 'html';
      if (/^<!doctype\s+svg[\s>]/.test(lower)) return 'svg';
      s = skipPast(s, '>');
    } else if (s.startsWith('<?')) {
      sawXmlDeclaration ||= lower.startsWith('<?xml');
      s = skipPast(s, '?>');
    } else if (s.startsWith('<!--')) {
      s = skipPast(s, '-->');
    } else break;
    if (s === '') return sawXmlDeclaration ? 'xml' : null;
  }
  const tag = /^<([A-Za-z][\w.-]*:)?([A-Za-z][\w.-]*)[\s/>]/.exec(s);
  if (tag) {
    const name = (tag[2] ?? '').toLowerCase();
    if (name === 'svg') return 'svg';
    if (name === 'html' || (!tag[1] && HTML_TAGS.includes(name))) return 'html';
    return sawXmlDeclaration ? 'xml' : null;
  }
  return sawXmlDeclaration ? 'xml' : null;
}

function skipPast(s: string, end: string): string {
  const i = s.indexOf(end);
  return i < 0 ? '' : s.slice(i + end.length).trimStart();
}
