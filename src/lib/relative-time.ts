const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const words = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const thisYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const otherYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * How long ago, in every list that says so (the activity feed, comments, devices, links): "just now",
 * "5 minutes ago", "2 hours ago", "yesterday", "3 days ago", then the date ("3 Mar", with the year when it is
 * not this one). A time in the future (another device's clock) is "just now".
 */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const ago = now - t;
  if (ago < 45_000) return 'just now';
  if (ago < HOUR) return words.format(-Math.max(1, Math.round(ago / MINUTE)), 'minute');
  if (ago < DAY) return words.format(-Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return words.format(-Math.max(1, Math.floor(ago / DAY)), 'day');
  const d = new Date(t);
  return (d.getFullYear() === new Date(now).getFullYear() ? thisYear : otherYear).format(d);
}
