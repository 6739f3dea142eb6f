/**
 * The one way Shoebox writes to the console. Presigned URLs carry credentials in their query strings
 * (signatures, session tokens), and so do realtime socket URLs: every string that reaches the console,
 * including the messages, stacks and causes of errors and the fields of objects, loses its URLs' query
 * strings first. Lint (`no-console`) keeps every other file from calling the console directly.
 */
import { stripQueryStrings } from './app-error';

const MAX_DEPTH = 6;

function clean(value: unknown, depth: number, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return stripQueryStrings(value);
  if (value === null || typeof value !== 'object') return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if (depth >= MAX_DEPTH) return '[…]';
  if (value instanceof Error || (typeof DOMException !== 'undefined' && value instanceof DOMException)) {
    const e = value as Error;
    // A plain Error with the same name, message, stack, cause and own fields (code, status, details…):
    // the original keeps its prototype's getters, which would print the unstripped text.
    const copy = new Error(stripQueryStrings(String(e.message)));
    seen.set(value, copy);
    copy.name = e.name;
    copy.stack = e.stack === undefined ? undefined : stripQueryStrings(e.stack);
    if (e.cause !== undefined) copy.cause = clean(e.cause, depth + 1, seen);
    for (const key of Object.keys(e)) {
      if (key === 'message' || key === 'stack' || key === 'cause' || key === 'name') continue;
      (copy as unknown as Record<string, unknown>)[key] = clean((e as unknown as Record<string, unknown>)[key], depth + 1, seen);
    }
    return copy;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(clean(item, depth + 1, seen));
    return copy;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) {
    const copy: Record<string, unknown> = {};
    seen.set(value, copy);
    for (const [key, field] of Object.entries(value)) copy[key] = clean(field, depth + 1, seen);
    return copy;
  }
  // Anything else (a Response, a Request, a DOM node…) may hide a URL behind a getter: its kind only.
  const kind = (proto as { constructor?: { name?: string } } | undefined)?.constructor?.name ?? 'object';
  const url = (value as { url?: unknown }).url;
  return typeof url === 'string' ? `[${kind} ${stripQueryStrings(url)}]` : `[${kind}]`;
}

function write(level: 'error' | 'warn' | 'info', args: unknown[]): void {
  const seen = new WeakMap<object, unknown>();
  console[level](...args.map((a) => clean(a, 0, seen)));
}

export const log = {
  error: (...args: unknown[]): void => write('error', args),
  warn: (...args: unknown[]): void => write('warn', args),
  info: (...args: unknown[]): void => write('info', args),
};
