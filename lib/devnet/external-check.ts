// What a validator checks of an external message before it runs it on the account (TON's
// ExtMessageQ::create_ext_message, then Transaction::unpack_input_msg), with the chain's ConfigParam 43:
// the bag of cells at most max_ext_msg_size bytes with one root of level 0, less deep than
// max_ext_msg_depth, an ext_in_msg_info message (TL-B) to a standard address of an existing workchain,
// at most max_msg_cells distinct cells and max_msg_bits bits besides its root. The devnet refuses anything
// else here, with the validator's words, before the emulator sees it.
import { Cell, loadMessage } from '@ton/core';
import type { SizeLimits } from '../ton/size-limits';

export class ExternalRefused extends Error {}

const WORKCHAINS = new Set([-1, 0]);

/** The message cell of `boc`, or ExternalRefused saying why a validator would not take it. */
export function checkExternal(boc: Buffer, limits: SizeLimits): Cell {
  if (boc.length > limits.maxExtMsgSize) throw new ExternalRefused(`external message too large (${boc.length} bytes; at most ${limits.maxExtMsgSize})`);
  let roots: Cell[];
  try {
    roots = Cell.fromBoc(boc);
  } catch (err) {
    throw new ExternalRefused(`not a valid bag of cells (${err instanceof Error ? err.message : String(err)})`);
  }
  if (roots.length !== 1) throw new ExternalRefused(`external message is not a valid bag of cells (${roots.length} roots; one is needed)`);
  const root = roots[0]!;
  if (root.level() !== 0) throw new ExternalRefused('external message must have zero level');
  if (root.depth() >= limits.maxExtMsgDepth) throw new ExternalRefused(`external message is too deep (${root.depth()}; less than ${limits.maxExtMsgDepth} is allowed)`);
  const s = root.beginParse();
  if (s.remainingBits < 2 || s.preloadUint(2) !== 0b10) throw new ExternalRefused('external message must begin with ext_in_msg_info$10');
  let dest;
  try {
    const msg = loadMessage(root.beginParse());
    if (msg.info.type !== 'external-in') throw new Error('not an inbound external message');
    dest = msg.info.dest;
  } catch (err) {
    throw new ExternalRefused(`external message is not a (Message Any) (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!WORKCHAINS.has(dest.workChain)) throw new ExternalRefused(`destination of an inbound external message is in workchain ${dest.workChain}, which does not exist`);
  const { cells, bits } = sizeBeyondRoot(root, limits);
  if (cells > limits.maxMsgCells || bits > limits.maxMsgBits) {
    throw new ExternalRefused(`inbound external message too large (${cells} cells, ${bits} bits besides its root; at most ${limits.maxMsgCells} cells, ${limits.maxMsgBits} bits)`);
  }
  return root;
}

/** Distinct cells and their bits under `root`, the root itself not counted; stops counting past the limits. */
function sizeBeyondRoot(root: Cell, limits: SizeLimits): { cells: number; bits: number } {
  const seen = new Set<string>([root.hash().toString('latin1')]);
  const pending = [...root.refs];
  let bits = 0;
  for (let c = pending.pop(); c && seen.size <= limits.maxMsgCells + 1; c = pending.pop()) {
    const key = c.hash().toString('latin1');
    if (seen.has(key)) continue;
    seen.add(key);
    bits += c.bits.length;
    pending.push(...c.refs);
  }
  return { cells: seen.size - 1, bits };
}
