/**
 * Generates lib/lite/tl/lite-tl.gen.ts from lib/lite/tl/schema/lite_api.tl.
 *
 *   npx tsx lib/lite/tl/scripts/gen-lite-tl.ts           # rewrite the generated file
 *   npx tsx lib/lite/tl/scripts/gen-lite-tl.ts --check   # exit 1 if it is out of date
 *
 * Parsing uses ton-tl's own TL grammar (ton-tl/dist/gen `parseSchema`, the front end of the
 * generator that produced ton-lite-client's schema). The emitter is our own, because ton-tl's
 * `generate` (1.0.1) has wire-level bugs that matter for a server answering arbitrary clients:
 *  - `flag.N?true` fields are written/read as a 4-byte Bool (TL: they occupy no bytes), which
 *    breaks listBlockTransactions(Ext) with reverse_order / want_proof and getBlockOutMsgQueueSize;
 *  - explicit ids (`liteServer.transactionId#b12f65af`, `liteServer.getValidatorStats#091a58bc`)
 *    are ignored and the CRC is taken over the text including `#id`;
 *  - a conditional field that is missing while its flag bit is set is silently skipped.
 * The emitted code keeps ton-tl's conventions (kind strings, camelCase fields, `.` -> `_` names,
 * TLLong = decimal string, int256/bytes = Buffer) so objects are interchangeable with
 * ton-lite-client's `schema` types, and its `Functions` are valid ton-tl `TLFunction`s.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as tlGen from 'ton-tl/dist/gen';
import type { Argument, CombinatorDeclaration, Expression } from 'ton-tl/dist/parser/ast';

const BUILT_IN = new Set(['int', 'long', 'double', 'string', 'object', 'function', 'bytes', 'true', 'boolTrue', 'boolFalse', 'vector', 'int128', 'int256']);

type FieldType =
  | { t: 'nat' }
  | { t: 'int' }
  | { t: 'long' }
  | { t: 'int256' }
  | { t: 'bytes' }
  | { t: 'string' }
  | { t: 'Bool' }
  | { t: 'true' }
  | { t: 'bare'; name: string }
  | { t: 'boxed'; name: string }
  | { t: 'vector'; of: FieldType };

interface Field {
  tl: string;
  name: string;
  type: FieldType;
  cond: { flag: string; bit: number } | null;
}

interface Combinator {
  name: string; // TL name, e.g. liteServer.getTime
  ident: string; // TS name, e.g. liteServer_getTime
  id: number; // uint32 constructor id
  decl: string; // normalized declaration
  fields: Field[];
  result: string; // TL result type name, e.g. liteServer.CurrentTime (or Object)
  isFunction: boolean;
}

// ---- helpers --------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(text: string): number {
  const bytes = Buffer.from(text, 'utf-8');
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The text TON hashes for a constructor id: no `#id`, no parentheses, single spaces, no `;`. */
export function normalizeDeclaration(src: string): string {
  return src
    .replace(/\/\/.*$/gm, '')
    .replace(/;\s*$/, '')
    .replace(/^(\S+?)#[0-9a-fA-F]{1,8}(?=\s|$)/, '$1')
    .replace(/[()]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const tsIdent = (tlName: string) => tlName.replace(/\./g, '_');
const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const hex = (id: number) => '0x' + id.toString(16).padStart(8, '0');
const isBoxedName = (name: string) => /^[A-Z]/.test(name.split('.').pop() ?? '');

function unwrap(e: Expression): Expression {
  while (e.type === 'EExpression' && e.subexpressions.length === 1) e = e.subexpressions[0];
  return e;
}

function fieldType(e0: Expression, where: string): FieldType {
  const e = unwrap(e0);
  if (e.type === 'ETypeIdentifier') {
    const n = e.id.name;
    switch (n) {
      case '#':
        return { t: 'nat' };
      case 'int':
        return { t: 'int' };
      case 'long':
        return { t: 'long' };
      case 'int256':
        return { t: 'int256' };
      case 'bytes':
        return { t: 'bytes' };
      case 'string':
        return { t: 'string' };
      case 'Bool':
        return { t: 'Bool' };
      case 'true':
        return { t: 'true' };
    }
    if (n === 'int128' || n === 'double') throw new Error(`${where}: type ${n} is not supported`);
    return isBoxedName(n) ? { t: 'boxed', name: n } : { t: 'bare', name: n };
  }
  if (e.type === 'EExpression' && e.subexpressions.length === 2) {
    const head = unwrap(e.subexpressions[0]);
    if (head.type === 'ETypeIdentifier' && (head.id.name === 'vector' || head.id.name === 'Vector')) {
      return { t: 'vector', of: fieldType(e.subexpressions[1], where) };
    }
  }
  throw new Error(`${where}: unsupported type expression ${JSON.stringify(e)}`);
}

function toCombinator(d: CombinatorDeclaration, src: string, isFunction: boolean): Combinator {
  const name = d.id.name;
  const decl = normalizeDeclaration(src.slice(d.start.offset, d.end.offset));
  const magic = 'magic' in d.id ? (d.id as { magic?: string | null }).magic : null;
  const id = magic ? parseInt(magic, 16) >>> 0 : crc32(decl);
  const fields: Field[] = d.args.map((a: Argument) => {
    if (a.id.type !== 'VariableIdentifier') throw new Error(`${name}: anonymous fields are not supported`);
    const type = fieldType(a.argType.expression, `${name}.${a.id.name}`);
    let cond: Field['cond'] = null;
    if (a.conditionalDef) {
      if (a.conditionalDef.nat === null) throw new Error(`${name}.${a.id.name}: condition without a bit`);
      cond = { flag: camel(a.conditionalDef.id.name), bit: a.conditionalDef.nat };
    }
    if (type.t === 'true' && !cond) throw new Error(`${name}.${a.id.name}: unconditional true`);
    return { tl: a.id.name, name: camel(a.id.name), type, cond };
  });
  for (const f of fields) {
    if (f.cond && !fields.some((g) => g.name === f.cond!.flag && g.type.t === 'nat')) {
      throw new Error(`${name}.${f.tl}: flag ${f.cond.flag} is not a # field`);
    }
  }
  return { name, ident: tsIdent(name), id, decl, fields, result: d.resultType.id.name, isFunction };
}

// ---- emitter --------------------------------------------------------------------------------

function tsType(t: FieldType): string {
  switch (t.t) {
    case 'nat':
      return 'TLFlag';
    case 'int':
      return 'TLInt';
    case 'long':
      return 'TLLong';
    case 'int256':
      return 'TLInt256';
    case 'bytes':
      return 'TLBytes';
    case 'string':
      return 'TLString';
    case 'Bool':
    case 'true':
      return 'TLBool';
    case 'bare':
    case 'boxed':
      return tsIdent(t.name);
    case 'vector':
      return `${tsType(t.of)}[]`;
  }
}

/** Expression encoding value `v` (an expression) into writer `w`. */
function encExpr(t: FieldType, v: string, depth = 0): string {
  switch (t.t) {
    case 'nat':
      return `w.writeUInt32(${v})`;
    case 'int':
      return `w.writeInt32(${v})`;
    case 'long':
      return `w.writeInt64(${v})`;
    case 'int256':
      return `w.writeInt256(${v})`;
    case 'bytes':
      return `w.writeBuffer(${v})`;
    case 'string':
      return `w.writeString(${v})`;
    case 'Bool':
      return `w.writeBool(${v})`;
    case 'true':
      return '';
    case 'bare':
      return `enc_${tsIdent(t.name)}(${v}, w)`;
    case 'boxed':
      return `encBoxed_${tsIdent(t.name)}(${v}, w)`;
    case 'vector': {
      const x = `x${depth}`;
      return `encVector(${v}, w, (${x}) => ${encExpr(t.of, x, depth + 1)})`;
    }
  }
}

function decExpr(t: FieldType): string {
  switch (t.t) {
    case 'nat':
      return 'r.readUInt32()';
    case 'int':
      return 'r.readInt32()';
    case 'long':
      return 'r.readInt64()';
    case 'int256':
      return 'r.readInt256()';
    case 'bytes':
      return 'r.readBuffer()';
    case 'string':
      return 'r.readString()';
    case 'Bool':
      return 'r.readBool()';
    case 'true':
      return 'true';
    case 'bare':
      return `dec_${tsIdent(t.name)}(r)`;
    case 'boxed':
      return `decBoxed_${tsIdent(t.name)}(r)`;
    case 'vector':
      return `decVector(r, () => ${decExpr(t.of)})`;
  }
}

interface LiteSchema {
  constructors: Combinator[];
  functions: Combinator[];
  /** Boxed types and their constructors. */
  types: Map<string, Combinator[]>;
}

type Emit = (line?: string) => void;

/** The schema's constructors and functions, checked: unique ids and TS names, every referenced type exists. */
function parseLiteSchema(schema: string): LiteSchema {
  const ast = tlGen.parseSchema(schema);
  const constructors: Combinator[] = [];
  const functions: Combinator[] = [];
  for (const d of ast.constructors.declarations) {
    if (d.type === 'BuiltinCombinatorDeclaration') continue;
    if (d.type !== 'CombinatorDeclaration') throw new Error(`unsupported declaration ${d.type}`);
    if (BUILT_IN.has(d.id.name)) continue;
    constructors.push(toCombinator(d, schema, false));
  }
  for (const d of ast.functions.declarations) {
    if (d.type !== 'CombinatorDeclaration') throw new Error(`unsupported declaration ${d.type}`);
    functions.push(toCombinator(d, schema, true));
  }

  // Boxed types and their constructors.
  const types = new Map<string, Combinator[]>();
  for (const c of constructors) {
    const list = types.get(c.result) ?? [];
    list.push(c);
    types.set(c.result, list);
  }
  // Sanity: unique ids and TS names, every referenced type exists.
  const seenIds = new Map<number, string>();
  const seenIdents = new Set<string>();
  for (const c of [...constructors, ...functions]) {
    const prev = seenIds.get(c.id);
    if (prev) throw new Error(`id clash ${hex(c.id)}: ${prev} / ${c.name}`);
    seenIds.set(c.id, c.name);
    if (seenIdents.has(c.ident)) throw new Error(`duplicate name ${c.ident}`);
    seenIdents.add(c.ident);
  }
  for (const t of types.keys()) {
    if (seenIdents.has(tsIdent(t))) throw new Error(`type name ${t} clashes with a constructor`);
  }
  const ctorByName = new Map(constructors.map((c) => [c.name, c]));
  const checkRef = (t: FieldType, where: string): void => {
    if (t.t === 'bare' && !ctorByName.has(t.name)) throw new Error(`${where}: unknown constructor ${t.name}`);
    if (t.t === 'boxed' && !types.has(t.name)) throw new Error(`${where}: unknown type ${t.name}`);
    if (t.t === 'vector') checkRef(t.of, where);
  };
  for (const c of [...constructors, ...functions]) {
    for (const f of c.fields) checkRef(f.type, `${c.name}.${f.tl}`);
    if (c.isFunction && c.result !== 'Object' && !types.has(c.result)) {
      throw new Error(`${c.name}: unknown result type ${c.result}`);
    }
  }
  return { constructors, functions, types };
}

/** The generated file's header and the helpers every codec uses. */
function emitPrelude(emit: Emit, schemaPath: string): void {
  emit('// Code generated by lib/lite/tl/scripts/gen-lite-tl.ts from ' + schemaPath + '. DO NOT EDIT.');
  emit('// Regenerate: npx tsx lib/lite/tl/scripts/gen-lite-tl.ts');
  emit("import type { TLBool, TLBytes, TLFlag, TLInt, TLInt256, TLLong, TLString } from 'ton-tl';");
  emit("import { TlDecodeError } from './tl-buffer';");
  emit("import type { TlReaderLike, TlWriterLike } from './tl-buffer';");
  emit();
  emit('export interface TlCodec<T> {');
  emit('  encode(src: T, w: TlWriterLike): void;');
  emit('  decode(r: TlReaderLike): T;');
  emit('}');
  emit();
  emit('/** A TL function. Structurally a ton-tl `TLFunction`, so ton-lite-client engines accept it. */');
  emit('export interface TlFunction<REQ, RES> {');
  emit('  readonly kind: string;');
  emit('  readonly id: number;');
  emit('  /** Writes the boxed call (id + arguments). */');
  emit('  encodeRequest(src: REQ, w: TlWriterLike): void;');
  emit('  /** Reads the arguments (the id was already consumed). */');
  emit('  decodeRequest(r: TlReaderLike): REQ;');
  emit('  /** Reads the boxed answer. */');
  emit('  decodeResponse(r: TlReaderLike): RES;');
  emit('}');
  emit();
  emit('export interface TlLiteFunction<REQ, RES> extends TlFunction<REQ, RES> {');
  emit('  /** Writes the boxed answer. */');
  emit('  encodeResponse(res: RES, w: TlWriterLike): void;');
  emit('}');
  emit();
  emit('function encVector<T>(items: readonly T[], w: TlWriterLike, enc: (x: T) => void): void {');
  emit('  w.writeUInt32(items.length);');
  emit('  for (const x of items) enc(x);');
  emit('}');
  emit();
  emit('function decVector<T>(r: TlReaderLike, dec: () => T): T[] {');
  emit('  const n = r.readUInt32();');
  emit('  const items: T[] = [];');
  emit('  for (let i = 0; i < n; i++) items.push(dec());');
  emit('  return items;');
  emit('}');
  emit();
  emit('function missing(kind: string, field: string, flag: string, bit: number): never {');
  emit('  throw new TypeError(`${kind}: field ${field} is required when bit ${bit} of ${flag} is set`);');
  emit('}');
  emit();
  emit('function unknownId(type: string, id: number): never {');
  emit("  throw new TlDecodeError(`TL: unknown constructor 0x${id.toString(16).padStart(8, '0')} for ${type}`);");
  emit('}');
  emit();
}

function emitInterface(emit: Emit, c: Combinator): void {
  emit(`/** \`${c.decl}\` (${hex(c.id)}) */`);
  emit(`export interface ${c.ident} {`);
  emit(`  readonly kind: '${c.name}';`);
  for (const f of c.fields) {
    if (f.cond) emit(`  readonly ${f.name}?: ${tsType(f.type)} | null;`);
    else emit(`  readonly ${f.name}: ${tsType(f.type)};`);
  }
  emit('}');
  emit();
}

function emitBareCodec(emit: Emit, c: Combinator): void {
  const used = c.fields.length > 0;
  emit(`function enc_${c.ident}(${used ? 's' : '_s'}: ${c.ident}, ${used ? 'w' : '_w'}: TlWriterLike): void {`);
  for (const f of c.fields) {
    if (!f.cond) {
      emit(`  ${encExpr(f.type, `s.${f.name}`)};`);
    } else if (f.type.t === 'true') {
      emit(`  // ${f.tl}: ${f.cond.flag}.${f.cond.bit}?true occupies no bytes`);
    } else {
      emit(`  if ((s.${f.cond.flag} >>> ${f.cond.bit}) & 1) {`);
      emit(`    const v = s.${f.name};`);
      emit(`    if (v === null || v === undefined) missing('${c.name}', '${f.name}', '${f.cond.flag}', ${f.cond.bit});`);
      emit(`    ${encExpr(f.type, 'v')};`);
      emit('  }');
    }
  }
  emit('}');
  emit();
  emit(`function dec_${c.ident}(${used ? 'r' : '_r'}: TlReaderLike): ${c.ident} {`);
  for (const f of c.fields) {
    if (!f.cond) emit(`  const v_${f.name} = ${decExpr(f.type)};`);
    else emit(`  const v_${f.name} = (v_${f.cond.flag} >>> ${f.cond.bit}) & 1 ? ${decExpr(f.type)} : null;`);
  }
  const props = [`kind: '${c.name}'`, ...c.fields.map((f) => `${f.name}: v_${f.name}`)];
  emit(`  return { ${props.join(', ')} };`);
  emit('}');
  emit();
}

/** Each boxed type's codec: its constructor id, then the bare codec. */
function emitBoxedCodecs(emit: Emit, types: LiteSchema['types']): void {
  for (const [t, cs] of types) {
    const id = tsIdent(t);
    emit(`function encBoxed_${id}(s: ${id}, w: TlWriterLike): void {`);
    emit('  switch (s.kind) {');
    for (const c of cs) {
      emit(`    case '${c.name}':`);
      emit(`      w.writeUInt32(${hex(c.id)});`);
      emit(`      enc_${c.ident}(s, w);`);
      emit('      return;');
    }
    emit('  }');
    emit(`  throw new TypeError('${t}: unknown kind ' + String((s as { kind?: unknown }).kind));`);
    emit('}');
    emit();
    emit(`function decBoxed_${id}(r: TlReaderLike): ${id} {`);
    emit('  const id = r.readUInt32();');
    emit('  switch (id) {');
    for (const c of cs) {
      emit(`    case ${hex(c.id)}:`);
      emit(`      return dec_${c.ident}(r);`);
    }
    emit('  }');
    emit(`  return unknownId('${t}', id);`);
    emit('}');
    emit();
  }
}

/** Constructor ids and codecs by name. */
function emitTables(emit: Emit, { constructors, functions, types }: LiteSchema): void {
  emit('/** Constructor ids (uint32) of every constructor and function, by TL name. */');
  emit('export const ConstructorIds = {');
  for (const c of [...constructors, ...functions]) emit(`  '${c.name}': ${hex(c.id)},`);
  emit('} as const;');
  emit();

  emit('/** Bare codecs (no constructor id) by constructor name; boxed codecs (with id) by type name. */');
  emit('export const Codecs = {');
  for (const c of [...constructors, ...functions]) {
    emit(`  ${c.ident}: { encode: enc_${c.ident}, decode: dec_${c.ident} } as TlCodec<${c.ident}>,`);
  }
  for (const t of types.keys()) {
    const id = tsIdent(t);
    emit(`  ${id}: { encode: encBoxed_${id}, decode: decBoxed_${id} } as TlCodec<${id}>,`);
  }
  emit('};');
  emit();
}

/** Every function as a ton-tl `TLFunction` (lite server functions with their answer's encoder too). */
function emitFunctions(emit: Emit, functions: Combinator[]): void {
  emit('/** Every function. Those returning `Object` (query wrappers) answer with raw bytes. */');
  emit('export const Functions = {');
  for (const f of functions) {
    const res = f.result === 'Object' ? 'TLBytes' : tsIdent(f.result);
    emit(`  ${f.ident}: {`);
    emit(`    kind: '${f.name}',`);
    emit(`    id: ${hex(f.id)},`);
    emit(`    encodeRequest(src: ${f.ident}, w: TlWriterLike): void {`);
    emit(`      w.writeUInt32(${hex(f.id)});`);
    emit(`      enc_${f.ident}(src, w);`);
    emit('    },');
    emit(`    decodeRequest: dec_${f.ident},`);
    if (f.result === 'Object') {
      emit('    decodeResponse: (r: TlReaderLike): TLBytes => r.readObject(),');
    } else {
      emit(`    decodeResponse: decBoxed_${tsIdent(f.result)},`);
      emit(`    encodeResponse: encBoxed_${tsIdent(f.result)},`);
    }
    emit(`  } as ${f.result !== 'Object' ? 'TlLiteFunction' : 'TlFunction'}<${f.ident}, ${res}>,`);
  }
  emit('};');
  emit();
}

/** The lite_api functions a lite server answers, their answers, and the decoder of a call. */
function emitLiteIndex(emit: Emit, liteFns: Combinator[]): void {
  emit('/** The lite_api functions a lite server answers (query wrappers excluded). */');
  emit('export interface LiteFunctionRequests {');
  for (const f of liteFns) emit(`  '${f.name}': ${f.ident};`);
  emit('}');
  emit();
  emit('/** The answer type of each lite_api function. */');
  emit('export interface LiteFunctionResults {');
  for (const f of liteFns) emit(`  '${f.name}': ${tsIdent(f.result)};`);
  emit('}');
  emit();
  emit('export type LiteFunctionKind = keyof LiteFunctionRequests;');
  emit('export type LiteFunctionCall = LiteFunctionRequests[LiteFunctionKind];');
  emit();
  emit('export const LiteFunctions: { readonly [K in LiteFunctionKind]: TlLiteFunction<LiteFunctionRequests[K], LiteFunctionResults[K]> } = {');
  for (const f of liteFns) emit(`  '${f.name}': Functions.${f.ident},`);
  emit('};');
  emit();
  emit('/** Reads one boxed lite_api function call (id + arguments). */');
  emit('export function decodeLiteFunctionCall(r: TlReaderLike): LiteFunctionCall {');
  emit('  const id = r.readUInt32();');
  emit('  switch (id) {');
  for (const f of liteFns) {
    emit(`    case ${hex(f.id)}:`);
    emit(`      return dec_${f.ident}(r);`);
  }
  emit('  }');
  emit("  return unknownId('lite_api function', id);");
  emit('}');
  emit();
}

export function generateLiteTl(schema: string, schemaPath = 'schema/lite_api.tl'): string {
  const parsed = parseLiteSchema(schema);
  const { constructors, functions, types } = parsed;
  const out: string[] = [];
  const emit: Emit = (s = '') => out.push(s);
  emitPrelude(emit, schemaPath);
  emit('//');
  emit('// Constructors');
  emit('//');
  emit();
  for (const c of constructors) emitInterface(emit, c);

  emit('//');
  emit('// Boxed types');
  emit('//');
  emit();
  for (const [t, cs] of types) emit(`export type ${tsIdent(t)} = ${cs.map((c) => c.ident).join(' | ')};`);
  emit();

  emit('//');
  emit('// Function calls');
  emit('//');
  emit();
  for (const f of functions) emitInterface(emit, f);

  emit('//');
  emit('// Codecs');
  emit('//');
  emit();
  for (const c of [...constructors, ...functions]) emitBareCodec(emit, c);
  emitBoxedCodecs(emit, types);
  emitTables(emit, parsed);
  emitFunctions(emit, functions);
  emitLiteIndex(
    emit,
    functions.filter((f) => f.name.startsWith('liteServer.') && f.result !== 'Object'),
  );
  return out.join('\n');
}

// ---- CLI ------------------------------------------------------------------------------------

const here = dirname(fileURLToPath(import.meta.url));
export const SCHEMA_PATH = join(here, '..', 'schema', 'lite_api.tl');
export const OUTPUT_PATH = join(here, '..', 'lite-tl.gen.ts');

function main(): void {
  const generated = generateLiteTl(readFileSync(SCHEMA_PATH, 'utf-8'));
  if (process.argv.includes('--check')) {
    const current = readFileSync(OUTPUT_PATH, 'utf-8');
    if (current !== generated) {
      console.error(`${OUTPUT_PATH} is out of date; rerun without --check`);
      process.exit(1);
    }
    console.log('lite-tl.gen.ts is up to date');
    return;
  }
  writeFileSync(OUTPUT_PATH, generated);
  console.log(`wrote ${OUTPUT_PATH}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
