/**
 * Text rules of PRODUCT.md §5, shared by the UI (instant messages) and the backends (the authority).
 * Limits are read from `limits()` when a value is checked, so an override at start-up applies everywhere.
 */
// zod/mini: the same validators as zod, tree-shakable, so the first screen stays small.
import * as z from 'zod/mini';
import type { AlbumInput } from '../backend/ports';
import { limits } from '../config';
import { AppError } from './app-error';
import { errorText, fieldText, type Field, type FieldRule } from './error-messages';

/** C0 controls, DEL and C1 controls: never part of a title or a name. */
function hasLineControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

/** What a description may not hold: anything below 0x20 except tab and newline, and DEL. */
function hasDescriptionControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f) return true;
  }
  return false;
}
/** Bidi embeddings, overrides and isolates: they can make a name read as something else. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/u;

/** Length in code points, the way Postgres' `char_length` counts, so both sides agree on the limit. */
function length(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Records the rule a value breaks; the sentence comes from the error catalogue (`fieldText`). */
function fail(ctx: { addIssue: (issue: { code: 'custom'; message: string; params: Record<string, unknown> }) => void }, rule: FieldRule, limit?: number) {
  ctx.addIssue({ code: 'custom', message: rule, params: { rule, ...(limit === undefined ? {} : { limit }) } });
}

function lineText(field: Field, max: () => number) {
  return z.string({ error: 'type' }).check(
    z.trim(),
    z.superRefine((value: string, ctx) => {
      const limit = max();
      if (value.length === 0) fail(ctx, 'empty');
      else if (length(value) > limit) fail(ctx, 'too-long', limit);
      else if (hasLineControl(value)) fail(ctx, 'control');
      else if (BIDI.test(value)) fail(ctx, 'bidi');
    }),
  );
}

/** An album title: trimmed, 1–120 characters, one line, no control or bidi override characters. */
export const albumTitle = lineText('title', () => limits().titleMax);

/** A person's display name: trimmed, 1–60 characters, one line, no control or bidi override characters. */
export const displayName = lineText('displayName', () => limits().displayNameMax);

/** An album description: trimmed, up to 2,000 characters; newlines and tabs allowed, other controls not. */
export const albumDescription = z.string({ error: 'type' }).check(
  z.trim(),
  z.superRefine((value: string, ctx) => {
    const limit = limits().descriptionMax;
    if (length(value) > limit) fail(ctx, 'too-long', limit);
    else if (hasDescriptionControl(value)) fail(ctx, 'control');
  }),
);

const FIELD_OF = new Map<z.ZodMiniType, Field>([
  [albumTitle, 'title'],
  [displayName, 'displayName'],
  [albumDescription, 'description'],
]);

/** The first rule `value` breaks, or null when it is fine. */
function firstRule(schema: z.ZodMiniType, value: unknown): { rule: FieldRule; limit?: number } | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const params = (issue && 'params' in issue ? issue.params : undefined) as { rule?: FieldRule; limit?: number } | undefined;
  const rule: FieldRule = params?.rule ?? (issue?.code === 'invalid_type' ? 'type' : 'invalid');
  return { rule, ...(params?.limit === undefined ? {} : { limit: params.limit }) };
}

/** The first problem with `value` as the catalogue's sentence for the form, or null when it is fine. */
export function firstIssue(schema: z.ZodMiniType, value: unknown): string | null {
  const broken = firstRule(schema, value);
  if (!broken) return null;
  const field = FIELD_OF.get(schema);
  const text = field ? fieldText({ field, ...broken }) : null;
  return text ?? errorText('validation/invalid').title;
}

/** Parses `value` or throws `validation/invalid` naming the field and the rule, for backends and submit handlers. */
export function parseField<T>(schema: z.ZodMiniType<T>, value: unknown, field: Field): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const broken = firstRule(schema, value) ?? { rule: 'invalid' as const };
  throw new AppError('validation/invalid', `${field}: ${broken.rule}`, { details: { field, ...broken } });
}

/** The album's title and description as they will be stored; throws `validation/invalid` with the field. */
export function validateAlbumInput(input: AlbumInput): { title: string; description: string } {
  return {
    title: parseField(albumTitle, input.title, 'title'),
    description: parseField(albumDescription, input.description ?? '', 'description'),
  };
}
