// One transaction cell → its index rows: the transaction (description in toncenter's JSON shape), its in
// and out messages, and their bodies and init states (deduplicated by cell hash by the caller).
import {
  type AccountStatus,
  type Cell,
  type CurrencyCollection,
  type Message,
  type StateInit,
  type TransactionComputePhase,
  type TransactionDescription,
  beginCell,
  loadTransaction,
  storeStateInit,
} from '@ton/core';
import { rawUpper } from '../ton/address';
import { loadHashmapRoot } from '../ton/hashmap-aug';
import { normalizedHash } from '../ton/normalized-hash';
import type { AccountStatusName, MessageRecord, TransactionDescrJson, TransactionRecord } from './records';

export interface TransactionContext {
  workchain: number;
  blockShard: bigint;
  blockSeqno: number;
  mcBlockSeqno: number | null;
}

export interface ParsedTransaction {
  transaction: TransactionRecord;
  messages: MessageRecord[];
  /** bodies and init states as cells: the caller serializes each distinct one once */
  contents: { hash: Buffer; cell: Cell }[];
}

const STATUS: Record<AccountStatus, AccountStatusName> = {
  uninitialized: 'uninit',
  frozen: 'frozen',
  active: 'active',
  'non-existing': 'nonexist',
};

const str = (n: bigint) => n.toString();
const hash256 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');
const b64 = (n: bigint) => hash256(n).toString('base64');

export function extraCurrencies(c: CurrencyCollection): Record<string, string> | null {
  if (!c.other || c.other.size === 0) return null;
  return Object.fromEntries([...c.other].map(([id, amount]) => [String(id), amount.toString()]));
}

export function parseTransaction(cell: Cell, ctx: TransactionContext): ParsedTransaction {
  const tx = loadTransaction(cell.beginParse());
  const hash = cell.hash();
  const account = `${ctx.workchain}:${tx.address.toString(16).padStart(64, '0').toUpperCase()}`;
  const transaction: TransactionRecord = {
    hash,
    account,
    lt: tx.lt,
    now: tx.now,
    blockWorkchain: ctx.workchain,
    blockShard: ctx.blockShard,
    blockSeqno: ctx.blockSeqno,
    mcBlockSeqno: ctx.mcBlockSeqno,
    prevTransHash: hash256(tx.prevTransactionHash),
    prevTransLt: tx.prevTransactionLt,
    origStatus: STATUS[tx.oldStatus],
    endStatus: STATUS[tx.endStatus],
    totalFees: tx.totalFees.coins,
    totalFeesExtraCurrencies: extraCurrencies(tx.totalFees),
    description: describe(tx.description),
    accountStateHashBefore: tx.stateUpdate.oldHash,
    accountStateHashAfter: tx.stateUpdate.newHash,
    boc: cell.toBoc(),
  };

  // The message cells as stored (their hashes are the message hashes): ^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]
  const io = cell.refs[0]!.beginParse();
  const inCell = io.loadBit() ? io.loadRef() : null;
  const outCells = io.loadBit() ? loadHashmapRoot(io.loadRef(), 15, (s) => s.loadRef()) : new Map<bigint, Cell>();
  const messages: MessageRecord[] = [];
  const contents: ParsedTransaction['contents'] = [];
  // loadTransaction has already decoded these very cells; only their hashes need the cells themselves.
  const add = (msgCell: Cell, msg: Message, direction: 'in' | 'out') => {
    const { record, body, init } = parseMessage(msgCell, msg, direction, hash, tx.lt);
    messages.push(record);
    contents.push({ hash: record.bodyHash, cell: body });
    if (init) contents.push({ hash: init.hash(), cell: init });
  };
  if (inCell) add(inCell, tx.inMessage!, 'in');
  for (const [key, outCell] of outCells) add(outCell, tx.outMessages.get(Number(key))!, 'out');
  return { transaction, messages, contents };
}

function parseMessage(cell: Cell, msg: Message, direction: 'in' | 'out', txHash: Buffer, txLt: bigint) {
  const body = msg.body;
  const init = msg.init ? stateInitCell(cell, msg.init) : null;
  const info = msg.info;
  const record: MessageRecord = {
    txHash,
    txLt,
    msgHash: cell.hash(),
    direction,
    source: null,
    destination: null,
    value: null,
    valueExtraCurrencies: null,
    fwdFee: null,
    ihrFee: null,
    extraFlags: null,
    createdLt: null,
    createdAt: null,
    opcode: opcodeOf(body),
    ihrDisabled: null,
    bounce: null,
    bounced: null,
    importFee: null,
    bodyHash: body.hash(),
    initStateHash: init ? init.hash() : null,
    msgHashNorm: null,
  };
  if (info.type === 'internal') {
    Object.assign(record, {
      source: rawUpper(info.src),
      destination: rawUpper(info.dest),
      value: info.value.coins,
      valueExtraCurrencies: extraCurrencies(info.value),
      fwdFee: info.forwardFee,
      ihrFee: info.ihrFee,
      createdLt: info.createdLt,
      createdAt: BigInt(info.createdAt),
      ihrDisabled: info.ihrDisabled,
      bounce: info.bounce,
      bounced: info.bounced,
    });
  } else if (info.type === 'external-in') {
    Object.assign(record, { destination: rawUpper(info.dest), importFee: info.importFee, msgHashNorm: normalizedHash(msg) });
  } else {
    Object.assign(record, { source: rawUpper(info.src), createdLt: info.createdLt, createdAt: BigInt(info.createdAt) });
  }
  return { record, body, init };
}

