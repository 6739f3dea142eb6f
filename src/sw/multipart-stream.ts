/**
 * A streaming reader of `multipart/form-data` (RFC 7578): each part's bytes are handed on as they arrive,
 * so a part of a gigabyte never sits in memory. Used by the service worker for shares (no DOM, no React).
 */

export interface PartHeaders {
  /** The form field's name. */
  name: string;
  /** Present for a file part, even when empty. */
  filename: string | null;
  type: string;
}

/** Where one part's bytes go; `write` is awaited before more is read (back-pressure). */
export interface PartSink {
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

const CRLF = new Uint8Array([13, 10]);
const HEADER_END = new Uint8Array([13, 10, 13, 10]);
/** A part's headers larger than this are not a share an OS sends. */
const MAX_HEADER_BYTES = 16 * 1024;

export function boundaryOf(contentType: string | null): string | null {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2] ?? null) : null;
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  for (let i = hay.indexOf(first ?? 0, from); i !== -1 && i + needle.length <= hay.length; i = hay.indexOf(first ?? 0, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** The quoted or bare value of a Content-Disposition parameter; `filename*` is not sent by browsers. */
function param(disposition: string, key: string): string | null {
  const m = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${key}=([^;\\s]+)`, 'i').exec(disposition);
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? null);
}

function parseHeaders(bytes: Uint8Array): PartHeaders {
  const lines = new TextDecoder().decode(bytes).split('\r\n');
  let disposition = '';
  let type = '';
  for (const line of lines) {
    const at = line.indexOf(':');
    if (at < 0) continue;
    const key = line.slice(0, at).trim().toLowerCase();
    const value = line.slice(at + 1).trim();
    if (key === 'content-disposition') disposition = value;
    else if (key === 'content-type') type = value;
  }
  // Browsers escape a name's quotes and line breaks as %22, %0D, %0A (HTML's form encoding).
  const unescape = (s: string) => s.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
  const filename = param(disposition, 'filename');
  return { name: unescape(param(disposition, 'name') ?? ''), filename: filename === null ? null : unescape(filename), type };
}

/**
 * Reads `body` to its end, calling `openPart` for each part and writing its bytes to the sink returned.
 * Throws on a body that is not well-formed multipart (cut short, no closing delimiter).
 */
export async function readMultipart(body: ReadableStream<Uint8Array>, boundary: string, openPart: (headers: PartHeaders) => Promise<PartSink>): Promise<void> {
  const enc = new TextEncoder();
  // Every delimiter but the first is preceded by CRLF: start with one so that the first matches too.
  const delimiter = enc.encode(`\r\n--${boundary}`);
  let buf: Uint8Array = CRLF;
  let state = 'preamble' as 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done';
  let sink: PartSink | null = null;
  const reader = body.getReader();
  let ended = false;

  const step = async (): Promise<boolean> => {
    switch (state) {
      case 'preamble': {
        const at = indexOf(buf, delimiter);
        if (at < 0) {
          buf = buf.slice(Math.max(0, buf.length - delimiter.length + 1));
          return false;
        }
        buf = buf.slice(at + delimiter.length);
        state = 'after-delimiter';
        return true;
      }
      case 'after-delimiter': {
        if (buf.length < 2) return false;
        if (buf[0] === 45 && buf[1] === 45) {
          state = 'done';
          return false;
        }
        // Transport padding (spaces or tabs) may follow a delimiter before its CRLF.
        const eol = indexOf(buf, CRLF);
        if (eol < 0) return false;
        buf = buf.slice(eol + 2);
        state = 'headers';
        return true;
      }
      case 'headers': {
        const at = indexOf(buf, HEADER_END);
        if (at < 0) {
          if (buf.length > MAX_HEADER_BYTES) throw new Error('multipart headers too long');
          return false;
        }
        sink = await openPart(parseHeaders(buf.subarray(0, at)));
        buf = buf.slice(at + 4);
        state = 'body';
        return true;
      }
      case 'body': {
        const at = indexOf(buf, delimiter);
        const current = sink;
        if (!current) throw new Error('no part open');
        if (at < 0) {
          // All but what could be the start of a delimiter is this part's.
          const keep = delimiter.length - 1;
          if (buf.length > keep) {
            await current.write(buf.slice(0, buf.length - keep));
            buf = buf.slice(buf.length - keep);
          }
          return false;
        }
        if (at > 0) await current.write(buf.slice(0, at));
        await current.close();
        sink = null;
        buf = buf.slice(at + delimiter.length);
        state = 'after-delimiter';
        return true;
      }
      case 'done':
        return false;
    }
  };

  // A function, as `step` changes the state where the compiler cannot see it.
  const finished = () => state === 'done';
  try {
    while (!finished()) {
      while (await step());
      if (finished()) break;
      if (ended) throw new Error('multipart body ended early');
      const { value, done } = await reader.read();
      if (done) ended = true;
      else buf = concat(buf, value);
    }
  } finally {
    reader.releaseLock();
  }
}
