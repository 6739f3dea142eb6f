/**
 * Editing an item's details (PRODUCT.md §6 "edit item metadata"): what an edit may say, checked the way the
 * database's `edit_items` checks it, and what it makes of an item. The local backend stores what `applyItemEdit`
 * returns; the screens use it to show an edit before the backend has answered, and `undoEdit` to take it back.
 *
 * [Note: Edits merge into what an item holds]
 * An edit names only what changes. Keywords are added and removed by name (or, from one item's details, replaced
 * as a whole), and the date is set or shifted: a selection of photos taken by different people on different days
 * keeps each photo's own keywords and date. Two members editing at once therefore never undo each other's
 * keywords, and the database applies the edit to each row as it is when the edit arrives, not as the screen saw it.
 * Nothing of the camera's own record (camera, lens, exposure) and nothing the upload noted (notice, location,
 * animated, sidecar) can be edited.
 */
import { AppError } from './app-error';
import type { Item, ItemMetadata } from '../domain/entities';
import type { ItemEdit } from '../domain/inputs';
import { KEYWORD_MAX_CHARS, KEYWORD_PATH_MAX_CHARS, KEYWORDS_MAX, METADATA_MAX_BYTES, jsonbTextBytes } from './item-metadata';

export type { ItemEdit };

export const TITLE_MAX_CHARS = 2000;
export const DESCRIPTION_MAX_CHARS = 2000;
export const LABEL_MAX_CHARS = 200;
/** The colour labels offered, in Lightroom's order and spelling (what its XMP says in `xmp:Label`). */
export const COLOR_LABELS = ['Red', 'Yellow', 'Green', 'Blue', 'Purple'] as const;
/** A shift beyond a century is no clock set wrong. */
export const MAX_SHIFT_MS = 100 * 366 * 24 * 3600 * 1000;
/** The dates a list can sort (0001-01-01 to 9999-12-31), as the backends bound them. */
const MIN_TIME = -62_135_596_800_000;
const MAX_TIME = 253_402_300_799_999;

const EDIT_KEYS = new Set(['title', 'description', 'label', 'rating', 'keywords', 'addKeywords', 'removeKeywords', 'addKeywordPaths', 'takenAt', 'shiftTakenAtMs']);

const invalid = (field: string, message: string) => new AppError('validation/invalid', message, { details: { field } });
const chars = (text: string) => [...text].length;

function checkText(edit: ItemEdit, key: 'title' | 'description' | 'label', max: number): string | null | undefined {
  if (!(key in edit)) return undefined;
  const v = edit[key];
  if (v === null) return null;
  if (typeof v !== 'string') throw invalid(key, `The ${key} must be text.`);
  const text = v.trim();
  if (chars(text) > max) throw invalid(key, `The ${key} has at most ${max.toLocaleString('en')} characters.`);
  return text === '' ? null : text;
}

function checkKeywords(value: unknown, field: string, maxChars = KEYWORD_MAX_CHARS): string[] {
  if (!Array.isArray(value) || value.length > KEYWORDS_MAX) throw invalid(field, `Give at most ${KEYWORDS_MAX} keywords.`);
  const out: string[] = [];
  for (const k of value) {
    if (typeof k !== 'string') throw invalid(field, 'A keyword must be text.');
    const word = k.trim();
    if (chars(word) > maxChars) throw invalid(field, `A keyword has at most ${maxChars} characters.`);
    if (word !== '' && !out.includes(word)) out.push(word);
  }
  return out;
}

/** The edit as it will be applied (texts trimmed, blanks as null, keywords trimmed and once each); throws `validation/invalid`. */
export function checkItemEdit(edit: unknown): ItemEdit {
  if (!edit || typeof edit !== 'object' || Array.isArray(edit)) throw invalid('edit', 'Nothing to change.');
  const e = edit as ItemEdit;
  const keys = Object.keys(e).filter((k) => (e as Record<string, unknown>)[k] !== undefined);
  if (keys.length === 0) throw invalid('edit', 'Nothing to change.');
  const unknown = keys.find((k) => !EDIT_KEYS.has(k));
  if (unknown) throw invalid(unknown, 'This detail cannot be edited.');
  const out: ItemEdit = {};
  const title = checkText(e, 'title', TITLE_MAX_CHARS);
  if (title !== undefined) out.title = title;
  const description = checkText(e, 'description', DESCRIPTION_MAX_CHARS);
  if (description !== undefined) out.description = description;
  const label = checkText(e, 'label', LABEL_MAX_CHARS);
  if (label !== undefined) out.label = label;
  if ('rating' in e && e.rating !== undefined) {
    const r = e.rating;
    if (r !== null && !(Number.isInteger(r) && r >= 0 && r <= 5)) throw invalid('rating', 'A rating is 0 to 5 stars.');
    out.rating = r === 0 ? null : r;
  }
  if (e.keywords !== undefined) {
    if (e.addKeywords !== undefined || e.removeKeywords !== undefined) throw invalid('keywords', 'Replace the keywords, or add and remove some, not both.');
    out.keywords = checkKeywords(e.keywords, 'keywords');
  }
  if (e.addKeywords !== undefined) out.addKeywords = checkKeywords(e.addKeywords, 'addKeywords');
  if (e.removeKeywords !== undefined) out.removeKeywords = checkKeywords(e.removeKeywords, 'removeKeywords');
  if (e.addKeywordPaths !== undefined) out.addKeywordPaths = checkKeywords(e.addKeywordPaths, 'addKeywordPaths', KEYWORD_PATH_MAX_CHARS);
  if (e.takenAt !== undefined) {
    if (e.shiftTakenAtMs !== undefined) throw invalid('takenAt', 'Set the date, or shift it, not both.');
    if (e.takenAt === null) out.takenAt = null;
    else {
      const t = typeof e.takenAt === 'string' ? Date.parse(e.takenAt) : NaN;
      if (!(t >= MIN_TIME && t <= MAX_TIME)) throw invalid('takenAt', 'This is not a date.');
      out.takenAt = new Date(t).toISOString();
    }
  }
  if (e.shiftTakenAtMs !== undefined) {
    const s = e.shiftTakenAtMs;
    if (!Number.isInteger(s) || Math.abs(s) > MAX_SHIFT_MS) throw invalid('shiftTakenAtMs', 'Shift the date by at most 100 years.');
    out.shiftTakenAtMs = s;
  }
  return out;
}

