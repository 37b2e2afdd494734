/**
 * "verified by proof" next to a value the server checked against the chain's proofs (LITE_VERIFY=on,
 * X-Atlas-Verified). `checked` says what was checked: the tooltip, and a click (or Enter) away for
 * keyboards and touch screens, as a <details> that works before and without JavaScript.
 */
export function ProofBadge({ checked }: { checked: string }) {
  return (
    <details className="inline-block align-middle" data-testid="proof-badge">
      <summary
        title={checked}
        className="inline-flex cursor-pointer list-none items-center gap-1 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500 dark:bg-emerald-900/50 dark:text-emerald-300 [&::-webkit-details-marker]:hidden"
      >
        <span aria-hidden="true">✓</span> verified by proof
      </summary>
      <p className="mt-1 max-w-prose text-xs text-slate-600 dark:text-slate-400">{checked}</p>
    </details>
  );
}
