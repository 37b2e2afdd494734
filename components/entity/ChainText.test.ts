import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ChainText, ChainTextPreview } from './ChainText';

const html = (text: string, max?: number) => renderToStaticMarkup(createElement(ChainText, { text, label: 'This comment', max }));

describe('ChainText', () => {
  it('renders markup as escaped text, never as elements', () => {
    const out = html('<img src=x onerror=alert(1)><script>alert(2)</script>');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(out).not.toMatch(/<img|<script/);
  });

  it('never puts a bidi or zero-width character in the page; markers name them', () => {
    const out = html('photo\u202Egnp.exe \u200B');
    expect(out).not.toMatch(/[\u202E\u200B]/);
    expect(out).toContain('data-hidden-char="U+202E"');
    expect(out).toContain('>RLO</abbr>');
    expect(out).toContain('>ZWSP</abbr>');
    expect(out).toContain('invisible or direction-changing characters');
    expect(out).toMatch(/^<div class="chain-text"><bdi dir="auto"/);
  });

  it('flags text that reads as an address', () => {
    expect(html('EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2')).toContain('This comment written by the sender looks like an address');
    expect(html('lunch')).not.toContain('role="note"');
  });

  it('cuts long text and keeps the rest behind show-more, also inert', () => {
    const out = html(`${'a'.repeat(10)}\u202E<b>`, 5);
    expect(out).toContain('Show 9 more characters');
    // The warning covers the whole text, not only the part shown first.
    expect(out).toContain('invisible or direction-changing characters');
    expect(out).toContain('>RLO</abbr>&lt;b&gt;');
    const preview = renderToStaticMarkup(createElement(ChainTextPreview, { text: 'x\u2066'.repeat(50), max: 4 }));
    expect(preview).not.toContain('\u2066');
    expect(preview.match(/>LRI<\/abbr>/g)).toHaveLength(2);
    expect(preview).toMatch(/…<\/bdi>$/);
  });
});
