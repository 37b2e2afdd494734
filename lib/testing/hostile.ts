/**
 * A hostile contract for tests and the hostile bench (hostile/hostile.tolk): get-methods that answer with
 * cells and DAGs as deep as asked and nested tuples, a jetton master's getters whose content cell is as
 * deep as its data says (600 unless told; a message with a 16-bit body changes it), and one honest
 * get-method. Deployed through a real transaction: a wallet's signed transfer carrying
 * its state init.
 */
import path from 'node:path';
import { Address, beginCell, contractAddress, toNano, type Cell, type Message } from '@ton/core';
import { cachedCompilation, compileTolk } from '../devnet/contracts/tolk';
import { signedTransfer, type TestWallet } from './devnet';

const compiled = cachedCompilation<{ code: Cell; compileMs: number }>(async () => ({ code: await compileTolk(path.join(import.meta.dirname, 'hostile'), 'hostile.tolk') }));

export interface HostileContract {
  address: Address;
  code: Cell;
  data: Cell;
}

/** The contract with data `nonce` (its address differs with it); its jetton content is `contentDepth` cells deep. */
export async function hostileContract(nonce: number, contentDepth = 600): Promise<HostileContract> {
  const { code } = await compiled();
  const data = beginCell().storeUint(nonce, 32).storeUint(contentDepth, 16).endCell();
  return { address: contractAddress(0, { code, data }), code, data };
}

/** `from`'s signed external deploying `c` (0.5 TON with its state init). */
export function deployHostile(from: TestWallet, c: HostileContract): Promise<Message> {
  return signedTransfer(from, [{ to: c.address, value: toNano('0.5'), bounce: false, init: { code: c.code, data: c.data } }]);
}

/** `from`'s signed external telling `c` to make its jetton content `depth` cells deep from now on. */
export function setContentDepth(from: TestWallet, c: HostileContract, depth: number): Promise<Message> {
  return signedTransfer(from, [{ to: c.address, value: toNano('0.05'), bounce: false, body: beginCell().storeUint(depth, 16).endCell() }]);
}

/** A chain of `depth` + 1 cells, each referring to the next: a cell `depth` deep. */
export function chainCell(depth: number): Cell {
  let c = beginCell().endCell();
  for (let i = 0; i < depth; i++) c = beginCell().storeRef(c).endCell();
  return c;
}

/** `levels` levels, each cell referring to the one below `refs` times: levels + 1 cells, refs^levels paths. */
export function dagCell(levels: number, refs: number): Cell {
  let c = beginCell().storeUint(7, 8).endCell();
  for (let i = 0; i < levels; i++) {
    const b = beginCell().storeUint(i, 16);
    for (let r = 0; r < refs; r++) b.storeRef(c);
    c = b.endCell();
  }
  return c;
}
