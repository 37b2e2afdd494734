/**
 * Vesting wallet v1 (ton-blockchain/vesting-contract), code from tonweb's VestingWalletV1.codeHex.
 *
 * data: seqno:uint32 subwallet_id:uint32 public_key:uint256 whitelist:(HashmapE 267 True)
 *       ^[vesting_start_time:uint64 vesting_total_duration:uint32 unlock_period:uint32 cliff_duration:uint32
 *         vesting_total_amount:Coins vesting_sender_address:MsgAddress owner_address:MsgAddress]
 * Signed externals look like a v3 wallet's: signature subwallet_id valid_until seqno (mode ^msg)*.
 */
import { VestingWalletV1 } from 'tonweb/src/contract/lockup/VestingWalletV1.js';
import { Address, beginCell, Cell, contractAddress, external, Message, MessageRelaxed, storeMessageRelaxed, StateInit } from '@ton/core';
import { ed25519Sign } from './signing';
import { VESTING_OP } from '../../ton/owner-ops';

/** tonweb's default subwallet id base; the id is base + workchain. */
export const VESTING_WALLET_ID_BASE = 0x10c;

let cachedCode: Cell | null = null;

export function vestingCode(): Cell {
  cachedCode ??= Cell.fromBoc(Buffer.from(VestingWalletV1.codeHex, 'hex'))[0];
  return cachedCode;
}

export interface VestingParams {
  publicKey: Buffer;
  /** Unix time vesting starts; part of the address, so use a fixed value for a deterministic address. */
  startTime: number;
  totalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  totalAmount: bigint;
  sender: Address;
  owner: Address;
  workchain?: number;
}

export function vestingInit(p: VestingParams): { address: Address; init: StateInit & { code: Cell; data: Cell }; walletId: number } {
  if (p.totalDuration % p.unlockPeriod !== 0 || p.cliffDuration % p.unlockPeriod !== 0) {
    throw new Error('vesting: durations must be multiples of the unlock period');
  }
  const workchain = p.workchain ?? 0;
  const walletId = VESTING_WALLET_ID_BASE + workchain;
  const params = beginCell()
    .storeUint(p.startTime, 64)
    .storeUint(p.totalDuration, 32)
    .storeUint(p.unlockPeriod, 32)
    .storeUint(p.cliffDuration, 32)
    .storeCoins(p.totalAmount)
    .storeAddress(p.sender)
    .storeAddress(p.owner)
    .endCell();
  const data = beginCell()
    .storeUint(0, 32)
    .storeUint(walletId, 32)
    .storeBuffer(p.publicKey, 32)
    .storeBit(false)
    .storeRef(params)
    .endCell();
  const init = { code: vestingCode(), data };
  return { address: contractAddress(workchain, init), init, walletId };
}

/** A signed external of the vesting wallet's owner key. */
export function vestingExternal(args: {
  address: Address;
  walletId: number;
  seqno: number;
  validUntil: number;
  secretKey: Buffer;
  messages: { mode: number; message: MessageRelaxed }[];
}): Message {
  let signing = beginCell().storeUint(args.walletId, 32).storeUint(args.validUntil, 32).storeUint(args.seqno, 32);
  for (const m of args.messages) signing = signing.storeUint(m.mode, 8).storeRef(beginCell().store(storeMessageRelaxed(m.message)));
  const unsigned = signing.endCell();
  const body = beginCell().storeBuffer(ed25519Sign(unsigned.hash(), args.secretKey)).storeSlice(unsigned.beginParse()).endCell();
  return external({ to: args.address, body });
}

/** owner → vesting wallet: send `message` (the contract takes send mode 3 only) out of the unlocked part. */
export function vestingSendBody(args: { message: MessageRelaxed; mode?: number; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(VESTING_OP.sendMessage, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeUint(args.mode ?? 3, 8)
    .storeRef(beginCell().store(storeMessageRelaxed(args.message)))
    .endCell();
}

/** vesting sender → vesting wallet: add addresses to the whitelist (the first inline, the rest in a chain of refs). */
export function vestingAddWhitelistBody(args: { addresses: Address[]; queryId?: bigint }): Cell {
  if (args.addresses.length === 0) throw new Error('vesting whitelist: no address');
  let tail: Cell | null = null;
  for (const a of args.addresses.slice(1).reverse()) {
    const b = beginCell().storeAddress(a);
    if (tail) b.storeRef(tail);
    tail = b.endCell();
  }
  const body = beginCell().storeUint(VESTING_OP.addWhitelist, 32).storeUint(args.queryId ?? 0n, 64).storeAddress(args.addresses[0]);
  if (tail) body.storeRef(tail);
  return body.endCell();
}
