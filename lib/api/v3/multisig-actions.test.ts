// OrderAction parsing (api-v3.md §3.19) of order cells built with lib/ton/multisig's writer: each kind of
// body /multisig/orders decodes, a parameter update, and what does not decode.
import { describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, Dictionary, internal, toNano } from '@ton/core';
import { jettonBurnBody } from '../../devnet/contracts/jetton';
import { nftTransferBody } from '../../devnet/contracts/nft';
import { stablecoinChangeAdminBody, stablecoinChangeMetadataUriBody, stablecoinClaimAdminBody, stablecoinSetStatusBody } from '../../devnet/contracts/stablecoin';
import { vestingSendBody } from '../../devnet/contracts/vesting';
import { bocBase64 } from '../../actions/cells';
import { JETTON_TOP_UP_OP, SINGLE_NOMINATOR_OP } from '../../ton/owner-ops';
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
    expect(strange).toMatchObject({ parsed: false, parsed_body_type: 'unknown', parsed_body: null, error: 'unknown order action (opcode 0x12345678)' });
    expect(strange!.body_raw).toBe(bocBase64(actions.get(0)!));

    expect(orderActions(beginCell().storeUint(1, 1).endCell())).toMatchObject([{ parsed: false, parsed_body_type: 'unknown', error: 'unknown order action (no opcode)' }]);
  });

  it("decodes what an owner or admin sends: a governed jetton's admin bodies, a top-up, a single nominator's and a vesting wallet's", () => {
    const uri = 'https://example.org/jetton.json';
    const viaVesting = internal({ to: B, value: toNano('2'), bounce: false, body: 'from the vesting wallet' });
    const bodies = [
      stablecoinChangeAdminBody(B, 11n),
      stablecoinClaimAdminBody(12n),
      stablecoinChangeMetadataUriBody(uri, 13n),
      stablecoinSetStatusBody({ owner: B, status: 3, tonAmount: toNano('0.05'), queryId: 14n }),
      beginCell().storeUint(JETTON_TOP_UP_OP, 32).storeUint(15, 64).endCell(),
      beginCell().storeUint(SINGLE_NOMINATOR_OP.withdraw, 32).storeUint(16, 64).storeCoins(toNano('100')).endCell(),
      beginCell().storeUint(SINGLE_NOMINATOR_OP.changeValidator, 32).storeUint(17, 64).storeAddress(B).endCell(),
      vestingSendBody({ message: viaVesting, queryId: 18n }),
    ];
    const parsed = orderActions(packMultisigOrder(bodies.map(send)));
    expect(parsed.map((a) => [a.parsed, a.parsed_body_type])).toEqual(
      [
        'jetton_change_admin', 'jetton_claim_admin', 'jetton_change_content', 'jetton_call_to', 'jetton_top_up', 'single_nominator_withdraw',
        'single_nominator_change_validator', 'vesting_internal_transfer',
      ].map((t) => [true, t]),
    );
    const [admin, claim, content, callTo, topUp, withdraw, validator, vesting] = parsed.map((a) => a.parsed_body);
    expect(admin).toEqual({ query_id: 11, new_admin_address: rawUpper(B) });
    expect(claim).toEqual({ query_id: 12 });
    expect(content).toEqual({ query_id: 13, new_metadata_url: uri });
    expect(callTo).toMatchObject({ query_id: 14, to_address: rawUpper(B), ton_amount: toNano('0.05').toString(), action_type: 'JettonSetStatus' });
    const setStatus = orderActions(packMultisigOrder([send(Cell.fromBase64(callTo!.action_data as string))]))[0]!;
    expect(setStatus).toMatchObject({ parsed_body_type: 'jetton_set_status', parsed_body: { query_id: 14, new_status: 3 } });
    expect(topUp).toEqual({ query_id: 15 });
    expect(withdraw).toEqual({ query_id: 16, coins: toNano('100').toString() });
    expect(validator).toEqual({ query_id: 17, validator_address: rawUpper(B) });
    expect(vesting).toMatchObject({ query_id: 18, send_mode: 3, destination: rawUpper(B), value: toNano('2').toString(), comment: 'from the vesting wallet' });
  });

  it('keeps the send mode of every message, and a cut admin body says which body it is', () => {
    const modes = [0, 1, 2, 3, 64, 128, 128 + 32, 255];
    const parsed = orderActions(packMultisigOrder(modes.map((sendMode) => ({ ...send(beginCell().endCell()), sendMode }))));
    expect(parsed.map((a) => [a.send_mode, a.parsed_body_type])).toEqual(modes.map((m) => [m, 'ton_transfer']));
    const [cut] = orderActions(packMultisigOrder([send(beginCell().storeUint(SINGLE_NOMINATOR_OP.withdraw, 32).storeUint(1, 16).endCell())]));
    expect(cut).toMatchObject({ parsed: false, parsed_body_type: null, error: expect.stringMatching(/^single_nominator_withdraw/) });
  });
});
