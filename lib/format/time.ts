// Times: absolute in UTC (stable between server and browser) and relative to a given "now".

export function formatUtc(unixSeconds: number | string): string {
  const d = new Date(Number(unixSeconds) * 1000);
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

/**
 * How far ahead of the browser's clock a time may be and still read "just now": the server's and the
 * browser's clocks disagree by a few seconds, so a block sealed "now" may look a moment ahead. Anything
 * further ahead is a real future time (a DNS expiry, an order's expiration) and reads "in 11 months".
 */
export const CLOCK_SKEW_S = 30;

const DAY = 86_400;
/** Calendar units by their mean length: a month is a twelfth of a year of 365.25 days. */
const MONTH = (365.25 * DAY) / 12;
const YEAR = 365.25 * DAY;

/** "30 s", "2 h", "3 d", "11 months", "2 years": the largest unit the span fills at least once. */
function span(abs: number): string {
  if (abs < 60) return `${abs} s`;
  if (abs < 3600) return `${Math.floor(abs / 60)} min`;
  if (abs < DAY) return `${Math.floor(abs / 3600)} h`;
  if (abs < MONTH) return `${Math.floor(abs / DAY)} d`;
  const [n, unit] = abs < YEAR ? [Math.floor(abs / MONTH), 'month'] : [Math.floor(abs / YEAR), 'year'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** A time relative to `nowMs`: "2 h ago", "in 11 months", "just now" (within 5 s, or ahead by no more than clock skew). */
export function formatRelative(unixSeconds: number | string, nowMs: number): string {
  const diff = Math.round(nowMs / 1000 - Number(unixSeconds));
  if (diff > -5 && diff < 5) return 'just now';
  if (diff < 0 && -diff <= CLOCK_SKEW_S) return 'just now';
  return diff > 0 ? `${span(diff)} ago` : `in ${span(-diff)}`;
}

/** A length of time in the largest unit it is a whole number of: "30 days", "36 hours", "90 s". */
export function formatDuration(seconds: number): string {
  const units: [number, string, string][] = [
    [86_400, 'day', 'days'],
    [3_600, 'hour', 'hours'],
    [60, 'min', 'min'],
  ];
  for (const [size, one, many] of units) {
    if (seconds !== 0 && seconds % size === 0) return `${(seconds / size).toLocaleString('en-US')} ${seconds === size ? one : many}`;
  }
  return `${seconds.toLocaleString('en-US')} s`;
}