/** The StateInit cell as stored: the message's ref when it was stored by reference, else rebuilt. */
function stateInitCell(messageCell: Cell, init: StateInit): Cell {
  const rebuilt = beginCell().store(storeStateInit(init)).endCell();
  return messageCell.refs.find((r) => r.hash().equals(rebuilt.hash())) ?? rebuilt;
}

/** First 32 bits of the body as a signed int32, toncenter's `opcode`; null for shorter bodies. */
export function opcodeOf(body: Cell): number | null {
  const s = body.beginParse();
  return s.remainingBits >= 32 ? s.loadInt(32) : null;
}

const TYPE: Record<TransactionDescription['type'], TransactionDescrJson['type']> = {
  generic: 'ord',
  storage: 'storage',
  'tick-tock': 'tick_tock',
  'split-prepare': 'split_prepare',
  'split-install': 'split_install',
  'merge-prepare': 'merge_prepare',
  'merge-install': 'merge_install',
};

function describe(d: TransactionDescription): TransactionDescrJson {
  const out: TransactionDescrJson = { type: TYPE[d.type] };
  if ('aborted' in d) out.aborted = d.aborted;
  if ('destroyed' in d) out.destroyed = d.destroyed;
  if (d.type === 'generic') out.credit_first = d.creditFirst;
  if (d.type === 'tick-tock') out.is_tock = d.isTock;
  if (d.type === 'split-install' || d.type === 'merge-install') {
    if ('installed' in d) out.installed = d.installed;
  }
  if ('storagePhase' in d && d.storagePhase) {
    const p = d.storagePhase;
    out.storage_ph = {
      storage_fees_collected: str(p.storageFeesCollected),
      ...(p.storageFeesDue != null ? { storage_fees_due: str(p.storageFeesDue) } : {}),
      status_change: p.statusChange,
    };
  }
  if ('creditPhase' in d && d.creditPhase) {
    const p = d.creditPhase;
    const extra = extraCurrencies(p.credit);
    out.credit_ph = {
      ...(p.dueFeesColelcted != null ? { due_fees_collected: str(p.dueFeesColelcted) } : {}),
      credit: str(p.credit.coins),
      ...(extra ? { credit_extra_currencies: extra } : {}),
    };
  }
  if ('computePhase' in d && d.computePhase) out.compute_ph = describeCompute(d.computePhase);
  if ('actionPhase' in d && d.actionPhase) {
    const a = d.actionPhase;
    out.action = {
      success: a.success,
      valid: a.valid,
      no_funds: a.noFunds,
      status_change: a.statusChange,
      ...(a.totalFwdFees != null ? { total_fwd_fees: str(a.totalFwdFees) } : {}),
      ...(a.totalActionFees != null ? { total_action_fees: str(a.totalActionFees) } : {}),
      result_code: a.resultCode,
      ...(a.resultArg != null ? { result_arg: a.resultArg } : {}),
      tot_actions: a.totalActions,
      spec_actions: a.specActions,
      skipped_actions: a.skippedActions,
      msgs_created: a.messagesCreated,
      action_list_hash: b64(a.actionListHash),
      tot_msg_size: { cells: str(a.totalMessageSize.cells), bits: str(a.totalMessageSize.bits) },
    };
  }
  if ('bouncePhase' in d && d.bouncePhase) {
    const b = d.bouncePhase;
    out.bounce =
      b.type === 'negative-funds'
        ? { type: 'negfunds' }
        : b.type === 'no-funds'
          ? { type: 'nofunds', msg_size: { cells: str(b.messageSize.cells), bits: str(b.messageSize.bits) }, req_fwd_fees: str(b.requiredForwardFees) }
          : {
              type: 'ok',
              msg_size: { cells: str(b.messageSize.cells), bits: str(b.messageSize.bits) },
              msg_fees: str(b.messageFees),
              fwd_fees: str(b.forwardFees),
            };
  }
  if ('splitInfo' in d) {
    const s = d.splitInfo;
    out.split_info = {
      cur_shard_pfx_len: s.currentShardPrefixLength,
      acc_split_depth: s.accountSplitDepth,
      this_addr: b64(s.thisAddress),
      sibling_addr: b64(s.siblingAddress),
    };
  }
  return out;
}

function describeCompute(c: TransactionComputePhase): NonNullable<TransactionDescrJson['compute_ph']> {
  if (c.type === 'skipped') return { skipped: true, reason: c.reason.replace('-', '_') };
  return {
    skipped: false,
    success: c.success,
    msg_state_used: c.messageStateUsed,
    account_activated: c.accountActivated,
    gas_fees: str(c.gasFees),
    gas_used: str(c.gasUsed),
    gas_limit: str(c.gasLimit),
    ...(c.gasCredit != null ? { gas_credit: str(c.gasCredit) } : {}),
    mode: c.mode,
    exit_code: c.exitCode,
    ...(c.exitArg != null ? { exit_arg: c.exitArg } : {}),
    vm_steps: c.vmSteps,
    vm_init_state_hash: b64(c.vmInitStateHash),
    vm_final_state_hash: b64(c.vmFinalStateHash),
  };
}
