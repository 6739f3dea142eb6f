/**
 * The rules of a new share link (PRODUCT.md §5 and §9), shared by the settings form (instant messages) and the
 * Supabase adapter (nothing invalid is sent); the share-links function and the database are the authority.
 */
import type { ShareLinkInput } from '../domain/entities';
import { AppError } from './app-error';
import type { FieldIssue } from './error-messages';
import { BLANK_ONLY, INVISIBLE_FORMAT, LINE_BREAKING } from './validation';

export const SHARE_PASSWORD_MIN = 8;
export const SHARE_PASSWORD_MAX = 128;
export const SHARE_LABEL_MAX = 120;
/** As the columns' checks say (supabase/migrations/20261125090000_share_and_location_settings.sql). */
export const GUEST_MAX_FILES = 10_000;
export const GUEST_MAX_BYTES = 10 * 1024 ** 4;
const INT_MAX = 2_147_483_647;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;
/**
 * The server measures "one hour to one year from now" by its own clock, a moment after the form: an hour is
 * sent with a minute to spare and a year a minute short, so neither edge is refused for the trip's time.
 */
const SLACK = 60_000;

export type ExpiryChoice = '1h' | '1d' | '7d' | '30d' | '90d' | '1y' | 'never';

export const EXPIRY_CHOICES: { id: ExpiryChoice; name: string; ms: number | null }[] = [
  { id: '1h', name: '1 hour', ms: HOUR },
  { id: '1d', name: '1 day', ms: DAY },
  { id: '7d', name: '7 days', ms: 7 * DAY },
  { id: '30d', name: '30 days', ms: 30 * DAY },
  { id: '90d', name: '90 days', ms: 90 * DAY },
  { id: '1y', name: '1 year', ms: YEAR },
  { id: 'never', name: 'Never', ms: null },
];

/** A link lasts 30 days unless another expiry is chosen; "never" only when chosen. */
export const DEFAULT_EXPIRY: ExpiryChoice = '30d';

/** When a link made now with `choice` stops working (null: never). */
export function expiryFor(choice: ExpiryChoice, now = Date.now()): string | null {
  const ms = EXPIRY_CHOICES.find((c) => c.id === choice)?.ms;
  if (ms === undefined) throw new AppError('validation/invalid', 'Unknown expiry.', { details: { field: 'expiresAt', rule: 'out-of-range' } });
  if (ms === null) return null;
  const kept = ms === HOUR ? ms + SLACK : ms === YEAR ? ms - SLACK : ms;
  return new Date(now + kept).toISOString();
}

/** Binary multiples, as sizes are shown everywhere else (src/lib/format.ts). */
export const SIZE_UNITS = { MB: 1024 ** 2, GB: 1024 ** 3 } as const;
export type SizeUnit = keyof typeof SIZE_UNITS;

/** A length in code points, as Postgres' `char_length` counts. */
function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

// eslint-disable-next-line no-control-regex
const LINE_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

function wholeIn(value: number | null | undefined, min: number, max: number): boolean {
  return value === null || value === undefined || (Number.isInteger(value) && value >= min && value <= max);
}

/** Every rule `input` breaks, in the order of the form's fields; [] when it may be sent. */
export function shareLinkIssues(input: ShareLinkInput, now = Date.now()): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const label = (input.label ?? '').trim();
  if (codePoints(label) > SHARE_LABEL_MAX) issues.push({ field: 'label', rule: 'too-long', limit: SHARE_LABEL_MAX });
  else if (LINE_CONTROL.test(label) || LINE_BREAKING.test(label)) issues.push({ field: 'label', rule: 'control' });
  else if (INVISIBLE_FORMAT.test(label) || BLANK_ONLY.test(label)) issues.push({ field: 'label', rule: 'invisible' });
  if (input.password !== undefined) {
    const n = codePoints(input.password);
    if (n < SHARE_PASSWORD_MIN) issues.push({ field: 'password', rule: 'too-short', limit: SHARE_PASSWORD_MIN });
    else if (n > SHARE_PASSWORD_MAX) issues.push({ field: 'password', rule: 'too-long', limit: SHARE_PASSWORD_MAX });
  }
  if (typeof input.expiresAt === 'string') {
    const at = Date.parse(input.expiresAt);
    if (Number.isNaN(at) || at < now + HOUR || at > now + YEAR) issues.push({ field: 'expiresAt', rule: 'out-of-range' });
  }
  if (!wholeIn(input.maxViews, 1, INT_MAX)) issues.push({ field: 'maxViews', rule: 'out-of-range' });
  if (!wholeIn(input.guestMaxFiles, 1, GUEST_MAX_FILES)) issues.push({ field: 'guestMaxFiles', rule: 'out-of-range', limit: GUEST_MAX_FILES });
  if (!wholeIn(input.guestMaxBytes, 1, GUEST_MAX_BYTES)) issues.push({ field: 'guestMaxBytes', rule: 'out-of-range' });
  return issues;
}

/** The input as it is sent: the label trimmed (empty is none); `validation/invalid` naming the first broken rule. */
export function checkShareLinkInput(input: ShareLinkInput, now = Date.now()): ShareLinkInput {
  // The expiry was computed a moment ago from the form's choice: judged with the same minute of slack.
  const [issue] = shareLinkIssues(input, now - SLACK);
  if (issue) throw new AppError('validation/invalid', `The share link's ${issue.field} breaks the rule ${issue.rule}.`, { details: { ...issue } });
  const label = (input.label ?? '').trim();
  return { ...input, label: label === '' ? null : label };
}
