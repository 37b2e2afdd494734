'use client';

import { useState } from 'react';

/** Copies `value`; says so for screen readers too. Without JavaScript the value stays selectable text. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // clipboard refused (insecure context): the text is still selectable
    }
  };
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={`${label}: ${value}`}
      title={label}
      className="inline-flex size-6 shrink-0 items-center justify-center rounded text-xs text-slate-500 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
    >
      {copied ? (
        <span aria-hidden="true">✓</span>
      ) : (
        // Drawn, not a glyph: system fonts lack most "copy" symbols.
        <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5">
          <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
          <path d="M10.5 3.5v-1a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h1" />
        </svg>
      )}
      <span className="sr-only" aria-live="polite">
        {copied ? 'Copied' : ''}
      </span>
    </button>
  );
}

/** A page title's subtitle: an address in full (mono, wrapping) with its copy button. */
export function CopyableAddress({ shown, label }: { shown: string; label: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1">
      <span className="break-all font-mono text-sm">{shown}</span>
      <CopyButton value={shown} label={label} />
    </span>
  );
}
