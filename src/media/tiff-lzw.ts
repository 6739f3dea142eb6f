/**
 * TIFF's LZW (compression 5), decoded into a buffer of the size the strip or tile must fill. geotiff's own LZW
 * decoder grows a plain array value by value (about 4 s for a 12 MP picture); this writes into one typed array, and
 * it cannot be made to produce more than `capacity` bytes however the data repeats, so a small file cannot expand
 * into gigabytes. Codes are MSB-first, 9 to 12 bits wide, widened one code early as libtiff writes them.
 */
const CLEAR = 256;
const END = 257;
const FIRST_FREE = 258;
const TABLE_SIZE = 4096;

/** The decoded bytes, at most `capacity` of them; fewer when the data ends early (the caller checks the length). */
export function decodeLzw(input: Uint8Array, capacity: number): Uint8Array {
  const out = new Uint8Array(capacity);
  const prefix = new Uint16Array(TABLE_SIZE);
  const suffix = new Uint8Array(TABLE_SIZE);
  const first = new Uint8Array(TABLE_SIZE);
  const length = new Uint16Array(TABLE_SIZE);
  for (let i = 0; i < 256; i++) {
    suffix[i] = i;
    first[i] = i;
    length[i] = 1;
  }
  let next = FIRST_FREE;
  let width = 9;
  let previous = -1;
  let written = 0;
  let bits = 0;
  let bitCount = 0;
  let at = 0;

  /** Writes the string of `code`, cut at the end of the output; answers the count written. */
  const emit = (code: number): number => {
    const n = length[code] ?? 0;
    let c = code;
    // Walked from its last byte back to its first; bytes past the end are skipped, not written.
    for (let i = n - 1; i >= 0; i--) {
      if (written + i < capacity) out[written + i] = suffix[c] ?? 0;
      c = prefix[c] ?? 0;
    }
    return Math.min(n, capacity - written);
  };

  while (written < capacity) {
    while (bitCount < width && at < input.length) {
      bits = ((bits << 8) | (input[at++] ?? 0)) & 0xffffff;
      bitCount += 8;
    }
    if (bitCount < width) break;
    const code = (bits >>> (bitCount - width)) & ((1 << width) - 1);
    bitCount -= width;
    if (code === END) break;
    if (code === CLEAR) {
      next = FIRST_FREE;
      width = 9;
      previous = -1;
      continue;
    }
    if (previous < 0) {
      if (code > 255) throw new Error('corrupt LZW data');
      out[written++] = code;
      previous = code;
      continue;
    }
    let head: number;
    if (code < next) {
      head = first[code] ?? 0;
      written += emit(code);
    } else if (code === next) {
      // The string being defined: the previous one and its own first byte.
      head = first[previous] ?? 0;
      written += emit(previous);
      if (written < capacity) out[written++] = head;
    } else {
      throw new Error('corrupt LZW data');
    }
    if (next < TABLE_SIZE) {
      prefix[next] = previous;
      suffix[next] = head;
      first[next] = first[previous] ?? 0;
      length[next] = (length[previous] ?? 0) + 1;
      next++;
      if (next >= (1 << width) - 1 && width < 12) width++;
    }
    previous = code;
  }
  return written === capacity ? out : out.slice(0, written);
}
