/** What the raw readers share: the file read in slices, the JPEGs they point at, and small byte helpers. */

/** Candidates weighed per file: a format points at two or three JPEGs, a crafted file at any number. */
export const MAX_CANDIDATES = 16;

export interface Candidate {
  offset: number;
  length: number;
}

export interface Found {
  candidates: Candidate[];
  /** Read only when a preview was found. */
  orientation: () => Promise<number>;
}

/** Reads slices of the file; null instead of fewer bytes than asked. */
export class Source {
  readonly size: number;
  constructor(private readonly blob: Blob) {
    this.size = blob.size;
  }
  async bytes(offset: number, length: number): Promise<Uint8Array | null> {
    if (!Number.isSafeInteger(offset) || offset < 0 || length < 0 || offset + length > this.size) return null;
    const bytes = new Uint8Array(await this.blob.slice(offset, offset + length).arrayBuffer());
    return bytes.length === length ? bytes : null;
  }
}

export function u16(bytes: Uint8Array, at: number, le: boolean): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(at, le);
}

export function hex(bytes: Uint8Array, at: number, length: number): string {
  return [...bytes.subarray(at, at + length)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
