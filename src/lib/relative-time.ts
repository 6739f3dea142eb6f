const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const thisYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const otherYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * How long ago, as a feed says it: "just now", "5 min ago", "2 h ago", "yesterday", "3 days ago", then the
 * date ("3 Mar", with the year when it is not this one). A time in the future (another device's clock) is "just now".
 */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const ago = now - t;
  if (ago < 45_000) return 'just now';
  if (ago < HOUR) return `${Math.max(1, Math.round(ago / MINUTE))} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 2 * DAY) return 'yesterday';
  if (ago < 7 * DAY) return `${Math.floor(ago / DAY)} days ago`;
  const d = new Date(t);
  return (d.getFullYear() === new Date(now).getFullYear() ? thisYear : otherYear).format(d);
}
