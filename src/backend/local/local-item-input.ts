/** Checks of what callers hand the local item ports about items, before any transaction starts. */
import { limits } from '../../config';
import { AppError } from '../../lib/app-error';
import type { FinalizeItemInput, ReserveItemInput } from '../../domain/inputs';
import type { ItemSort } from '../../domain/queries';
import type { ItemKind, ItemMetadata } from '../../domain/entities';
import { invalid } from './local-errors';
import { ITEM_KINDS, sortableTime } from './local-item-record';

// The bounds on metadata (and zod) load with the first upload's result: browsing never needs them.
const validation = () => import('../../lib/validation');

/** Client-chosen item ids: uuids in practice; never anything that could act as a path. */
const ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function checkId(id: unknown, field = 'id'): string {
  if (typeof id !== 'string' || !ITEM_ID.test(id)) throw invalid(field, 'An item id must be 1–64 letters, digits, dashes or underscores.');
  return id;
}

/** The ids, each checked, without repeats. */
export function checkIds(ids: unknown): string[] {
  if (!Array.isArray(ids)) throw invalid('itemIds', 'Item ids must be a list.');
  return [...new Set(ids.map((id) => checkId(id, 'itemIds')))];
}

export function checkSort(sort: unknown): ItemSort {
  if (sort !== 'taken' && sort !== 'added') throw invalid('sort', 'Sort by "taken" or "added".');
  return sort;
}

export function checkKind(kind: unknown): ItemKind | undefined {
  if (kind === undefined || kind === null) return undefined;
  if (!(ITEM_KINDS as readonly unknown[]).includes(kind)) throw invalid('kind', 'The kind must be image, video or file.');
  return kind as ItemKind;
}

export interface ReserveInput {
  id: string;
  filename: string;
  mime: string;
  kind: ItemKind;
  bytes: number;
  stored: { encoding: 'gzip'; bytes: number } | null;
}

export function checkReserveInput(input: ReserveItemInput): ReserveInput {
  const id = checkId(input?.id);
  const { filename, mime, kind, bytes } = input;
  if (typeof filename !== 'string' || filename.length === 0 || filename.length > 1024) {
    throw invalid('filename', 'A file name must have 1 to 1,024 characters.');
  }
  if (typeof mime !== 'string' || mime.length > 255) throw invalid('mime', 'The file type is not valid.');
  const checkedKind = checkKind(kind);
  if (!checkedKind) throw invalid('kind', 'The kind must be image, video or file.');
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) throw invalid('bytes', 'The file size is not valid.');
  if (bytes === 0) throw new AppError('upload/empty', `"${filename}" is empty.`, { details: { id } });
  const max = limits().maxUploadBytes;
  if (bytes > max) throw new AppError('upload/too-large', `"${filename}" is larger than the ${max} bytes a file may have.`, { details: { id, max } });
  const stored = input.stored;
  if (stored !== undefined && stored !== null) {
    // Stored compressed only when it is smaller: anything else is not what the uploader makes.
    if (stored.encoding !== 'gzip' || typeof stored.bytes !== 'number' || !Number.isSafeInteger(stored.bytes) || stored.bytes <= 0 || stored.bytes >= bytes) {
      throw invalid('stored', 'A file stored compressed is gzip and smaller than itself.');
    }
  }
  return { id, filename, mime: mime || 'application/octet-stream', kind: checkedKind, bytes, stored: stored ? { encoding: 'gzip', bytes: stored.bytes } : null };
}

function nullableNumber(value: unknown, field: string, integer: boolean): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw invalid(field, `The ${field} is not valid.`);
  }
  return value;
}

export async function checkFinalizeInput(input: FinalizeItemInput) {
  if (!input || typeof input !== 'object') throw invalid('input', 'The upload result is missing.');
  const sha256 = typeof input.sha256 === 'string' && input.sha256.length <= 128 ? input.sha256 : null;
  const thumbhash = typeof input.thumbhash === 'string' && input.thumbhash.length <= 128 ? input.thumbhash : null;
  const taken = sortableTime(input.takenAt);
  const metadata: ItemMetadata =
    input.metadata && typeof input.metadata === 'object' && !Array.isArray(input.metadata) ? structuredClone(input.metadata) : {};
  // The database's bound on metadata (known fields, 16 KiB, 200 keywords of 100 characters) holds here too.
  const bounded = (await validation()).itemMetadata.safeParse(metadata);
  if (!bounded.success) throw invalid('metadata', bounded.error.issues[0]?.message ?? 'This metadata is not accepted.');
  return {
    sha256,
    thumbhash,
    width: nullableNumber(input.width, 'width', true),
    height: nullableNumber(input.height, 'height', true),
    durationMs: nullableNumber(input.durationMs, 'durationMs', false),
    takenAt: taken === null ? null : new Date(taken).toISOString(),
    hasPreview: input.hasPreview === true,
    hasThumb: input.hasThumb === true,
    metadata,
  };
}
