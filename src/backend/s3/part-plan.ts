/** Where an object's parts begin and end (PRODUCT.md §9: 8 MiB, grown so no file needs more than 10,000 parts). */
const MiB = 1024 * 1024;

export interface PartPlanLimits {
  partSize: number;
  maxParts: number;
  singlePutMaxBytes: number;
}

/** Below `singlePutMaxBytes` one PUT is faster and simpler than a multipart upload. */
export function usesMultipart(size: number, l: PartPlanLimits): boolean {
  return size >= l.singlePutMaxBytes;
}

/** The part size for an object of `size` bytes: the configured size, grown in whole MiB until the parts fit. */
export function partSizeFor(size: number, l: PartPlanLimits): number {
  const needed = Math.ceil(size / l.maxParts);
  if (needed <= l.partSize) return l.partSize;
  return Math.ceil(needed / MiB) * MiB;
}

export function partCount(size: number, partSize: number): number {
  return Math.max(1, Math.ceil(size / partSize));
}

/** Byte range [start, end) of part `partNumber` (1-based). */
export function partRange(size: number, partSize: number, partNumber: number): { start: number; end: number } {
  const start = (partNumber - 1) * partSize;
  return { start, end: Math.min(size, start + partSize) };
}
