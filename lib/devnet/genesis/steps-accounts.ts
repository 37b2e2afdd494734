/** Genesis steps: the zero state, the wallets, comments and edge cases, a masterchain → basechain transfer. */
import { beginCell, contractAddress, toNano } from '@ton/core';
import { binaryBody, encryptedCommentBody, textCommentBody } from '../contracts/common';
import { createHighloadWalletV3 } from '../contracts/highload';
import { createWallet, type DevnetWallet, type StandardWalletKind } from '../contracts/wallets';
import type { GenesisContext } from './context';
import { canRunCode, chainNow, storageUsedOf } from './driver';
import { deriveKeyPair, seedBytes } from './keys';
import { GENESIS_FUNDING, GENESIS_TEXTS, GENESIS_TOTAL_SUPPLY, GENESIS_WALLETS } from './scenario';
import { WalletHandle } from './wallet-handle';

/** Storage fee the frozen account owes at its first transaction: between freeze (0.1 TON) and delete (1 TON) limits. */
const FROZEN_TARGET_DUE = toNano('0.4');

/** Basechain storage prices of the sandbox's default config (param 18): per bit and per cell, per 65536 s. */
const BIT_PRICE_PS = 1n;
const CELL_PRICE_PS = 500n;

/** The contract behind a wallet entry of {@link GENESIS_WALLETS} (or the faucet, a v4r2 wallet). */
export function genesisWalletContract(kind: StandardWalletKind | 'highload_wallet_v3', publicKey: Buffer, workchain: number): DevnetWallet {
  return kind === 'highload_wallet_v3' ? createHighloadWalletV3(publicKey, { workchain }) : createWallet(kind, publicKey, { workchain });
}

/** Zero state: the faucet with the whole supply, and an account that owes storage fees. */
export async function zeroState(g: GenesisContext): Promise<void> {
  const { driver, seed, add } = g;
  const faucetKeys = deriveKeyPair(seed, 'faucet');
  const faucet = g.remember('faucet', new WalletHandle('faucet', createWallet('wallet_v4r2', faucetKeys.publicKey), faucetKeys.secretKey, { deployed: true }));
  await driver.setGenesisAccount(faucet.address, { ...faucet.wallet.init, balance: GENESIS_TOTAL_SUPPLY });
  add('faucet', 'faucet', faucet.address, faucetKeys.secretKey);

  // A contract with a 0 balance whose storage was last paid long ago: its first transaction freezes it.
  // Its address is that of its (small) initial state while its current data is large, as for a contract
  // that grew its storage: a frozen account whose state hash equals its address would be serialized as
  // account_uninit, so the state must differ from the initial one for the account to show as frozen.
  const frozenCode = createWallet('wallet_v3r2', deriveKeyPair(seed, 'frozen').publicKey).init.code;
  const frozenInitialData = beginCell().storeBuffer(seedBytes(seed, 'frozen:data:0')).endCell();
  let frozenData = frozenInitialData;
  for (let i = 1; i < 32; i++) {
    // 127-byte cells: enough storage that the fee reaches the target within a few years of "last paid".
    frozenData = beginCell().storeBuffer(Buffer.concat([seedBytes(seed, `frozen:data:${i}`), Buffer.alloc(95, i)])).storeRef(frozenData).endCell();
  }
  const frozenInit = { code: frozenCode, data: frozenData };
  const frozenAddress = g.remember('frozen', contractAddress(0, { code: frozenCode, data: frozenInitialData }));
  const used = storageUsedOf(frozenCode, frozenData);
  const perPeriod = used.bits * BIT_PRICE_PS + used.cells * CELL_PRICE_PS; // nanoton per 65536 s
  const owedSeconds = Number((FROZEN_TARGET_DUE * 65536n) / perPeriod);
  await driver.setGenesisAccount(frozenAddress, { ...frozenInit, balance: 0n, lastPaid: Math.max(0, chainNow(driver.blockchain) - owedSeconds) });
  add('frozen', 'frozen', frozenAddress);
}

