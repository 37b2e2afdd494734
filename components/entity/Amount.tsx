import { formatUnits } from '@/lib/format/amount';

/** An exact amount with its symbol; the exact value is also the tooltip when the text is shortened. */
export function Amount({ value, decimals = 9, symbol = 'TON', maxFraction }: { value: string | bigint | null | undefined; decimals?: number; symbol?: string; maxFraction?: number }) {
  if (value === null || value === undefined) return <span className="text-slate-500">—</span>;
  const exact = formatUnits(value, decimals);
  return (
    <span className="whitespace-nowrap font-mono text-sm tabular-nums" title={`${exact} ${symbol}`}>
      {formatUnits(value, decimals, { maxFraction })} <span className="text-slate-600 dark:text-slate-400">{symbol}</span>
    </span>
  );
}