/** The item's metadata and date after the edit (which `checkItemEdit` has checked); see the note above. */
export function applyItemEdit(item: Pick<Item, 'metadata' | 'takenAt'>, edit: ItemEdit): { metadata: ItemMetadata; takenAt: string | null } {
  const metadata: ItemMetadata = { ...item.metadata };
  for (const key of ['title', 'description', 'label'] as const) {
    if (!(key in edit)) continue;
    const v = edit[key];
    if (v) metadata[key] = v;
    else delete metadata[key];
  }
  if ('rating' in edit) {
    if (edit.rating) metadata.rating = edit.rating;
    else delete metadata.rating;
  }
  if (edit.keywords || edit.addKeywords || edit.removeKeywords || edit.addKeywordPaths) {
    const remove = new Set(edit.removeKeywords ?? []);
    const next: string[] = [];
    for (const k of [...(edit.keywords ?? metadata.keywords ?? []), ...(edit.addKeywords ?? [])]) {
      if (!remove.has(k) && !next.includes(k)) next.push(k);
    }
    if (next.length > 0) metadata.keywords = next;
    else delete metadata.keywords;
    // A keyword taken away takes its place in the hierarchy with it; a place given back comes with its keyword.
    const paths = [...(metadata.keywordPaths ?? []), ...(edit.addKeywordPaths ?? [])].filter(
      (p, i, all) => next.includes(p.slice(p.lastIndexOf('|') + 1)) && all.indexOf(p) === i,
    );
    if (paths.length) metadata.keywordPaths = paths;
    else delete metadata.keywordPaths;
  }
  let takenAt = item.takenAt;
  if (edit.takenAt !== undefined) takenAt = edit.takenAt;
  else if (edit.shiftTakenAtMs && takenAt) {
    const t = Date.parse(takenAt) + edit.shiftTakenAtMs;
    // A date shifted out of the sortable range stays as it was (the database refuses it too).
    if (t >= MIN_TIME && t <= MAX_TIME) takenAt = new Date(t).toISOString();
  }
  return { metadata, takenAt };
}

/** Whether metadata after an edit still fits the bound (PRODUCT.md §9): 200 keywords and 16 KiB. */
export function fitsMetadataBound(metadata: ItemMetadata): boolean {
  return (metadata.keywords?.length ?? 0) <= KEYWORDS_MAX && (metadata.keywordPaths?.length ?? 0) <= KEYWORDS_MAX && jsonbTextBytes(metadata) <= METADATA_MAX_BYTES;
}

/**
 * What undoes an edit for one item, from the item as it was: its fields as they were, the keywords it had
 * added back and those the edit brought removed, its date as it was.
 */
export function undoEdit(before: Pick<Item, 'metadata' | 'takenAt'>, edit: ItemEdit): ItemEdit {
  const m = before.metadata;
  const undo: ItemEdit = {};
  if ('title' in edit) undo.title = m.title ?? null;
  if ('description' in edit) undo.description = m.description ?? null;
  if ('label' in edit) undo.label = m.label ?? null;
  if ('rating' in edit) undo.rating = m.rating ?? null;
  if (edit.keywords) undo.keywords = m.keywords ?? [];
  else if (edit.addKeywords || edit.removeKeywords || edit.addKeywordPaths) {
    const had = new Set(m.keywords ?? []);
    const add = (edit.removeKeywords ?? []).filter((k) => had.has(k));
    const remove = (edit.addKeywords ?? []).filter((k) => !had.has(k));
    if (add.length) undo.addKeywords = add;
    if (remove.length) undo.removeKeywords = remove;
    // Nothing to take back: the keywords were as the edit left them.
    if (!add.length && !remove.length) undo.addKeywords = [];
  }
  // The places in the hierarchy that went with removed keywords come back with them.
  if ((edit.keywords || edit.removeKeywords) && m.keywordPaths?.length) undo.addKeywordPaths = m.keywordPaths;
  // A shift is undone by the opposite shift: one edit for the whole selection, each date back where it was.
  if ('takenAt' in edit) undo.takenAt = before.takenAt;
  else if (edit.shiftTakenAtMs) undo.shiftTakenAtMs = -edit.shiftTakenAtMs;
  return undo;
}
