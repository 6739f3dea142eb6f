/**
 * Text rules of PRODUCT.md §5, shared by the UI (instant messages) and the backends (the authority).
 * Limits are read from `limits()` when a value is checked, so an override at start-up applies everywhere.
 */
// zod/mini: the same validators as zod, tree-shakable, so the first screen stays small.
import * as z from 'zod/mini';
import type { AlbumInput } from '../domain/inputs';
import { limits } from '../config';
import { AppError } from './app-error';
import { errorText, fieldText, type Field, type FieldRule } from './error-messages';
import { isTakenOffset, jsonbTextBytes, KEYWORD_MAX_CHARS, KEYWORD_PATH_MAX_CHARS, KEYWORDS_MAX, LOCATION_NOTES, METADATA_MAX_BYTES, NOTICES } from './item-metadata';

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
/**
 * Invisible format characters, the list of [Note: Invisible format characters] in
 * supabase/migrations/20261123120000_clean_text.sql: bidi marks, embeddings, overrides and isolates (they can
 * make "exe.jpg" read as "jpg.exe"), zero-width spaces, word joiners, the byte order mark, soft hyphens and
 * the like. Zero-width (non-)joiners and emoji tag characters stay: real text and emoji need them.
 */
export const INVISIBLE_FORMAT =
  /[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0001}]/u;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/**
 * A text of only characters that draw nothing ([Note: Blank-looking text] in
 * supabase/migrations/20261128200000_blank_text.sql): spaces of every kind, the Hangul fillers, the blank Braille
 * pattern. Refused as empty; beside visible characters they are ordinary text.
 */
// The Hangul vowel filler and the Khmer inherent vowels combine with what comes before: alternatives, not a class.
export const BLANK_ONLY = /^(?:[\s\u115f\u2800\u3164\uffa0]|\u1160|\u17b4|\u17b5)+$/u;
/** A line or paragraph separator breaks a one-line text as a newline does; the object replacement character stands for nothing. */
export const LINE_BREAKING = /[\u2028\u2029\ufffc]/u;

/** The rule a text holding an invisible format character breaks: direction marks get their own sentence. */
function invisibleRule(value: string): FieldRule {
  return BIDI.test(value) ? 'bidi' : 'invisible';
}

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
      if (value.length === 0 || BLANK_ONLY.test(value)) fail(ctx, 'empty');
      else if (length(value) > limit) fail(ctx, 'too-long', limit);
      else if (hasLineControl(value) || LINE_BREAKING.test(value)) fail(ctx, 'control');
      else if (INVISIBLE_FORMAT.test(value)) fail(ctx, invisibleRule(value));
    }),
  );
}

/** An album title: trimmed, 1–120 characters, one line, no control or invisible format characters. */
export const albumTitle = lineText('title', () => limits().titleMax);

/** A person's display name: trimmed, 1–60 characters, one line, no control or invisible format characters. */
export const displayName = lineText('displayName', () => limits().displayNameMax);

/** An album description: trimmed, up to 2,000 characters; newlines and tabs allowed, other controls and invisible format characters not. */
export const albumDescription = z.string({ error: 'type' }).check(
  z.trim(),
  z.superRefine((value: string, ctx) => {
    const limit = limits().descriptionMax;
    if (length(value) > limit) fail(ctx, 'too-long', limit);
    else if (hasDescriptionControl(value)) fail(ctx, 'control');
    else if (INVISIBLE_FORMAT.test(value)) fail(ctx, invisibleRule(value));
  }),
);

/** A comment: trimmed, 1–2,000 characters; newlines and tabs allowed, other controls and invisible format characters not. */
export const commentBody = z.string({ error: 'type' }).check(
  z.trim(),
  z.superRefine((value: string, ctx) => {
    const limit = limits().commentMax;
    if (value.length === 0) fail(ctx, 'empty');
    else if (length(value) > limit) fail(ctx, 'too-long', limit);
    else if (hasDescriptionControl(value)) fail(ctx, 'control');
    else if (INVISIBLE_FORMAT.test(value)) fail(ctx, invisibleRule(value));
  }),
);

const FIELD_OF = new Map<z.ZodMiniType, Field>([
  [albumTitle, 'title'],
  [commentBody, 'comment'],
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

const keyword = z.string().check(z.refine((k: string) => length(k) <= KEYWORD_MAX_CHARS, `A keyword has at most ${KEYWORD_MAX_CHARS} characters.`));
const keywordPath = z
  .string()
  .check(z.refine((k: string) => length(k) <= KEYWORD_PATH_MAX_CHARS, `A keyword with its levels has at most ${KEYWORD_PATH_MAX_CHARS} characters.`));
const finite = z.number().check(z.refine((n: number) => Number.isFinite(n), 'Metadata numbers are finite.'));

/** What the database accepts as an item's metadata (src/lib/item-metadata.ts cuts metadata down to it). */
export const itemMetadata = z
  .strictObject({
    cameraMake: z.optional(z.string()),
    cameraModel: z.optional(z.string()),
    lens: z.optional(z.string()),
    exposureTime: z.optional(finite),
    fNumber: z.optional(finite),
    iso: z.optional(finite),
    focalLength: z.optional(finite),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    rating: z.optional(finite),
    keywords: z.optional(z.array(keyword).check(z.maxLength(KEYWORDS_MAX, `At most ${KEYWORDS_MAX} keywords.`))),
    keywordPaths: z.optional(z.array(keywordPath).check(z.maxLength(KEYWORDS_MAX, `At most ${KEYWORDS_MAX} keyword paths.`))),
    label: z.optional(z.string()),
    creator: z.optional(z.string()),
    rights: z.optional(z.string()),
    notice: z.optional(z.enum(NOTICES)),
    location: z.optional(z.enum(LOCATION_NOTES)),
    animated: z.optional(z.literal(true)),
    sidecar: z.optional(z.literal(true)),
    takenOffset: z.optional(z.number().check(z.refine(isTakenOffset, "A capture time's offset is whole minutes within ±14 hours."))),
  })
  .check(z.refine((m) => jsonbTextBytes(m) <= METADATA_MAX_BYTES, 'Metadata holds at most 16 KiB.'));
