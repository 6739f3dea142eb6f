/**
 * Text rules of PRODUCT.md §5, shared by the UI (instant messages) and the backends (the authority).
 * Limits are read from `limits()` when a value is checked, so an override at start-up applies everywhere.
 */
// zod/mini: the same validators as zod, tree-shakable, so the first screen stays small.
import * as z from 'zod/mini';
import type { AlbumInput } from '../backend/ports';
import { limits } from '../config';
import { AppError } from './app-error';
import { jsonbTextBytes, KEYWORD_MAX_CHARS, KEYWORDS_MAX, METADATA_MAX_BYTES, NOTICES } from './item-metadata';

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

/** The message for a text holding an invisible format character. */
function invisibleMessage(Noun: string, value: string): string {
  return BIDI.test(value)
    ? `${Noun} cannot contain text-direction control characters.`
    : `${Noun} cannot contain invisible formatting characters.`;
}

/** Length in code points, the way Postgres' `char_length` counts, so both sides agree on the limit. */
function length(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function lineText(noun: string, max: () => number) {
  const Noun = noun[0]!.toUpperCase() + noun.slice(1);
  return z.string({ error: `${Noun} must be text.` }).check(
    z.trim(),
    z.superRefine((value: string, ctx) => {
      const limit = max();
      if (value.length === 0) ctx.addIssue({ code: 'custom', message: `${Noun} cannot be empty.` });
      else if (length(value) > limit) {
        ctx.addIssue({ code: 'custom', message: `${Noun} can be at most ${limit.toLocaleString('en')} characters.` });
      } else if (hasLineControl(value)) {
        ctx.addIssue({ code: 'custom', message: `${Noun} cannot contain control characters or line breaks.` });
      } else if (INVISIBLE_FORMAT.test(value)) {
        ctx.addIssue({ code: 'custom', message: invisibleMessage(Noun, value) });
      }
    }),
  );
}

/** An album title: trimmed, 1–120 characters, one line, no control or invisible format characters. */
export const albumTitle = lineText('the title', () => limits().titleMax);

/** A person's display name: trimmed, 1–60 characters, one line, no control or invisible format characters. */
export const displayName = lineText('the name', () => limits().displayNameMax);

/** An album description: trimmed, up to 2,000 characters; newlines and tabs allowed, other controls and invisible format characters not. */
export const albumDescription = z.string({ error: 'The description must be text.' }).check(
  z.trim(),
  z.superRefine((value: string, ctx) => {
    const limit = limits().descriptionMax;
    if (length(value) > limit) {
      ctx.addIssue({ code: 'custom', message: `The description can be at most ${limit.toLocaleString('en')} characters.` });
    } else if (hasDescriptionControl(value)) {
      ctx.addIssue({ code: 'custom', message: 'The description cannot contain control characters.' });
    } else if (INVISIBLE_FORMAT.test(value)) {
      ctx.addIssue({ code: 'custom', message: invisibleMessage('The description', value) });
    }
  }),
);

/** The first problem with `value` as a sentence for the form, or null when it is fine. */
export function firstIssue(schema: z.ZodMiniType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'This value is not valid.');
}

/** Parses `value` or throws `validation/invalid` naming the field, for backends and submit handlers. */
export function parseField<T>(schema: z.ZodMiniType<T>, value: unknown, field: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? 'This value is not valid.';
  throw new AppError('validation/invalid', message, { details: { field } });
}

/** The album's title and description as they will be stored; throws `validation/invalid` with the field. */
export function validateAlbumInput(input: AlbumInput): { title: string; description: string } {
  return {
    title: parseField(albumTitle, input.title, 'title'),
    description: parseField(albumDescription, input.description ?? '', 'description'),
  };
}

const keyword = z.string().check(z.refine((k: string) => length(k) <= KEYWORD_MAX_CHARS, `A keyword has at most ${KEYWORD_MAX_CHARS} characters.`));
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
    label: z.optional(z.string()),
    notice: z.optional(z.enum(NOTICES)),
  })
  .check(z.refine((m) => jsonbTextBytes(m) <= METADATA_MAX_BYTES, 'Metadata holds at most 16 KiB.'));