/** Wallets: funded by the faucet (non-bounceable, they are not deployed yet), then deployed. */
export async function walletsFundedAndDeployed(g: GenesisContext): Promise<void> {
  const { driver, seed, add, W, faucet } = g;
  for (const w of GENESIS_WALLETS) {
    const keys = deriveKeyPair(seed, w.name);
    const handle = new WalletHandle(w.name, genesisWalletContract(w.kind, keys.publicKey, w.workchain), keys.secretKey);
    g.wallets.set(w.name, handle);
    add(w.name, w.kind, handle.address, keys.secretKey);
  }
  const uninitAddress = createWallet('wallet_v4r2', deriveKeyPair(seed, 'uninit_receiver').publicKey).address;
  const bounceTarget = g.remember('bounceTarget', createWallet('wallet_v4r2', deriveKeyPair(seed, 'bounce_target').publicKey).address);
  add('uninit_receiver', 'uninit', uninitAddress);
  add('bounce_target', 'nonexist', bounceTarget);

  const funding = GENESIS_WALLETS.map((w) => ({ to: W(w.name).address, value: GENESIS_FUNDING[w.name], bounce: false }));
  funding.push({ to: uninitAddress, value: toNano('7'), bounce: false }); // stays uninit: nobody deploys it
  for (let i = 0; i < funding.length; i += 4) {
    await faucet.send(driver, funding.slice(i, i + 4));
  }
  // Sending anything to the frozen account runs its storage phase: 0.01 TON in, ~0.4 TON owed → frozen.
  await faucet.send(driver, [{ to: g.made('frozen'), value: toNano('0.01'), bounce: false, body: textCommentBody('wake up') }]);

  // Each wallet deploys itself with its first external: a small transfer with a comment (alice first,
  // since the others greet her with bounceable messages).
  await W('alice').send(driver, [{ to: faucet.address, value: toNano('1'), bounce: true, body: textCommentBody('alice is here') }]);
  for (const w of GENESIS_WALLETS) {
    if (w.name === 'alice' || w.name === 'highload') continue;
    if (!canRunCode(driver, W(w.name).wallet.init.code)) continue; // v5beta: deployed by twins() instead
    await W(w.name).send(driver, [{ to: W('alice').address, value: toNano('0.5'), bounce: true, body: textCommentBody(`hello from ${w.name}`) }]);
  }
  // The highload wallet deploys with a batch of three transfers.
  await W('highload').send(driver, [
    { to: W('wallet_v1r1').address, value: toNano('2'), bounce: true, body: textCommentBody('payout #1') },
    { to: W('wallet_v2r1').address, value: toNano('2'), bounce: true, body: textCommentBody('payout #2') },
    { to: W('wallet_v3r1').address, value: toNano('2'), bounce: true },
  ]);
  await W('highload').send(driver, [{ to: W('carol').address, value: toNano('3'), bounce: true, body: textCommentBody('single payout') }]);
}

/** Comments (unicode, long, encrypted, binary) and a transfer that bounces. */
export async function commentsAndEdgeCases(g: GenesisContext): Promise<void> {
  const { driver, seed, W } = g;
  await W('alice').send(driver, [
    { to: W('bob').address, value: toNano('1.5'), bounce: true, body: textCommentBody(GENESIS_TEXTS.unicode) },
    { to: W('bob').address, value: toNano('0.2'), bounce: true, body: encryptedCommentBody(Buffer.concat([seedBytes(seed, 'enc:0'), seedBytes(seed, 'enc:1')])) },
  ]);
  await W('bob').send(driver, [{ to: W('carol').address, value: toNano('0.3'), bounce: true, body: textCommentBody(GENESIS_TEXTS.long) }]);
  await W('carol').send(driver, [
    { to: W('wallet_v3r1').address, value: toNano('0.1'), bounce: true, body: binaryBody(0xdeadbeef, Buffer.concat([seedBytes(seed, 'bin:0'), seedBytes(seed, 'bin:1')])) },
  ]);
  // Bounceable transfer to an account that does not exist: it bounces back to carol.
  await W('carol').send(driver, [{ to: g.made('bounceTarget'), value: toNano('2'), bounce: true, body: textCommentBody('are you there?') }]);
}

/** A cross-workchain transfer from the masterchain wallet. */
export async function masterchainToBasechain(g: GenesisContext): Promise<void> {
  await g.W('master_wallet').send(g.driver, [{ to: g.W('bob').address, value: toNano('1'), bounce: true, body: textCommentBody('from the masterchain') }]);
}
