// In-page layout detectors for e2e/layout.spec.ts: overlapping text, horizontal overflow, focus rings,
// and a collector of console errors and failed requests; the other specs check horizontal overflow with
// noHorizontalScroll. The detectors run inside the page
// (page.evaluate), so their functions must not reference anything outside their own body.
import { expect, type Page, type Request, type Response } from '@playwright/test';
import axe from 'axe-core';

export interface Overlap {
  /** The two texts (shortened) and where they collide, in CSS pixels of the document. */
  a: string;
  b: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Pairs of visible text boxes of different text nodes that intersect by more than `tolerance` px in both
 * axes. Each text node is measured by its line boxes (Range.getClientRects), cut to what its clipping
 * ancestors (overflow other than visible: truncate/ellipsis cells, scroll containers, sr-only) let show.
 */
export async function textOverlaps(page: Page, tolerance = 2): Promise<Overlap[]> {
  return page.evaluate((tol) => {
    type Box = { node: number; text: string; l: number; t: number; r: number; b: number };
    type Clip = { l: number; t: number; r: number; b: number } | null;
    const whole: Clip = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
    const cut = (a: Clip, b: Clip): Clip => {
      if (!a || !b) return null;
      const c = { l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) };
      return c.r - c.l > 0 && c.b - c.t > 0 ? c : null;
    };
    // The area an element's overflow lets its descendants paint into, following the containing-block
    // chain: an absolutely positioned box escapes overflow clips of its non-positioned ancestors, a fixed
    // one escapes all of them.
    const clipCache = new Map<Element, Clip>();
    const clipFor = (el: Element): Clip => {
      const cached = clipCache.get(el);
      if (cached !== undefined) return cached;
      let clip: Clip = whole;
      const own = getComputedStyle(el);
      if (own.overflowX !== 'visible' || own.overflowY !== 'visible' || own.clipPath.startsWith('inset')) {
        const r = el.getBoundingClientRect();
        clip = { l: r.left, t: r.top, r: r.right, b: r.bottom };
      }
      // The nearest ancestor that can clip this element.
      let up = el.parentElement;
      if (own.position === 'fixed') up = null;
      else if (own.position === 'absolute') {
        while (up && getComputedStyle(up).position === 'static') up = up.parentElement;
      }
      const result = up ? cut(clip, clipFor(up)) : clip;
      clipCache.set(el, result);
      return result;
    };

    const boxes: Box[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let index = 0;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? '';
      const parent = n.parentElement;
      if (!text.trim() || !parent) continue;
      if (parent.closest('script, style, noscript, template')) continue;
      if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const clip = clipFor(parent);
      if (!clip) continue;
      index++;
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        const c = cut({ l: r.left, t: r.top, r: r.right, b: r.bottom }, clip);
        // Slivers (an sr-only 1 px box, the edge of a clipped line) hold no readable text.
        if (!c || c.r - c.l < 2 || c.b - c.t < 2) continue;
        boxes.push({ node: index, text: text.trim().replace(/\s+/g, ' ').slice(0, 60), l: c.l + scrollX, t: c.t + scrollY, r: c.r + scrollX, b: c.b + scrollY });
      }
    }
    // Sweep top to bottom: only boxes whose vertical ranges meet are compared.
    boxes.sort((p, q) => p.t - q.t);
    const found: { a: string; b: string; x: number; y: number; width: number; height: number }[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < boxes.length; i++) {
      const p = boxes[i]!;
      for (let j = i + 1; j < boxes.length && boxes[j]!.t < p.b - tol; j++) {
        const q = boxes[j]!;
        if (q.node === p.node) continue;
        const w = Math.min(p.r, q.r) - Math.max(p.l, q.l);
        const h = Math.min(p.b, q.b) - Math.max(p.t, q.t);
        if (w <= tol || h <= tol) continue;
        const key = `${Math.min(p.node, q.node)}:${Math.max(p.node, q.node)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        found.push({ a: p.text, b: q.text, x: Math.round(Math.max(p.l, q.l)), y: Math.round(Math.max(p.t, q.t)), width: Math.round(w), height: Math.round(h) });
      }
    }
    return found;
  }, tolerance);
}

export interface Overflow {
  scrollWidth: number;
  clientWidth: number;
  /** The outermost elements that reach past the right edge of the viewport (not inside a scroll container). */
  culprits: string[];
}

/** The document scrolls sideways (a wide table inside an overflow-x-auto wrapper does not count). */
export async function horizontalOverflow(page: Page): Promise<Overflow | null> {
  return page.evaluate(() => {
    const root = document.documentElement;
    if (root.scrollWidth <= root.clientWidth) return null;
    const describe = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 4).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${id}${cls} "${(el.textContent ?? '').trim().slice(0, 40)}" right=${Math.round(el.getBoundingClientRect().right)}`;
    };
    const culprits: string[] = [];
    const visit = (el: Element) => {
      const style = getComputedStyle(el);
      if (el !== document.body && (style.overflowX === 'auto' || style.overflowX === 'scroll' || style.overflowX === 'hidden' || style.overflowX === 'clip')) return;
      if (el.getBoundingClientRect().right > root.clientWidth + 0.5 && el !== document.body) {
        culprits.push(describe(el));
        return;
      }
      for (const c of el.children) visit(c);
    };
    visit(document.body);
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, culprits: culprits.slice(0, 8) };
  });
}

