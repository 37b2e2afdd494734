// The one list of query parameters the pages read: what the page cache keys renders by, and that it is
// the pages' own list (each page under app/ that takes searchParams types them from its entry).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalPageUrl, PAGE_QUERY, pageParams } from './page-query';

const appDir = path.resolve(__dirname, '../../app');

function pageFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'api' && dir === appDir ? [] : pageFiles(p);
    return d.name === 'page.tsx' ? [p] : [];
  });
}

describe('page query parameters', () => {
  it('drops what a page does not read, keeps what it does, in one spelling', () => {
    expect(canonicalPageUrl('/account/EQabc?cb=1')).toBe('/account/EQabc');
    expect(canonicalPageUrl('/account/EQabc?activity=jettons&cb=2&cursor=x')).toBe('/account/EQabc?activity=jettons&cursor=x');
    expect(canonicalPageUrl('/account/EQabc?cursor=x&activity=jettons')).toBe('/account/EQabc?activity=jettons&cursor=x');
    expect(canonicalPageUrl('/account/%45Qabc')).toBe('/account/EQabc');
    expect(canonicalPageUrl('/account/0%3Aab')).toBe(canonicalPageUrl('/account/0:ab'));
    expect(canonicalPageUrl('/search?q=a&q=b&x=1')).toBe('/search?q=a&q=b');
    expect(canonicalPageUrl('/tx/abc?cursor=1')).toBe('/tx/abc');
    expect(canonicalPageUrl('/?x=1#top')).toBe('/');
    // Next's payload parameter is part of every page's identity.
    expect(canonicalPageUrl('/blocks?_rsc=1a2b&junk=1')).toBe('/blocks?_rsc=1a2b');
    expect(canonicalPageUrl('/account/%ZZ')).toBeNull();
    expect(pageParams('/block/-1/8000000000000000/12')).toContain('cursor');
    expect(pageParams('/emulate')).toEqual(['_rsc']);
  });

  it('is the pages own list: a page under app/ that reads searchParams types them from its route here', () => {
    const used = new Set<string>();
    for (const file of pageFiles(appDir)) {
      const source = fs.readFileSync(file, 'utf8');
      if (!source.includes('searchParams')) continue;
      const route = '/' + path.relative(appDir, path.dirname(file)).split(path.sep).join('/');
      expect(source, `${file} must type its searchParams as PageQuery<'${route}'>`).toContain(`PageQuery<'${route}'`);
      used.add(route);
    }
    expect([...used].sort()).toEqual(Object.keys(PAGE_QUERY).sort());
  });
});
