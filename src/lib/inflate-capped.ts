/**
 * [Note: Every inflation is streamed and capped]
 * Compressed bytes come from places the app does not control: a PNG's text chunk, an object in the bucket that
 * anyone with write access could have replaced. Deflate turns a kilobyte into a megabyte, and nested or
 * repeated streams go further, so nothing is ever inflated whole and unbounded. pako's Inflate is fed a piece
 * at a time (IN_PIECE bytes of input, OUT_PIECE bytes of output per call back) and the output is counted as it
 * comes: one byte past the cap and the output handler throws out of pako's loop, so nothing more is inflated.
 * A file recorded as 1 KB whose stored bytes would inflate to 1 GB stops after the first 64 KiB of output.
 * `inflateCapped` answers null (a photo without XMP is no error); `inflatedStream` fails with `upload/integrity`:
 * the stored bytes are not the file the item recorded (not its size, or not gzip at all), which is what that
 * code means, and it is not worth retrying (the same bytes would fail the same way).
 */
import { AppError } from './app-error';

/** Input handed to pako per call: bounds what one call can produce before the cap is checked (≤ ~1,000×). */
const IN_PIECE = 16 * 1024;
/** Output per call back. */
const OUT_PIECE = 64 * 1024;
/** No inflation in the app yields more than this, whatever a row says: the largest file an item can be (20 GiB). */
export const ABSOLUTE_INFLATE_CAP = 20 * 1024 * 1024 * 1024;

/** zlib or gzip data inflated a piece at a time, or null past `cap` bytes or when it is not valid. */
export async function inflateCapped(data: Uint8Array, cap: number): Promise<Uint8Array | null> {
  const { Inflate } = await import('pako');
  const inflator = new Inflate({ chunkSize: OUT_PIECE });
  const pieces: Uint8Array[] = [];
  let total = 0;
  inflator.onData = (piece) => {
    total += piece.length;
    // Thrown out of pako's loop: nothing more is inflated.
    if (total > cap) throw new RangeError('inflates past the cap');
    pieces.push(piece);
  };
  try {
    for (let at = 0; at < data.length || at === 0; at += IN_PIECE) {
      const last = at + IN_PIECE >= data.length;
      inflator.push(data.subarray(at, at + IN_PIECE), last);
      if (inflator.err || last) break;
    }
  } catch {
    return null;
  }
  if (inflator.err || !inflator.ended) return null;
  const out = new Uint8Array(total);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

export interface InflateLimits {
  /** The exact number of bytes the inflated stream must give (the item's recorded size). */
  bytes: number;
  /** For messages: what is being inflated. */
  name?: string;
}

/**
 * The gzip stream `source` inflated as it is read, never more than `bytes` (nor ABSOLUTE_INFLATE_CAP) bytes
 * out. It errors with `upload/integrity` as soon as the output passes `bytes`, when the stream is corrupt or
 * cut short, or when it ends with fewer bytes than `bytes`. Backpressure holds: input is read only as the
 * output is.
 */
export function inflatedStream(source: ReadableStream<Uint8Array>, limits: InflateLimits): ReadableStream<Uint8Array> {
  const cap = Math.min(limits.bytes, ABSOLUTE_INFLATE_CAP);
  const what = limits.name ? `"${limits.name}"` : 'The file';
  const broken = (why: string, cause?: unknown) =>
    new AppError('upload/integrity', `${what} is stored compressed, and ${why}.`, { retryable: false, ...(cause === undefined ? {} : { cause }) });
  let out = 0;
  let inflator: import('pako').Inflate | null = null;
  let sink: TransformStreamDefaultController<Uint8Array> | null = null;
  const push = (piece: Uint8Array, last: boolean) => {
    try {
      inflator!.push(piece, last);
    } catch (e) {
      throw e instanceof AppError ? e : broken('could not be read', e);
    }
    if (inflator!.err) throw broken(`could not be read (${inflator!.msg || inflator!.err})`);
  };
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async start(controller) {
        sink = controller;
        const { Inflate } = await import('pako');
        inflator = new Inflate({ chunkSize: OUT_PIECE });
        inflator.onData = (piece) => {
          out += piece.length;
          if (out > cap) throw broken(`gives more than the ${cap} bytes it was recorded with`);
          sink!.enqueue(piece);
        };
      },
      transform(chunk) {
        for (let at = 0; at < chunk.length; at += IN_PIECE) {
          if (inflator!.ended) throw broken('has bytes past its end');
          push(chunk.subarray(at, at + IN_PIECE), false);
        }
      },
      flush() {
        if (!inflator!.ended) push(new Uint8Array(0), true);
        if (!inflator!.ended || inflator!.err) throw broken('is cut short');
        if (out !== limits.bytes) throw broken(`gives ${out} bytes where ${limits.bytes} were recorded`);
      },
    }),
  );
}
