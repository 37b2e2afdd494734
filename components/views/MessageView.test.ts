// The message view of a decoded body, rendered as the page renders it: fields by kind, sender text escaped.
import { Address } from '@ton/core';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { decodeBody, decodeOpcode } from '@/lib/api/v3/mappers';
import type { MessageJson } from '@/lib/api/v3/models/messages';
import { encryptedCommentBody, textCommentBody } from '@/lib/devnet/contracts/common';
import { jettonTransferBody } from '@/lib/devnet/contracts/jetton';
import { MessageView } from './MessageView';

const CAROL = `0:${'C4'.repeat(32)}`;
const CAROL_FRIENDLY = Address.parse(CAROL).toString({ bounceable: false });

function message(opcode: number, body: Buffer): MessageJson {
  return {
    hash: Buffer.alloc(32, 1).toString('base64'),
    source: `0:${'a1'.repeat(32)}`,
    destination: `0:${'b2'.repeat(32)}`,
    value: '100000000',
    value_extra_currencies: {},
    fwd_fee: '1',
    ihr_fee: '0',
    extra_flags: null,
    created_lt: '1',
    created_at: '1',
    opcode: `0x${(opcode >>> 0).toString(16).padStart(8, '0')}`,
    decoded_opcode: decodeOpcode(opcode),
    ihr_disabled: true,
    bounce: true,
    bounced: false,
    import_fee: null,
    message_content: { hash: Buffer.alloc(32, 2).toString('base64'), body: body.toString('base64'), decoded: decodeBody(opcode, body) },
    init_state: null,
  } as MessageJson;
}
const html = (m: MessageJson) => renderToStaticMarkup(createElement(MessageView, { m, book: { [CAROL]: { user_friendly: CAROL_FRIENDLY, domain: null, interfaces: [] } }, direction: 'in' }));

describe('MessageView with a decoded body', () => {
  it('a jetton transfer lists its fields: the receiver as a link, the forwarded TON as TON, the comment escaped', () => {
    const body = jettonTransferBody({ amount: 12n, destination: Address.parse(CAROL), responseDestination: null, forwardTonAmount: 50_000_000n, forwardPayload: textCommentBody('<b>thanks</b>') }).toBoc();
    const out = html(message(0x0f8a7ea5, body));
    expect(out).toContain('Operation: jetton_transfer');
    expect(out).toContain('data-testid="decoded-body"');
    expect(out).toContain(`href="/account/${CAROL_FRIENDLY}"`);
    expect(out).toMatch(/forward_ton_amount<\/dt><dd[^>]*><span[^>]*>0\.05 <span[^>]*>TON<\/span>/);
    expect(out).toContain('&lt;b&gt;thanks&lt;/b&gt;');
    expect(out).not.toContain('<b>thanks');
  });

  it('an encrypted comment is flagged and its bytes are not shown; a plain comment has no field list', () => {
    const cipher = Buffer.alloc(48, 0xab);
    const enc = html(message(0x2167da4b, encryptedCommentBody(cipher).toBoc()));
    expect(enc).toContain('Encrypted comment');
    expect(enc).not.toContain(cipher.toString('hex'));
    const plain = html(message(0, textCommentBody('hello').toBoc()));
    expect(plain).toContain('data-testid="comment"');
    expect(plain).not.toContain('data-testid="decoded-body"');
  });
});
