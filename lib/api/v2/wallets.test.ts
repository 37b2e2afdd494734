import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { walletCodeHashes, walletFields, walletKind } from './wallets';

describe('wallet detection', () => {
  it("knows toncenter's wallet code hashes (api-v2.md §3.4) under its wallet_type names", async () => {
    expect(await walletCodeHashes()).toEqual({
      'wallet v1 r1': 'oM/CxIruFqJx8s/AtzgtgXVs7LEBfQd/qqs7tgL2how=',
      'wallet v1 r2': '1JAvzJ+tdGmPqONTIgpo2g3PcuMryy657gQhfBfTBiw=',
      'wallet v1 r3': 'WHzHie/xyE9G7DeX5F/ICaFP9a4k8eDHpqmcydyQYf8=',
      'wallet v2 r1': 'XJpeaMEI4YchoHxC+ZVr+zmtd+xtYktgxXbsiO7mUyk=',
      'wallet v2 r2': '/pUw0yQ4Uwg+8u8LTCkIwKv2+hwx6iQ6rKpb+MfXU/E=',
      'wallet v3 r1': 'thBBpYp5gLlG6PueGY48kE0keZ/6NldOpCUcQaVm9YE=',
      'wallet v3 r2': 'hNr6RJ+Ypph3ibojI1gHK8D3bcRSQAKl0JGLmnXS1Zk=',
      'wallet v4 r1': 'ZN1UgFUixb6KnbWc6gEFzPDQh4bKeb64y3nogKjXMi0=',
      'wallet v4 r2': '/rX/aCDi/w2Ug+fg1iyBfYRniftK5YDIeIZtlZ2r1cA=',
      'wallet v5 beta': '89fKU0k97trCizgZhqhJQDy6w9LFhHea8IEGWvCsS5M=',
      'wallet v5 r1': 'IINLe3KxEhR+Gy+0V7hOdNGjDwT3N9T2KmaOlVLSty8=',
    });
  });

  it('reads seqno, wallet_id and the v5 signature flag as unsigned big-endian fields', async () => {
    expect(await walletKind(null)).toBeUndefined();
    const data = beginCell().storeBit(true).storeUint(0xfffffffe, 32).storeUint(0x80000001, 32).endCell();
    expect(walletFields({ type: 'wallet v5 r1', layout: 'v5' }, data)).toEqual({ is_signature_allowed: true, seqno: 0xfffffffe, wallet_id: 0x80000001 });
    const v3 = beginCell().storeUint(7, 32).storeUint(698983191, 32).storeBuffer(Buffer.alloc(32)).endCell();
    expect(walletFields({ type: 'wallet v3 r2', layout: 'seqno_id' }, v3)).toEqual({ seqno: 7, wallet_id: 698983191 });
    expect(walletFields({ type: 'wallet v1 r3', layout: 'seqno' }, v3)).toEqual({ seqno: 7 });
  });
});
