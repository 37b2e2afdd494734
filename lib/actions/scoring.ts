// The ton-actions fixture's scoring rules (lib/testing/fixtures/ton-actions/README.md): how one
// expected action is found among a classifier's output and compared with it. Inputs are JSON values
// (the classifier's records through toJson; expectations parsed with integers as bigint).

export type Value = string | number | bigint | boolean | null | undefined | Value[] | { [key: string]: Value };

export interface ExpectedAction {
  type: string;
  selector?: string;
  values?: Record<string, Value>;
}

// ---- selectors: `{{ value.a.b == 'x' and value.c != None or value.d|length == 0 }}` ----

type Token = { kind: 'path' | 'str' | 'num' | 'word' | 'op'; text: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  const re = /\s*(?:(==|!=|\(|\))|'([^']*)'|"([^"]*)"|(0x[0-9a-fA-F]+|-?\d+(?:\.\d+)?)|(value(?:\.[A-Za-z_]\w*|\[\d+\])*(?:\|length)?)|([A-Za-z_]\w*))/y;
  let m: RegExpExecArray | null;
  let pos = 0;
  const text = src.trim();
  while (pos < text.length) {
    re.lastIndex = pos;
    m = re.exec(text);
    if (!m) throw new Error(`selector: cannot read at ${pos}: ${text}`);
    pos = re.lastIndex;
    if (m[1]) out.push({ kind: 'op', text: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined) out.push({ kind: 'str', text: m[2] ?? m[3]! });
    else if (m[4]) out.push({ kind: 'num', text: m[4] });
    else if (m[5]) out.push({ kind: 'path', text: m[5] });
    else if (m[6]) out.push({ kind: 'word', text: m[6] });
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  }
  return out;
}

/** A value at a dotted path with [i] indexes (`a.b[0].c`); undefined when absent. */
export function at(root: Value, path: string): Value {
  let cur: Value = root;
  for (const part of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (cur === null || cur === undefined) return undefined;
    if (part.startsWith('[')) cur = Array.isArray(cur) ? cur[Number(part.slice(1, -1))] : undefined;
    else cur = typeof cur === 'object' && !Array.isArray(cur) ? (cur as Record<string, Value>)[part] : undefined;
  }
  return cur;
}

function num(v: Value): number | bigint | null {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return null;
}

function equal(a: Value, b: Value): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  const x = typeof a === 'string' ? null : num(a);
  const y = typeof b === 'string' ? null : num(b);
  if (x !== null && y !== null) return typeof x === 'bigint' && typeof y === 'bigint' ? x === y : Number(x) === Number(y);
  // a number stored as a decimal string beyond 2^53 against an expected integer
  const xs = num(a);
  const ys = num(b);
  if (xs !== null && ys !== null && typeof xs === 'bigint' && typeof ys === 'bigint') return xs === ys;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Evaluates a selector against one action (as JSON). */
export function selectorMatches(selector: string, action: Value): boolean {
  const inner = selector.trim().replace(/^\{\{/, '').replace(/\}\}$/, '');
  const tokens = tokenize(inner);
  let i = 0;
  const operand = (): Value => {
    const t = tokens[i++];
    if (!t) throw new Error(`selector: operand expected: ${selector}`);
    if (t.kind === 'str') return t.text;
    if (t.kind === 'num') return t.text.startsWith('0x') ? BigInt(t.text) : t.text.includes('.') ? Number(t.text) : BigInt(t.text);
    if (t.kind === 'word') {
      if (t.text === 'None') return null;
      if (t.text === 'True') return true;
      if (t.text === 'False') return false;
      throw new Error(`selector: unknown word ${t.text}`);
    }
    if (t.kind === 'path') {
      const length = t.text.endsWith('|length');
      const path = t.text.replace(/\|length$/, '').replace(/^value\.?/, '');
      const v = at(action, path);
      if (!length) return v;
      if (Array.isArray(v) || typeof v === 'string') return BigInt(v.length);
      return null;
    }
    if (t.text === '(') {
      const v = or();
      i++; // ')'
      return v;
    }
    throw new Error(`selector: unexpected ${t.text}`);
  };
  const comparison = (): boolean => {
    const left = operand();
    const t = tokens[i];
    if (t?.kind === 'op' && (t.text === '==' || t.text === '!=')) {
      i++;
      const right = operand();
      return t.text === '==' ? equal(left, right) : !equal(left, right);
    }
    return !!left && !(Array.isArray(left) && left.length === 0);
  };
  const and = (): boolean => {
    let v = comparison();
    while (tokens[i]?.kind === 'word' && tokens[i]!.text === 'and') {
      i++;
      const r = comparison();
      v = v && r;
    }
    return v;
  };
  const or = (): boolean => {
    let v = and();
    while (tokens[i]?.kind === 'word' && tokens[i]!.text === 'or') {
      i++;
      const r = and();
      v = v || r;
    }
    return v;
  };
  return or();
}

/** Does `actual` match `expected` (lists order-free, objects by their expected keys)? */
export function matches(expected: Value, actual: Value): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    return expected.every((e) => actual.some((a) => matches(e, a)));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    return Object.entries(expected).every(([k, e]) => k in actual && matches(e, (actual as Record<string, Value>)[k]));
  }
  return equal(expected, actual);
}

/** Scores one expected action against a trace's actions: null when it passes, else why not. */
export function scoreExpected(expected: ExpectedAction, actions: Value[]): string | null {
  let candidates = actions.filter((a) => String(at(a, 'type')).toLowerCase() === expected.type.toLowerCase());
  if (expected.selector) {
    const first = candidates.find((a) => selectorMatches(expected.selector!, a));
    candidates = first ? [first] : [];
  }
  if (candidates.length !== 1) return `${expected.type}${expected.selector ? ` ${expected.selector}` : ''}: ${candidates.length} actions`;
  const actual = candidates[0]!;
  const wrong: string[] = [];
  for (const [path, e] of Object.entries(expected.values ?? {})) {
    let v = at(actual, path);
    if (v === undefined && !path.includes('.') && !path.includes('[')) v = null;
    if (!matches(e, v)) wrong.push(`${path}: expected ${show(e)}, got ${show(v)}`);
  }
  return wrong.length ? `${expected.type}: ${wrong.join('; ')}` : null;
}

const show = (v: Value) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
