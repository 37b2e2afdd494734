// The one way to put text written on chain (comments, metadata names, domains) on a page: React escapes
// it, chainText() turns characters that reorder or hide text into visible markers, <bdi> keeps its
// direction from leaking into the page around it, and long text is cut with the rest one click away.
import { chainText, type ChainTextPart } from '@/lib/format/chain-text';

function Parts({ parts }: { parts: ChainTextPart[] }) {
  return parts.map((p, i) =>
    p.kind === 'text' ? (
      p.text
    ) : (
      <abbr
        key={i}
        data-hidden-char={p.code}
        title={`${p.code} ${p.name}: an invisible character in the text`}
        className="mx-px rounded-sm border border-amber-500 bg-amber-100 px-0.5 font-mono text-[0.7em] font-semibold not-italic text-amber-900 no-underline dark:bg-amber-950 dark:text-amber-200"
      >
        {p.short}
      </abbr>
    ),
  );
}

/** Inline and short (a list row, a heading): markers, cut with an ellipsis, no warnings (the detail page has them). */
export function ChainTextPreview({ text, max = 80 }: { text: string; max?: number }) {
  const t = chainText(text, max);
  return (
    <bdi dir="auto" className="chain-text">
      <Parts parts={t.parts} />
      {t.omitted > 0 && '…'}
    </bdi>
  );
}

/** Chain text, inert: `label` names what it is in the address-lookalike and hidden-character warnings. */
export function ChainText({ text, label = 'Text', max }: { text: string; label?: string; max?: number }) {
  const t = chainText(text, max);
  const rest = t.omitted ? chainText(Array.from(text).slice(-t.omitted).join(''), t.omitted) : undefined;
  return (
    <div className="chain-text">
      <bdi dir="auto" className="whitespace-pre-wrap break-words">
        <Parts parts={t.parts} />
      </bdi>
      {rest && (
        <details className="mt-1 text-sm">
          <summary className="cursor-pointer text-brand-600 dark:text-brand-500">Show {t.omitted.toLocaleString('en-US')} more characters</summary>
          <bdi dir="auto" className="whitespace-pre-wrap break-words">
            <Parts parts={rest.parts} />
          </bdi>
        </details>
      )}
      {(t.suspicious || t.looksLikeAddress) && (
        <p role="note" className="mt-1 text-xs text-amber-800 dark:text-amber-300">
          {t.looksLikeAddress
            ? `${label} written by the sender looks like an address; it is not one Atlas checked. Compare with the From/To fields.`
            : `${label} contains invisible or direction-changing characters, shown as marked boxes.`}
        </p>
      )}
    </div>
  );
}
