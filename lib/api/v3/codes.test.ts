// Contract code knowledge: wallet code hashes, wallet data layouts, get-method ids and interfaces.
import { beginCell, Cell } from '@ton/core';
import * as ton from '@ton/ton';
import { jettonMinterCode } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-minter';
import { nftItemCode } from '@ton-community/assets-sdk/dist/nft/contracts/build/nft-item';
import { describe, expect, it } from 'vitest';
import { contractMethods, detectInterfaces, methodId } from './interfaces';
import { isStandardWallet, parseWalletData, WALLET_CODE_HASHES } from './wallets';

describe('standard wallets', () => {
  it('the code hashes are those of @ton/ton\'s wallet contracts (v4r1 is not in @ton/ton)', () => {
    const pub = Buffer.alloc(32);
    const classes: [string, { create(a: { workchain: number; publicKey: Buffer }): { init: { code: Cell } } }][] = [
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
    for (const [type, C] of classes) {
      const hash = C.create({ workchain: 0, publicKey: pub }).init.code.hash().toString('base64');
      expect(WALLET_CODE_HASHES[hash]?.type).toBe(type);
      expect(isStandardWallet(hash)).toBe(true);
    }
    expect(Object.keys(WALLET_CODE_HASHES)).toHaveLength(11);
    expect(isStandardWallet(null)).toBe(false);
  });

  it('reads seqno, wallet_id and is_signature_allowed by layout', () => {
    const data = (build: (b: ReturnType<typeof beginCell>) => unknown) => {
      const b = beginCell();
      build(b);
      return b.endCell();
    };
    expect(parseWalletData('seqno', data((b) => b.storeUint(5, 32).storeBuffer(Buffer.alloc(32))))).toEqual({ seqno: 5 });
    expect(parseWalletData('v3', data((b) => b.storeUint(5, 32).storeUint(698983191, 32)))).toEqual({ seqno: 5, walletId: 698983191 });
    expect(parseWalletData('v5', data((b) => b.storeBit(0).storeUint(6, 32).storeUint(7, 32)))).toEqual({ isSignatureAllowed: false, seqno: 6, walletId: 7 });
    expect(parseWalletData('v5beta', data((b) => b.storeInt(6, 33).storeUint(7, 32)))).toEqual({ isSignatureAllowed: true, seqno: 6, walletId: 7 });
    expect(parseWalletData('v3', Cell.EMPTY)).toBeNull();
  });
});

describe('get-method ids and interfaces', () => {
  it('method ids are crc16(name) | 0x10000', () => {
    expect(methodId('seqno')).toBe(85143);
    expect(methodId('get_wallet_data')).toBe(97026);
    expect(methodId('get_jetton_data')).toBe(106029);
  });

  it('reads the method dictionary of FunC code; none for other code', () => {
    const minter = Cell.fromBase64(jettonMinterCode.codeBoc);
    expect(contractMethods(minter)).toEqual([0, 9, 103289, 106029]);
    expect(contractMethods(Cell.fromBase64(nftItemCode.codeBoc))).toEqual([0, 1, 2, 3, 102351]);
    expect(contractMethods(Cell.EMPTY)).toBeNull();
    expect(contractMethods(beginCell().storeUint(0xff00, 16).storeUint(0, 24).endCell())).toBeNull();
  });

  it('code hash match wins; else every interface whose methods are all present, sorted', () => {
    const v5 = ton.WalletContractV5R1.create({ workchain: 0, publicKey: Buffer.alloc(32) }).init.code.hash().toString('base64');
    expect(detectInterfaces(v5, null)).toEqual(['wallet_v5r1']);
    expect(detectInterfaces(null, [methodId('get_jetton_data'), methodId('get_wallet_address')])).toEqual(['jetton_master']);
    expect(detectInterfaces('x', [methodId('get_referral_data'), methodId('get_nft_data')])).toEqual(['nft_item', 'storm_referral']);
    expect(detectInterfaces('x', [])).toEqual([]);
    expect(detectInterfaces('x', [1, 2, 3])).toEqual([]);
  });
});
