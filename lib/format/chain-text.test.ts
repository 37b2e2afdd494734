import { describe, expect, it } from 'vitest';
import { chainText, chainTextPlain, looksLikeAddress, safeExternalUrl } from './chain-text';

const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';

describe('chain text', () => {
  it('keeps markup as literal text', () => {
    const t = chainText('<img src=x onerror=alert(1)><script>alert(2)</script>');
    expect(t.parts).toEqual([{ kind: 'text', text: '<img src=x onerror=alert(1)><script>alert(2)</script>' }]);
    expect(t.suspicious).toBe(false);
  });

  it('turns a right-to-left override into a visible marker, so `gnp.exe` cannot read as `exe.png`', () => {
    const t = chainText('photo\u202Egnp.exe');
    expect(t.parts).toEqual([
      { kind: 'text', text: 'photo' },
      { kind: 'hidden', code: 'U+202E', short: 'RLO', name: 'right-to-left override' },
      { kind: 'text', text: 'gnp.exe' },
    ]);
    expect(t.suspicious).toBe(true);
    expect(chainTextPlain('photo\u202Egnp.exe')).toBe('photo[RLO]gnp.exe');
  });

  it('marks every bidi control and zero-width character', () => {
    const bidi = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F';
    const invisible = '\u200B\u200C\u200D\u2060\uFEFF\u00AD';
    expect(chainTextPlain(bidi)).toBe('[LRE][RLE][PDF][LRO][RLO][LRI][RLI][FSI][PDI][LRM][RLM]');
    expect(chainTextPlain(invisible)).toBe('[ZWSP][ZWNJ][ZWJ][WJ][BOM][SHY]');
  });

  it('marks control codes and tag characters by code point but keeps tabs, newlines, emoji and RTL letters', () => {
    expect(chainTextPlain('a\u0000b\u001bc\u0085d')).toBe('a[U+0000]b[U+001B]c[U+0085]d');
    expect(chainTextPlain('x\u{E0041}y')).toBe('x[U+E0041]y');
    expect(chainTextPlain('line 1\n\tline 2 👩‍💻 שלום')).toBe('line 1\n\tline 2 👩[ZWJ]💻 שלום');
    expect(chainTextPlain('lone \uD800 surrogate')).toBe('lone [U+D800] surrogate');
  });

  it('cuts long text at whole characters and counts what is left out', () => {
    const t = chainText('🙂'.repeat(10), 4);
    expect(t.parts).toEqual([{ kind: 'text', text: '🙂'.repeat(4) }]);
    expect(t.omitted).toBe(6);
    expect(chainTextPlain('abcdef', 3)).toBe('abc…');
    expect(chainText('short').omitted).toBe(0);
    expect(chainText('abcdef\u202E', 3).suspicious).toBe(true);
  });

  it('notices text that reads as an address, even with zero-width characters inside', () => {
    expect(looksLikeAddress(ADDRESS)).toBe(true);
    expect(looksLikeAddress(`${ADDRESS.slice(0, 10)}\u200B${ADDRESS.slice(10)}`)).toBe(true);
    expect(looksLikeAddress(`send to ${ADDRESS} please`)).toBe(true);
    expect(looksLikeAddress(`0:${'ab'.repeat(32)}`)).toBe(true);
    expect(looksLikeAddress('thanks for lunch')).toBe(false);
    expect(chainText(`pay ${ADDRESS}`).looksLikeAddress).toBe(true);
  });
});

describe('links from chain data', () => {
  it('allow only absolute http(s) URLs', () => {
    expect(safeExternalUrl('https://example.org/a?b=1')).toBe('https://example.org/a?b=1');
    expect(safeExternalUrl('http://example.org')).toBe('http://example.org/');
    expect(safeExternalUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeExternalUrl(' JavaScript:alert(1)')).toBeUndefined();
    expect(safeExternalUrl('java\tscript:alert(1)')).toBeUndefined();
    expect(safeExternalUrl('data:text/html,<script>alert(1)</script>')).toBeUndefined();
    expect(safeExternalUrl('//evil.example/x')).toBeUndefined();
    expect(safeExternalUrl('/relative')).toBeUndefined();
    expect(safeExternalUrl('https://exa\u202Eelpm.org')).toBeUndefined();
  });
});
