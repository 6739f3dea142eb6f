/**
 * The calls of a share link's guest to the `share-upload` edge function (supabase/functions/README.md), with
 * the visit token (from share-open) and the guest token (from `join`) added to each. Answers come back as the
 * app's entities; errors as the function's AppError codes.
 */
import { AppError } from '../../lib/app-error';
import type { Item } from '../../domain/entities';
import type { CallOptions, FunctionsPort } from '../ports';
import type { FinalizeItemInput, ReserveItemInput } from '../../domain/inputs';
import type { SignOp, SignResult } from '../s3/s3-signer';
import { toFinalizeInput, toItem } from '../supabase/supabase-rows';

export interface GuestLimits {
  maxFiles: number | null;
  maxBytes: number | null;
  usedFiles: number;
  usedBytes: number;
}

/** One of "Your uploads". */
export interface GuestItem {
  id: string;
  kind: Item['kind'];
  status: Item['status'];
  filename: string;
  mime: string;
  bytes: number;
  createdAt: string;
  thumbhash: string | null;
  thumbUrl: string | null;
}

export interface GuestReservation {
  items: Item[];
  /** Ids of files whose SHA-256 is already in the album: not reserved, nothing to upload. */
  duplicates: string[];
}

const FUNCTION = 'share-upload';

/** `join` for a visitor: the guest token to keep in this browser, and the guest's limits. */
export async function joinAsGuest(functions: FunctionsPort, visit: string, name: string, opts: CallOptions = {}): Promise<{ guest: string; name: string; albumId: string; limits: GuestLimits }> {
  return functions.invoke(FUNCTION, { op: 'join', visit, name }, opts);
}

export class GuestUploadClient {
  constructor(
    private readonly functions: FunctionsPort,
    private readonly visit: string,
    private readonly guest: string,
  ) {}

  private call<T>(op: string, body: Record<string, unknown>, opts: CallOptions = {}): Promise<T> {
    return this.functions.invoke<T>(FUNCTION, { op, visit: this.visit, guest: this.guest, ...body }, opts);
  }

  async reserve(inputs: ReserveItemInput[], opts?: CallOptions): Promise<GuestReservation> {
    const items = inputs.map((i) => ({ id: i.id, filename: i.filename, mime: i.mime, kind: i.kind, bytes: i.bytes, ...(i.sha256 ? { sha256: i.sha256 } : {}), ...(i.stored ? { stored: i.stored } : {}) }));
    const answer = await this.call<{ items: unknown[]; duplicates: string[] }>('reserve', { items }, opts);
    return { items: answer.items.map(toItem), duplicates: answer.duplicates };
  }

  async sign(requests: SignOp[], opts?: CallOptions): Promise<{ expiresAt: string; results: SignResult[] }> {
    return this.call('sign', { requests }, opts);
  }

  async finalize(itemId: string, input: FinalizeItemInput, opts?: CallOptions): Promise<Item> {
    return toItem((await this.call<{ item: unknown }>('finalize', { itemId, input: toFinalizeInput(input) }, opts)).item);
  }

  async fail(itemId: string, opts?: CallOptions): Promise<void> {
    await this.call('fail', { itemId }, opts);
  }

  async mine(opts?: CallOptions): Promise<{ albumId: string; items: GuestItem[]; limits: GuestLimits }> {
    return this.call('mine', {}, opts);
  }

  async remove(itemIds: string[], opts?: CallOptions): Promise<string[]> {
    return (await this.call<{ deleted: string[] }>('delete', { itemIds }, opts)).deleted;
  }
}

/** What reserveItems throws for a file already in the album: nothing to upload, and nothing to retry. */
export function duplicateError(filename: string): AppError {
  return new AppError('validation/invalid', `${filename} is already in the album.`, { retryable: false, details: { field: 'file', rule: 'duplicate' } });
}

export function isDuplicateError(e: { code: string; details?: Record<string, unknown> | undefined } | null | undefined): boolean {
  return !!e && e.code === 'validation/invalid' && e.details?.rule === 'duplicate';
}
