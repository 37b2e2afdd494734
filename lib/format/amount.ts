// Exact amounts: nano-units as bigint, printed with the asset's decimals; never a float.

/** `1234567890` nano, 9 decimals → `1.23456789`; grouping with thin spaces keeps long balances readable. */
export function formatUnits(value: bigint | string, decimals = 9, opts: { group?: boolean; maxFraction?: number } = {}): string {
  const v = typeof value === 'bigint' ? value : BigInt(value);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  let frac = decimals ? (abs % base).toString().padStart(decimals, '0') : '';
  let approx = false;
  if (opts.maxFraction !== undefined && frac.length > opts.maxFraction) {
    approx = /[1-9]/.test(frac.slice(opts.maxFraction));
    frac = frac.slice(0, opts.maxFraction);
  }
  frac = frac.replace(/0+$/, '');
  const wholeText = opts.group === false ? whole.toString() : whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${approx ? '≈' : ''}${neg ? '−' : ''}${wholeText}${frac ? `.${frac}` : ''}`;
}

export const formatTon = (nano: bigint | string, opts?: { maxFraction?: number }) => `${formatUnits(nano, 9, opts)} TON`;

/** Sum of decimal strings (fees), exact. */
export const sumNano = (...parts: (string | undefined | null)[]): bigint => parts.reduce<bigint>((s, p) => s + (p ? BigInt(p) : 0n), 0n);
