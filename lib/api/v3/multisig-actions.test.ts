// OrderAction parsing (api-v3.md §3.19) of order cells built with lib/ton/multisig's writer: each kind of
// body /multisig/orders decodes, a parameter update, and what does not decode.
import { describe, expect, it } from 'vitest';
import { Address, beginCell, type Cell, Dictionary, internal, toNano } from '@ton/core';
import { jettonBurnBody } from '../../devnet/contracts/jetton';
import { nftTransferBody } from '../../devnet/contracts/nft';
import { rawUpper } from '../../ton/address';
import { packMultisigOrder } from '../../ton/multisig';
import { orderActions } from './multisig-actions';

const A = new Address(0, Buffer.alloc(32, 1));
const B = new Address(0, Buffer.alloc(32, 2));
const send = (body: Cell) => ({
  type: 'transfer' as const,
  sendMode: 1,
  message: internal({ to: A, value: toNano('0.5'), bounce: true, body }),
});

describe('orderActions', () => {
  it('decodes burns, NFT transfers and encrypted comments; an unknown opcode is `unknown` with its data', () => {
    const unknown = beginCell().storeUint(0xdeadbeef, 32).storeUint(7, 8).endCell();
    const encrypted = beginCell().storeUint(0x2167da4b, 32).storeBuffer(Buffer.alloc(4, 9)).endCell();
    const [burn, nft, enc, other] = orderActions(
      packMultisigOrder([
        send(jettonBurnBody({ amount: 5n, responseDestination: B, queryId: 3n })),
        send(nftTransferBody({ newOwner: B, responseDestination: A, forwardAmount: 1n })),
        send(encrypted),
        send(unknown),
      ]),
    );
    expect(burn).toMatchObject({ destination: rawUpper(A), value: toNano('0.5').toString(), send_mode: 1, parsed: true, parsed_body_type: 'jetton_burn' });
    expect(burn!.parsed_body).toEqual({ query_id: 3, amount: '5', response_destination: rawUpper(B) });
    expect(nft).toMatchObject({ parsed_body_type: 'nft_transfer', parsed_body: { new_owner: rawUpper(B), response_destination: rawUpper(A), forward_amount: '1' } });
    expect(enc).toMatchObject({ parsed_body_type: 'ton_transfer', parsed_body: { encrypted: true } });
    expect(other).toMatchObject({ parsed: true, parsed_body_type: 'unknown', parsed_body: { opcode: 0xdeadbeef } });
  });

  it('a parameter update has no destination, value or body', () => {
    const [u] = orderActions(packMultisigOrder([{ type: 'update', threshold: 1, signers: [A, B], proposers: [B] }]));
    expect(u).toEqual({
      destination: null,
      value: null,
      body_raw: null,
      parsed: true,
      error: null,
      parsed_body: { new_threshold: 1, new_signers: [rawUpper(A), rawUpper(B)], new_proposers: [rawUpper(B)] },
      parsed_body_type: 'multisig_update_params',
      send_mode: null,
    });
  });

  it('a cut jetton transfer is not parsed and says why; an action of another kind and a cell that is no order are errors', () => {
    const cut = beginCell().storeUint(0x0f8a7ea5, 32).storeUint(1, 64).storeUint(1, 3).endCell();
    const [bad] = orderActions(packMultisigOrder([send(cut)]));
    expect(bad).toMatchObject({ parsed: false, parsed_body: null, parsed_body_type: null });
    expect(bad!.error).toMatch(/jetton_transfer/);

    const actions = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
    actions.set(0, beginCell().storeUint(0x12345678, 32).endCell());
    const [strange] = orderActions(beginCell().storeDictDirect(actions).endCell());
    expect(strange).toMatchObject({ parsed: false, error: 'unknown order action' });

    expect(orderActions(beginCell().storeUint(1, 1).endCell())).toMatchObject([{ parsed: false, error: 'unknown order action' }]);
  });
});
