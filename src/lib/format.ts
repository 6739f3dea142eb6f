const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB" (binary multiples, the way file managers show sizes). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = u === 0 || v >= 100 ? 0 : v >= 10 ? 1 : 1;
  return `${v.toFixed(digits).replace(/\.0$/, '')} ${UNITS[u]}`;
}

export function formatSpeed(bytesPerSecond: number): string {
  return bytesPerSecond > 0 ? `${formatBytes(bytesPerSecond)}/s` : '—';
}

/** Seconds left as "about 3 min", "12 s", "1 h 5 min". */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  // Every byte sent, the files still being finished (their rows written, the album told): not "0 s left".
  if (seconds <= 0) return 'finishing';
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `${s} s left`;
  const m = Math.round(s / 60);
  if (m < 60) return `about ${m} min left`;
  return `about ${Math.floor(m / 60)} h ${m % 60} min left`;
}

/**
 * Speed and time left while something moves: only "finishing" once every byte is sent (its speed is nought then),
 * and "estimating time left" before there is a rate to go by (the first seconds, or nothing moving for a while).
 */
export function formatTransfer(speedBps: number, etaSeconds: number | null): string {
  if (etaSeconds !== null && etaSeconds <= 0) return formatEta(0);
  if (!(speedBps > 0) && etaSeconds === null) return 'estimating time left';
  const eta = formatEta(etaSeconds);
  return eta ? `${formatSpeed(speedBps)} · ${eta}` : formatSpeed(speedBps);
}

/** Milliseconds of media as m:ss or h:mm:ss. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '';
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export function formatDateTime(iso: string | null): string {
  if (!iso) return 'Unknown date';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'Unknown date';
  return dateTimeFormat.format(d);
}

/**
 * An item's date taken as the clock read it where it was taken, with that clock's offset ("14 Jul 2023, 18:30
 * (UTC+2)"), when its file said (`metadata.takenOffset`: [Note: A capture time's offset] in
 * media/photo-metadata.ts); otherwise in this device's time zone.
 */
export function formatTaken(takenAt: string | null, offset: number | undefined): string {
  const t = takenAt ? Date.parse(takenAt) : Number.NaN;
  if (offset === undefined || Number.isNaN(t)) return formatDateTime(takenAt);
  return `${utcDateTimeFormat.format(new Date(t + offset * 60_000))} (${formatUtcOffset(offset)})`;
}

/** 120 → "UTC+2", −300 → "UTC−5", 345 → "UTC+5:45", 0 → "UTC". */
export function formatUtcOffset(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const a = Math.abs(minutes);
  return `UTC${minutes < 0 ? '−' : '+'}${Math.floor(a / 60)}${a % 60 ? `:${String(a % 60).padStart(2, '0')}` : ''}`;
}

const monthNames = new Map<string, string>();

/** "2024-05" → "May 2024"; "unknown" → "No date". Cached: the grid asks for every header it draws. */
export function formatMonth(month: string): string {
  if (month === 'unknown') return 'No date';
  let name = monthNames.get(month);
  if (name === undefined) {
    const [y, m] = month.split('-').map(Number);
    name = !y || !m ? month : new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
    monthNames.set(month, name);
  }
  return name;
}

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayNames = new Map<number, string>();

/** A day, as days since 1970-01-01 (UTC) → "Sat, 29 Nov 2025" in the user's locale. Cached, as months are. */
export function formatDay(day: number): string {
  let name = dayNames.get(day);
  if (name === undefined) {
    name = dayFormat.format(new Date(day * 86_400_000));
    dayNames.set(day, name);
  }
  return name;
}

// Formatters are costly to make and cheap to reuse: the grid formats numbers on every frame it draws.
const numberFormat = new Intl.NumberFormat();
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const utcDateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

/** 12345 → "12,345" in the user's locale. */
export function formatNumber(n: number): string {
  return numberFormat.format(n);
}

export function formatCount(n: number, one: string, many: string): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

/**
 * Filenames are shown as given, but never trusted: control characters and bidi overrides (which can make
 * "gpj.exe" read as "exe.jpg") are replaced with a visible placeholder.
 */
export function safeFilename(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '\ufffd');
}
