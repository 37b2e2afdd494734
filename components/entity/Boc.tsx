/** A bag of cells, viewable and downloadable with one click (a data: URL, so no JavaScript is needed). */
export function BocView({ boc, name, label = 'Raw BoC' }: { boc: string; name: string; label?: string }) {
  return (
    <details className="group min-w-0">
      <summary className="cursor-pointer text-sm text-brand-600 hover:underline dark:text-brand-500">{label}</summary>
      <div className="mt-2 space-y-2">
        <pre className="max-h-48 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-100 p-2 font-mono text-xs dark:bg-slate-950">{boc}</pre>
        <BocDownload boc={boc} name={name} />
      </div>
    </details>
  );
}

export function BocDownload({ boc, name, label = 'Download .boc' }: { boc: string; name: string; label?: string }) {
  return (
    <a href={`data:application/octet-stream;base64,${boc}`} download={name} className="text-sm text-brand-600 underline dark:text-brand-500">
      {label}
    </a>
  );
}
