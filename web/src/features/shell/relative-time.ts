/*
 * How long ago something happened, in words: 'less than a minute ago', '5 minutes ago',
 * 'about 2 hours ago', '3 days ago', 'about 1 month ago', '2 years ago'.
 */

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

export function timeAgo(value: string | number | Date, now: number = Date.now()): string {
  const at = value instanceof Date ? value.getTime() : new Date(value).getTime();
  if (Number.isNaN(at)) return '';
  // A clock a little ahead of ours must not read as the future.
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'less than a minute ago';
  if (seconds < 45 * MINUTE) return `${plural(Math.max(1, Math.round(seconds / MINUTE)), 'minute')} ago`;
  if (seconds < DAY) return `about ${plural(Math.max(1, Math.round(seconds / HOUR)), 'hour')} ago`;
  if (seconds < MONTH) return `${plural(Math.max(1, Math.round(seconds / DAY)), 'day')} ago`;
  if (seconds < YEAR) {
    const months = Math.max(1, Math.round(seconds / MONTH));
    return months === 1 ? 'about 1 month ago' : `${plural(months, 'month')} ago`;
  }
  return `${plural(Math.max(1, Math.floor(seconds / YEAR)), 'year')} ago`;
}
