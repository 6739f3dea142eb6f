/**
 * Shared helpers of the port contract suites and of tests over the ports: sample inputs, error checks, waiting
 * for live events, and faults injected at a port.
 */
import { expect, vi } from 'vitest';
import { limits } from '../../config';
import { AppError, type ErrorCode } from '../../lib/app-error';
import type { Backend } from '../../backend/ports';
import type { FinalizeItemInput, ReserveItemInput } from '../../domain/inputs';
import type { Item, ItemKind, ItemMetadata } from '../../domain/entities';

export function reserveInput(overrides: Partial<ReserveItemInput> = {}): ReserveItemInput {
  const kind = overrides.kind ?? 'image';
  const ext = kind === 'image' ? 'jpg' : kind === 'video' ? 'mp4' : 'pdf';
  const mime = kind === 'image' ? 'image/jpeg' : kind === 'video' ? 'video/mp4' : 'application/pdf';
  return { id: crypto.randomUUID(), filename: `sample.${ext}`, mime, kind, bytes: 1000, ...overrides };
}

export function finalizeInput(overrides: Partial<FinalizeItemInput> = {}): FinalizeItemInput {
  return {
    sha256: 'a'.repeat(64),
    width: 4000,
    height: 3000,
    durationMs: null,
    takenAt: null,
    hasPreview: true,
    hasThumb: true,
    thumbhash: 'AAAAAA==',
    metadata: {},
    ...overrides,
  };
}

export interface ReadyItemOptions {
  kind?: ItemKind;
  filename?: string;
  takenAt?: string | null;
  bytes?: number;
  hasThumb?: boolean;
  thumbhash?: string | null;
  metadata?: ItemMetadata;
}

/** Reserves and finalizes one item, the way the upload engine does once the bytes are up. */
/**
 * How a test puts an item's original in the bucket of a backend whose database checks it is there before
 * the upload is finished ([Note: An upload is finished only once its original is stored]); the local backend
 * finishes without it. Data-only tests have no bucket: the emulated project records the object as its
 * storage server would.
 */
export type OriginalPlacer = (albumId: string, itemId: string) => Promise<void>;
const placers = new WeakMap<object, OriginalPlacer>();

export function placeOriginalsWith<B extends Backend>(backend: B, placer: OriginalPlacer): B {
  placers.set(backend.itemWrites, placer);
  return backend;
}

/** Puts the item's original in the backend's bucket at its reserved size, where the backend needs it. */
export async function placeOriginal(backend: Backend, albumId: string, itemId: string): Promise<void> {
  await placers.get(backend.itemWrites)?.(albumId, itemId);
}

export async function addReadyItem(backend: Backend, albumId: string, opts: ReadyItemOptions = {}): Promise<Item> {
  const [reserved] = await backend.itemWrites.reserveItems(albumId, [
    reserveInput({
      kind: opts.kind ?? 'image',
      ...(opts.bytes === undefined ? {} : { bytes: opts.bytes }),
      ...(opts.filename === undefined ? {} : { filename: opts.filename }),
    }),
  ]);
  await placeOriginal(backend, albumId, reserved!.id);
  return backend.itemWrites.finalizeItem(
    albumId,
    reserved!.id,
    finalizeInput({
      takenAt: opts.takenAt ?? null,
      hasThumb: opts.hasThumb ?? true,
      ...(opts.thumbhash === undefined ? {} : { thumbhash: opts.thumbhash }),
      ...(opts.metadata ? { metadata: opts.metadata } : {}),
      ...(opts.kind === 'file' ? { width: null, height: null, hasPreview: false, hasThumb: false } : {}),
    }),
  );
}

/** Awaits a rejection and checks it is an AppError with `code`; returns it for further checks. */
export async function expectAppError(promise: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  let caught: unknown = null;
  try {
    await promise;
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(AppError);
  expect((caught as AppError).code).toBe(code);
  return caught as AppError;
}

/** Awaits a rejection and checks it is a cancellation. */
export async function expectAbortError(promise: Promise<unknown>): Promise<void> {
  let caught: unknown = null;
  try {
    await promise;
  } catch (e) {
    caught = e;
  }
  expect(caught).not.toBeNull();
  expect((caught as { name?: string }).name).toBe('AbortError');
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined, timeoutMs = 2000, what = 'condition'): Promise<T> {
  const start = performance.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (performance.now() - start > timeoutMs) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Waits until the clock reads later than `stamp` (an ISO time or epoch milliseconds): what is written next is
 * stamped after it, also by a backend whose clock counts whole milliseconds (PGlite's).
 */
export async function clockPasses(stamp: string | number): Promise<void> {
  const after = typeof stamp === 'number' ? stamp : Date.parse(stamp);
  while (Date.now() <= after) await new Promise((r) => setTimeout(r, 1));
}

/** Runs `run` with the clock a day past the trash period, as the daily purge finds it then. */
export async function afterTrashPeriod<T>(run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (limits().trashDays + 1) * 86_400_000 });
  try {
    return await run();
  } finally {
    vi.useRealTimers();
  }
}

/** Checks that rows come newest first by `time` then id, the order of every item list. */
export function expectNewestFirst(rows: Item[], time: (item: Item) => string): void {
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1]!;
    const b = rows[i]!;
    const ta = Date.parse(time(a));
    const tb = Date.parse(time(b));
    expect(ta > tb || (ta === tb && a.id > b.id), `row ${i - 1} (${time(a)}, ${a.id}) before row ${i} (${time(b)}, ${b.id})`).toBe(true);
  }
}

/** Every row of a list, following cursors page by page. */
export async function listAll(
  backend: Backend,
  albumId: string,
  query: Parameters<Backend['items']['listItems']>[1],
): Promise<{ rows: Item[]; pages: number }> {
  const rows: Item[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await backend.items.listItems(albumId, { ...query, cursor });
    rows.push(...page.rows);
    cursor = page.nextCursor;
    pages++;
    if (pages > 10_000) throw new Error('the list never ends');
  } while (cursor);
  return { rows, pages };
}

/** `port` with some methods replaced; every other call goes to the real one (fault injection at a port). */
export function withOverrides<T extends object>(port: T, overrides: Partial<T>): T {
  return new Proxy(port, {
    get(target, prop) {
      const own = (overrides as Record<PropertyKey, unknown>)[prop];
      if (own !== undefined) return own;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
