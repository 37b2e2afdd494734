// Contract code knowledge: get-method ids and interfaces (wallet codes themselves: lib/ton/wallets.test.ts).
import { beginCell, Cell } from '@ton/core';
import * as ton from '@ton/ton';
import { jettonMinterCode } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-minter';
import { nftItemCode } from '@ton-community/assets-sdk/dist/nft/contracts/build/nft-item';
import { describe, expect, it } from 'vitest';
import { contractMethods, methodId } from './contract-methods';
import { detectInterfaces } from './interfaces';
import { WALLET_CODE_HASHES } from './wallets';

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

  it("names every standard wallet code by lib/ton/wallets.ts's table, both of v5 beta's codes included", () => {
    for (const [hash, kind] of Object.entries(WALLET_CODE_HASHES)) expect([hash, detectInterfaces(hash, null)]).toEqual([hash, [kind.interface]]);
    expect(detectInterfaces('5M87L0xtamHqDytUR9JmeFsmrzY32y3u5rzRqoJvNBI=', null)).toEqual(['wallet_v5_beta']);
    expect(detectInterfaces('89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M=', null)).toEqual(['wallet_v5_beta']);
  });
});
