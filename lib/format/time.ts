// Times: absolute in UTC (stable between server and browser) and relative to a given "now".

export function formatUtc(unixSeconds: number | string): string {
  const d = new Date(Number(unixSeconds) * 1000);
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export function formatRelative(unixSeconds: number | string, nowMs: number): string {
  const diff = Math.round(nowMs / 1000 - Number(unixSeconds));
  const abs = Math.abs(diff);
  const suffix = diff >= 0 ? 'ago' : 'from now';
  if (abs < 5) return 'just now';
  if (abs < 60) return `${abs} s ${suffix}`;
  if (abs < 3600) return `${Math.floor(abs / 60)} min ${suffix}`;
  if (abs < 86400) return `${Math.floor(abs / 3600)} h ${suffix}`;
  return `${Math.floor(abs / 86400)} d ${suffix}`;
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
