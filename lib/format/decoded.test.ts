import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { decodeBodyCell } from '../actions/bodies';
import { encryptedCommentBody, textCommentBody } from '../devnet/contracts/common';
import { jettonTransferBody } from '../devnet/contracts/jetton';
import { decodedFields } from './decoded';

const BOB = Address.parse(`0:${'b0'.repeat(32)}`);

describe('decoded bodies in the message view', () => {
  it('a jetton transfer: accounts as links, TON amounts as TON, the forwarded comment as a comment', () => {
    const d = decodeBodyCell(jettonTransferBody({ amount: 5n, destination: BOB, responseDestination: null, forwardTonAmount: 10n, forwardPayload: textCommentBody('thanks'), queryId: 3n }));
    expect(decodedFields(d)).toEqual({
      type: 'jetton_transfer',
      fields: [
        { name: 'query_id', kind: 'text', value: '3' },
        { name: 'amount', kind: 'jetton', value: '5' },
        { name: 'destination', kind: 'address', value: `0:${'B0'.repeat(32)}` },
        { name: 'response_destination', kind: 'text', value: '—' },
        { name: 'custom_payload', kind: 'text', value: '—' },
        { name: 'forward_ton_amount', kind: 'ton', value: '10' },
        { name: 'forward_payload', kind: 'comment', value: 'thanks' },
      ],
    });
  });

  it('text comments are left to the comment box; encrypted ones are flagged without their bytes', () => {
    expect(decodedFields({ '@type': 'text_comment', comment: 'hi', type: 'text_comment' })).toBeUndefined();
    expect(decodedFields(null)).toBeUndefined();
    expect(decodedFields(decodeBodyCell(encryptedCommentBody(Buffer.alloc(64, 1))))).toEqual({ type: 'encrypted_text_comment', fields: [] });
  });
});
