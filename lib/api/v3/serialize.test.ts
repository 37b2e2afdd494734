// Kept objects (renderedOnce) serialize to the bytes the objects themselves serialize to, wherever they sit
// in an answer and whoever serializes them; a string that looks like a placeholder stays a string.
import { describe, expect, it } from 'vitest';
import { goJson, goJsonBytes, renderedOnce } from './serialize';

/** goJson as it was before kept objects: JSON.stringify, then Go's escapes. */
const plainGoJson = (v: unknown) => JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const message = () => ({ hash: 'aGFzaA==', source: '0:AB', value: '100', decoded: { '@type': 'text_comment', comment: 'a <b> & c\u2028' }, bounced: null });

describe('goJson with kept objects', () => {
  it('answers the same bytes as the plain objects: kept at any depth, nested in each other, met twice in one answer', () => {
    const shared = renderedOnce(message());
    const outer = renderedOnce({ in_msg: shared, out_msgs: [renderedOnce(message()), message()], description: { aborted: false } });
    const answer = { transactions: [outer, { in_msg: shared, out_msgs: [] }], address_book: { '0:AB': { user_friendly: 'EQ<&>' } } };
    const plain = JSON.parse(JSON.stringify(answer));
    for (let ask = 0; ask < 3; ask++) expect(goJson(answer)).toBe(plainGoJson(plain));
    expect(JSON.parse(goJson(answer))).toEqual(plain);
  });

  it('writes the same UTF-8 bytes as encoding the plain answer, multi-byte characters in kept objects and around them', () => {
    const kept = renderedOnce({ comment: 'ünïcødé 😀 <x>', value: '1' });
    const answer = { before: 'ß—€', kept, list: [kept, renderedOnce({ name: '名前\u2029' }), 'tail 🚀 &'], after: '' };
    const plain = JSON.parse(JSON.stringify(answer));
    for (let ask = 0; ask < 2; ask++) expect(goJsonBytes(answer).equals(Buffer.from(plainGoJson(plain)))).toBe(true);
    expect(goJsonBytes({ only: 'plain ü' }).equals(Buffer.from(plainGoJson({ only: 'plain ü' })))).toBe(true);
    expect(goJsonBytes(renderedOnce({ alone: 'ü' })).equals(Buffer.from(plainGoJson({ alone: 'ü' })))).toBe(true);
  });

  it('gives other serializers the plain object (no placeholder leaks out of goJson)', () => {
    const kept = renderedOnce(message());
    goJson({ kept });
    expect(JSON.stringify({ kept })).toBe(JSON.stringify({ kept: message() }));
    expect(Object.keys(kept)).toEqual(Object.keys(message()));
  });

  it('freezes a kept object: its bytes are reused, so it cannot change under them', () => {
    const kept = renderedOnce(message());
    expect(goJson(kept)).toBe(plainGoJson(message()));
    expect(() => {
      (kept as { value: string }).value = '1';
    }).toThrow(TypeError);
    expect(goJson(kept)).toBe(plainGoJson(message()));
  });

  it('escapes each of Go’s five characters when it is the only one in the answer, with kept objects around it or not', () => {
    for (const c of ['<', '>', '&', '\u2028', '\u2029']) {
      const plain = { comment: `a${c}b`, list: [{ x: 1 }, { y: `${c}${c}` }] };
      expect(goJson(plain)).toBe(plainGoJson(plain));
      expect(goJson({ ...plain, list: [renderedOnce({ x: 1 }), renderedOnce({ y: `${c}${c}` })] })).toBe(plainGoJson(plain));
    }
  });

  it('puts each of many kept objects in its own place (slot numbers of several digits)', () => {
    const items = Array.from({ length: 123 }, (_, i) => ({ i, name: `item ${i} <${i}>` }));
    const answer = { items: items.map((x, i) => (i % 3 ? renderedOnce({ ...x }) : x)), tail: 'end' };
    expect(goJson(answer)).toBe(plainGoJson({ items, tail: 'end' }));
  });

  it('keeps strings stored on the chain that imitate a placeholder as strings', () => {
    const hostile = { a: '\u00000', b: '\u0000AAAAAAAAAAAAAAAA0', c: '"\\u00000"' };
    expect(goJson({ kept: renderedOnce({ x: 1 }), hostile })).toBe(plainGoJson({ kept: { x: 1 }, hostile }));
  });
});
