// The QR code's path paints exactly the dark modules of the code for the value (runs merged into
// rectangles), inside the quiet zone, and a repeated value gets the same drawing.
import qrcode from 'qrcode-generator';
import { describe, expect, it } from 'vitest';
import { qrPath } from './QrCode';

/** The modules a path of `M x y h w v1 h-w z` rectangles paints, as "x,y" keys. */
function painted(d: string): Set<string> {
  const out = new Set<string>();
  for (const m of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) for (let i = 0; i < Number(m[3]); i++) out.add(`${Number(m[1]) + i},${m[2]}`);
  return out;
}

describe('qrPath', () => {
  it('paints the dark modules of ton://transfer links and nothing else', () => {
    for (const value of ['ton://transfer/EQCM8ky0DIaJsXlz7dCoDdf2_FV2rdZ0x6VKzhKSN0cmR36w', 'ton://transfer/UQD__________________________________________0vo']) {
      const qr = qrcode(0, 'M');
      qr.addData(value);
      qr.make();
      const n = qr.getModuleCount();
      const want = new Set<string>();
      for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) want.add(`${c + 2},${r + 2}`);
      const { d, total } = qrPath(value);
      expect(total).toBe(n + 4);
      expect(painted(d)).toEqual(want);
      expect(qrPath(value)).toBe(qrPath(value));
    }
  });
});
