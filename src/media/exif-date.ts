import { TAKEN_OFFSET_MAX_MINUTES } from '../lib/item-metadata';

/**
 * An EXIF date (`YYYY:MM:DD HH:MM:SS`, optionally with sub-seconds and an `±HH:MM` offset) or an XMP date
 * (ISO 8601) as an ISO 8601 instant in UTC with the offset that made it, or null when it is missing or not a
 * real date.
 *
 * A date without an offset is a wall-clock reading in an unknown zone. It is kept as if it were UTC, so the
 * photo files under the day and month its camera showed, on every device, rather than shifting with the
 * viewer's time zone.
 */
export interface TakenTime {
  /** ISO 8601, UTC (a wall clock kept as if it were UTC when the offset is unknown). */
  at: string;
  /** Minutes east of UTC (+02:00 → 120); null when the file gives no offset. */
  offsetMinutes: number | null;
}

export function exifDateTaken(value: unknown, offset?: unknown, subSeconds?: unknown): TakenTime | null {
  if (typeof value !== 'string') return null;
  const m = /^\s*(\d{4})[:-](\d{2})[:-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', inlineFraction, inlineZone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  // Cameras with an unset clock write 0000:00:00 00:00:00.
  if (year < 1800 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;

  const fraction = inlineFraction ?? (typeof subSeconds === 'string' || typeof subSeconds === 'number' ? String(subSeconds).trim() : '');
  const ms = /^\d+$/.test(fraction) ? Math.round(Number(`0.${fraction}`) * 1000) : 0;
  const wallClock = Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s), Math.min(ms, 999));
  const check = new Date(wallClock);
  if (check.getUTCDate() !== day) return null; // 31 February and friends

  const zone = inlineZone ?? (typeof offset === 'string' ? offset.trim() : undefined);
  const offsetMinutes = zoneMinutes(zone);
  return { at: new Date(wallClock - (offsetMinutes ?? 0) * 60_000).toISOString(), offsetMinutes };
}

/**
 * An offset written out (`+02:00`, `-0500`, `+00:00`) in minutes. A bare `Z` is the instant in UTC, not a clock's
 * offset: tools write it for dates whose zone they never knew (so does Shoebox's own sidecar, for such a date).
 */
function zoneMinutes(zone: string | undefined): number | null {
  if (!zone || zone === 'Z') return null;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m || Number(m[3]) > 59) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (minutes > TAKEN_OFFSET_MAX_MINUTES) return null;
  return m[1] === '-' ? -minutes : minutes;
}
