// Exit codes in words. Compute phase: TVM's standard codes (0–255 reserved by the VM and FunC), then
// the codes of known contracts by interface. Action phase: the result codes of the action phase.

const TVM: Record<number, string> = {
  0: 'Success',
  1: 'Success (alternative exit)',
  2: 'Stack underflow: an instruction needed more values than the stack held',
  3: 'Stack overflow: too many values on the stack',
  4: 'Integer overflow: a result did not fit in 257 bits, or division by zero',
  5: 'Integer out of expected range',
  6: 'Invalid opcode: the code holds an instruction TVM does not know',
  7: 'Type check error: a value had the wrong type',
  8: 'Cell overflow: more than 1023 bits or 4 references written to a cell',
  9: 'Cell underflow: read past the end of a cell (often a malformed message body)',
  10: 'Dictionary error',
  11: 'Unknown error (often an unknown message opcode or a failed library load)',
  12: 'Fatal error (impossible situation)',
  13: 'Out of gas: the transaction ran out of gas',
  [-14]: 'Out of gas: the transaction ran out of gas',
  14: 'Virtualization error',
  32: 'Action list is invalid',
  33: 'Action list too long',
  34: 'Invalid or unsupported action',
  35: 'Invalid source address in an outbound message',
  36: 'Invalid destination address in an outbound message',
  37: 'Not enough Toncoin to send a message',
  38: 'Not enough extra currency to send a message',
  39: 'Outbound message does not fit into a cell after rewriting',
  40: 'Cannot process a message: not enough funds for its fees or its body is too large',
  41: 'Library reference is null',
  42: 'Library change action error',
  43: 'Library limits exceeded',
  50: 'Account state size exceeded limits',
};

/** Codes of known contracts, by the interface name the API reports (wallet_v4r2, jetton_wallet, …). */
const BY_INTERFACE: { match: RegExp; codes: Record<number, string> }[] = [
  {
    match: /^wallet_v[1-4]/,
    codes: {
      33: 'Wallet: the message seqno does not match the wallet seqno (replayed or out of order)',
      34: 'Wallet: the subwallet id does not match',
      35: 'Wallet: invalid signature',
      36: 'Wallet: the message has expired (valid_until passed)',
    },
  },
  {
    match: /^wallet_v5/,
    codes: {
      132: 'Wallet v5: signature authentication is disabled',
      133: 'Wallet v5: invalid seqno',
      134: 'Wallet v5: invalid wallet id',
      135: 'Wallet v5: invalid signature',
      136: 'Wallet v5: the message has expired',
      137: 'Wallet v5: external message is not signed by the wallet key',
      138: 'Wallet v5: invalid extension',
      139: 'Wallet v5: extension action not allowed',
      141: 'Wallet v5: add extension failed',
      142: 'Wallet v5: remove extension failed',
      143: 'Wallet v5: extension already present',
      144: 'Wallet v5: extension not found',
      145: 'Wallet v5: cannot disable signature with no extensions',
      147: 'Wallet v5: invalid custom action',
    },
  },
  {
    match: /^jetton/,
    codes: {
      73: 'Jetton: the sender is not the owner or the minter',
      74: 'Jetton: not enough jetton balance',
      705: 'Jetton: the sender is not the owner',
      706: 'Jetton: not enough jetton balance',
      707: 'Jetton: the sender is not a jetton wallet of this minter',
      709: 'Jetton: not enough Toncoin attached for the forward',
      0xffff: 'Jetton: unknown operation',
    },
  },
  {
    match: /^nft/,
    codes: { 401: 'NFT: the sender is not the owner', 402: 'NFT: not enough Toncoin attached', 0xffff: 'NFT: unknown operation' },
  },
];

export function explainComputeExit(code: number, interfaces: readonly string[] = []): string {
  for (const { match, codes } of BY_INTERFACE) {
    if (interfaces.some((i) => match.test(i)) && codes[code]) return codes[code];
  }
  if (TVM[code]) return TVM[code];
  if (code >= 0 && code < 256) return 'Reserved TVM code without a standard meaning';
  return 'Contract-defined error (thrown by the contract code)';
}

const ACTION: Record<number, string> = {
  0: 'Success: every action was applied',
  32: 'Invalid action list (malformed out_actions)',
  33: 'Too many actions (more than 255)',
  34: 'Invalid or unsupported action',
  35: 'Invalid source address in an outbound message',
  36: 'Invalid destination address in an outbound message',
  37: 'Not enough Toncoin: the account cannot pay the message value plus fees',
  38: 'Not enough extra currency to send the message',
  39: 'The outbound message does not fit into a cell',
  40: 'Not enough funds to process the message (fees exceed the value)',
  41: 'Library reference is null',
  42: 'Library change action failed',
  43: 'Library limits exceeded',
  50: 'Account state size exceeded limits after the actions',
};

export const explainActionResult = (code: number): string => ACTION[code] ?? 'Unknown action phase result code';

const SKIP_REASONS: Record<string, string> = {
  no_state: 'No state: the account has no code (uninitialized) and the message carried none',
  bad_state: 'Bad state: the state attached to the message does not match the address',
  no_gas: 'No gas: the message value cannot pay for any gas',
  suspended: 'The account is suspended',
};

export const explainSkipReason = (reason: string): string => SKIP_REASONS[reason] ?? reason;

/**
 * Why the chain refuses an external message, from the executor's reason ("… (exit code 33)"): the exit
 * code in words for the receiving contract's interfaces. Without them a code of 32 or more is only said to
 * be the contract's own: TVM's table would name it as an action-phase code, which it is not here.
 */
export function explainRefusal(reason: string, interfaces: readonly string[] = []): string {
  const m = /exit code (-?\d+)/.exec(reason);
  if (!m) return reason;
  const code = Number(m[1]);
  const known = interfaces.length > 0 || code < 32 ? explainComputeExit(code, interfaces) : 'an error the contract threw before accepting the message';
  return `exit code ${code}: ${known}`;
}