/** Fails the test when the page scrolls sideways; the message names the elements that stick out. */
export async function noHorizontalScroll(page: Page): Promise<void> {
  expect(await horizontalOverflow(page), `horizontal overflow on ${page.url()}`).toBeNull();
}

/**
 * Every keyboard stop of the page (visible links, buttons, fields, summaries, tabindex ≥ 0), focused in turn
 * after one real Tab press: the returned problems name those that refuse focus or show no focus indicator
 * (no outline, no box-shadow ring). After a keyboard focus, Chromium shows script-moved focus as it shows
 * Tab focus (:focus-visible), so one pass covers every stop without hundreds of key presses.
 */
export async function focusProblems(page: Page): Promise<string[]> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await page.keyboard.press('Tab');
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (el: Element) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    const stops = document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex]');
    for (const el of stops) {
      if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      el.focus({ preventScroll: true });
      if (document.activeElement !== el) {
        problems.push(`${name(el)}: does not take focus`);
        continue;
      }
      const s = getComputedStyle(el);
      const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
      const shadow = s.boxShadow !== 'none' && s.boxShadow !== '';
      if (!el.matches(':focus-visible') || !(outline || shadow)) problems.push(`${name(el)}: no visible focus indicator`);
    }
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    return problems;
  });
}

/**
 * Elements that look clickable (pointer cursor) but are no keyboard stop and lie inside none, and controls
 * taken out of the tab order.
 */
export async function unreachableControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const focusable = 'a[href], button, summary, label, input, select, textarea, [tabindex]:not([tabindex="-1"])';
    const name = (el: Element) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    const out: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (getComputedStyle(el).cursor !== 'pointer' || !el.checkVisibility()) continue;
      // The cursor is inherited: only the outermost element that sets it is reported.
      if (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') continue;
      if (!el.closest(focusable)) out.push(name(el));
    }
    for (const el of document.body.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]), select, textarea, summary')) {
      if (el.tabIndex < 0 && el.checkVisibility()) out.push(`${name(el)}: tabindex ${el.tabIndex}`);
    }
    return out;
  });
}

/**
 * axe's serious and critical findings on the page as it is now (`rules` narrows the run). axe-core is
 * injected once per loaded document and run in place: @axe-core/playwright re-injects it on every check
 * and finishes each run in a fresh page, which made each check 2–4× slower on a 2-core machine.
 */
export async function axeFindings(page: Page, rules?: string[]): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const { violations } = await page.evaluate(
    (only) => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'], ...(only ? { runOnly: { type: 'rule', values: only } } : {}) }),
    rules,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}`).join(' | ')}`);
}

/** Console errors, uncaught exceptions and failed requests of the page while collecting. */
export class PageProblems {
  private items: string[] = [];
  private collecting = false;

  constructor(page: Page) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.add(`console: ${m.text()}${m.location().url ? ` (${m.location().url})` : ''}`);
    });
    page.on('pageerror', (e) => this.add(`uncaught: ${e.message}`));
    page.on('requestfailed', (r: Request) => {
      const error = r.failure()?.errorText ?? '';
      // Next's router cancels its own prefetches of linked pages (RSC requests) as links scroll out of
      // view or the page moves on, and the explorer's queries cancel a read of the API nobody waits for any
      // more (a live update changed what a card asks, e.g. the jettons of an account's newest actions):
      // nothing a reader misses. A server's failure is an HTTP status or another network error, and counts.
      const superseded = r.headers()['rsc'] === '1' || (r.method() === 'GET' && new URL(r.url()).pathname.startsWith('/api/'));
      if (error === 'net::ERR_ABORTED' && superseded) return;
      this.add(`request failed: ${r.method()} ${r.url()} ${error}`);
    });
    page.on('response', (r: Response) => {
      if (r.status() >= 400) this.add(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
    });
  }

  private add(s: string) {
    if (this.collecting) this.items.push(s);
  }

  start() {
    this.items = [];
    this.collecting = true;
  }

  /** Stops collecting and returns what was seen, minus what `expected` accepts. */
  stop(expected: (s: string) => boolean = () => false): string[] {
    this.collecting = false;
    return this.items.filter((s) => !expected(s));
  }
}
