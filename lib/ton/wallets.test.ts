// The wallet table against the contracts themselves: every code hash is recomputed from @ton/ton's wallet
// classes (v4 r1 from tonweb), and the data layouts are read from cells built as the wallets build them.
import { beginCell, Cell } from '@ton/core';
import * as ton from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { isStandardWallet, parseWalletData, walletKind, WALLET_CODE_HASHES } from './wallets';

type WalletClass = { create(a: { workchain: number; publicKey: Buffer }): { init: { code: Cell } } };

/** tonweb builds v4 r1's code in the contract's constructor. */
async function v4r1Code(): Promise<Cell> {
  const { WalletV4ContractR1 } = await import('tonweb/src/contract/wallet/WalletContractV4.js');
  const wallet = new WalletV4ContractR1({}, { publicKey: new Uint8Array(32), wc: 0 });
  return Cell.fromBoc(Buffer.from(await wallet.options.code.toBoc(false)))[0]!;
}

describe('standard wallets', () => {
  it("every code hash is that of the wallet's real code, under toncenter's wallet_type name", async () => {
    const pub = Buffer.alloc(32);
    const classes: [string, WalletClass][] = [
      ['wallet v1 r1', ton.WalletContractV1R1],
      ['wallet v1 r2', ton.WalletContractV1R2],
      ['wallet v1 r3', ton.WalletContractV1R3],
      ['wallet v2 r1', ton.WalletContractV2R1],
      ['wallet v2 r2', ton.WalletContractV2R2],
      ['wallet v3 r1', ton.WalletContractV3R1],
      ['wallet v3 r2', ton.WalletContractV3R2],
      ['wallet v4 r2', ton.WalletContractV4],
      ['wallet v5 beta', ton.WalletContractV5Beta],
      ['wallet v5 r1', ton.WalletContractV5R1],
    ];
    const codes: [string, Cell][] = classes.map(([type, C]) => [type, C.create({ workchain: 0, publicKey: pub }).init.code]);
    codes.push(['wallet v4 r1', await v4r1Code()]);
    for (const [type, code] of codes) {
      expect(walletKind(code)?.type).toBe(type);
      expect(isStandardWallet(code.hash().toString('base64'))).toBe(true);
    }
    // v5 beta's library cell names the code it stands for by hash: an account holding that code itself is the same wallet.
    const v5beta = ton.WalletContractV5Beta.create({ publicKey: pub }).init.code;
    expect(v5beta.isExotic).toBe(true);
    const libraryCode = v5beta.bits.subbuffer(8, 256)!.toString('base64');
    expect(walletKind(libraryCode)?.type).toBe('wallet v5 beta');
    expect(isStandardWallet(libraryCode)).toBe(true);
    expect(Object.keys(WALLET_CODE_HASHES)).toHaveLength(12);
    expect(new Set(Object.values(WALLET_CODE_HASHES).map((k) => k.type)).size).toBe(11);
    expect(walletKind(Cell.EMPTY)).toBeUndefined();
    expect(walletKind(null)).toBeUndefined();
    expect(isStandardWallet(null)).toBe(false);
  });

  it("tonlib's account-state types for the kinds tonlib models", () => {
    const tonlib = Object.fromEntries(Object.values(WALLET_CODE_HASHES).flatMap((k) => (k.tonlib ? [[k.type, k.tonlib]] : [])));
    expect(tonlib).toEqual({
      'wallet v3 r1': { type: 'wallet.v3.accountState', revision: 1 },
      'wallet v3 r2': { type: 'wallet.v3.accountState', revision: 2 },
      'wallet v4 r1': { type: 'wallet.v4.accountState', revision: 1 },
      'wallet v4 r2': { type: 'wallet.v4.accountState', revision: 2 },
    });
  });

  it('reads seqno, wallet_id and is_signature_allowed by layout, as unsigned big-endian fields', () => {
    const v3 = beginCell().storeUint(0xfffffffe, 32).storeUint(0x80000001, 32).storeBuffer(Buffer.alloc(32)).endCell();
    expect(parseWalletData('seqno', v3)).toEqual({ seqno: 0xfffffffe });
    expect(parseWalletData('v3', v3)).toEqual({ seqno: 0xfffffffe, walletId: 0x80000001 });
    const v5 = (allowed: boolean) => beginCell().storeBit(allowed).storeUint(6, 32).storeUint(7, 32).endCell();
    expect(parseWalletData('v5', v5(false))).toEqual({ isSignatureAllowed: false, seqno: 6, walletId: 7 });
    expect(parseWalletData('v5', v5(true))).toEqual({ isSignatureAllowed: true, seqno: 6, walletId: 7 });
    // v5 beta keeps seqno as an int33 whose sign bit means "signatures disabled"; toncenter reads it with
    // v5r1's layout, so a wallet with signatures enabled (sign bit 0) shows is_signature_allowed false,
    // and its wallet id's first 32 bits (the network id) signed.
    expect(parseWalletData('v5beta', beginCell().storeInt(6, 33).storeInt(-239, 32).endCell())).toEqual({ isSignatureAllowed: false, seqno: 6, walletId: -239 });
    expect(parseWalletData('v5beta', beginCell().storeBit(1).storeUint(6, 32).storeUint(7, 32).endCell())).toEqual({ isSignatureAllowed: true, seqno: 6, walletId: 7 });
    expect(parseWalletData('v3', Cell.EMPTY)).toBeNull();
  });
});
