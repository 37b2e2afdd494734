import qrcode from 'qrcode-generator';

const MARGIN = 2;
// Paths by value: the same account's page is rendered again and again, and building a QR code (masks and
// their penalty scores) is milliseconds of every render. Bounded; the oldest value goes first.
const PATHS_KEPT = 512;
const paths = new Map<string, { d: string; total: number }>();

/** The dark modules of `value`'s QR code as one SVG path, each row's runs of dark modules one rectangle. */
export function qrPath(value: string): { d: string; total: number } {
  const known = paths.get(value);
  if (known) return known;
  const qr = qrcode(0, 'M');
  qr.addData(value);
  qr.make();
  const n = qr.getModuleCount();
  let d = '';
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; ) {
      if (!qr.isDark(r, c)) {
        c++;
        continue;
      }
      let run = 1;
      while (c + run < n && qr.isDark(r, c + run)) run++;
      d += `M${c + MARGIN} ${r + MARGIN}h${run}v1h-${run}z`;
      c += run;
    }
  }
  const out = { d, total: n + MARGIN * 2 };
  if (paths.size >= PATHS_KEPT) paths.delete(paths.keys().next().value!);
  paths.set(value, out);
  return out;
}

/** A QR code drawn as one SVG path (rendered on the server; no image request, works without JavaScript). */
export function QrCode({ value, label, size = 176 }: { value: string; label: string; size?: number }) {
  const { d, total } = qrPath(value);
  return (
    <svg role="img" aria-label={label} width={size} height={size} viewBox={`0 0 ${total} ${total}`} shapeRendering="crispEdges" className="rounded bg-white">
      <rect width={total} height={total} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
