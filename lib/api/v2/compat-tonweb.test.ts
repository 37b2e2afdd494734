// Acceptance (issue 4): tonweb, unmodified, against Atlas's /api/v2/jsonRPC over real HTTP on the devnet.
import { Address } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import TonWeb from 'tonweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpTestServer } from '../../testing/http-server';
import { startTestChain, type TestChain } from '../../testing/chain';

let chain: TestChain;
let server: HttpTestServer;
let tonweb: TonWeb;

beforeAll(async () => {
  chain = await startTestChain({ seed: 'v2-tonweb', rounds: 2 });
  server = await chain.serve();
  tonweb = new TonWeb(new TonWeb.HttpProvider(`${server.url}/api/v2/jsonRPC`));
}, 60_000);
afterAll(async () => {
  await server?.close();
  await chain?.close();
});

const liteBalance = async (address: string) =>
  (await chain.lite.getAccountState(Address.parse(address), (await chain.lite.getMasterchainInfo()).last)).balance.coins;

describe('tonweb against /api/v2/jsonRPC', () => {
  it('getBalance', async () => {
    const alice = chain.account('alice').friendly.bounceable;
    expect(await tonweb.getBalance(alice)).toBe((await liteBalance(alice)).toString());
  });

  it('getTransactions, newest first', async () => {
    const alice = chain.account('alice').friendly.bounceable;
    const txs = (await tonweb.getTransactions(alice, 3)) as { transaction_id: { lt: string } }[];
    expect(txs).toHaveLength(3);
    const lts = txs.map((t) => BigInt(t.transaction_id.lt));
    expect(lts[0]! > lts[1]! && lts[1]! > lts[2]!).toBe(true);
  });

  it("a get-method call: the jetton minter's get_jetton_data", async () => {
    const minter = chain.account('jetton_minter').friendly.bounceable;
    const data = (await tonweb.provider.call2(minter, 'get_jetton_data')) as unknown[];
    // total_supply, mintable, admin address, content, wallet code
    expect(data).toHaveLength(5);
    const own = await chain.lite.provider(Address.parse(minter)).get('get_jetton_data', []);
    expect((data[0] as { toString(): string }).toString()).toBe(own.stack.readBigNumber().toString());
    expect(BigInt((data[0] as { toString(): string }).toString())).toBeGreaterThan(0n);
  });

  it("a wallet's seqno, and a transfer through sendBoc that lands on the chain", async () => {
    const a = chain.account('alice');
    const secretKey = Uint8Array.from(Buffer.from(a.secret_key_hex!, 'hex'));
    const WalletV4 = tonweb.wallet.all.v4R2;
    const wallet = new WalletV4(tonweb.provider, { publicKey: secretKey.subarray(32), wc: 0 });
    expect((await wallet.getAddress()).toString(false)).toBe(a.address);
    const seqno = (await wallet.methods.seqno().call()) as number;
    const own = await chain.lite.open(WalletContractV4.create({ workchain: 0, publicKey: Buffer.from(secretKey.subarray(32)) })).getSeqno();
    expect(seqno).toBe(own);

    const bob = chain.account('bob').friendly.nonBounceable;
    await wallet.methods
      .transfer({ secretKey, toAddress: bob, amount: TonWeb.utils.toNano('0.25'), seqno, payload: 'sent by tonweb', sendMode: 3 })
      .send();
    await chain.seal();
    expect(await wallet.methods.seqno().call()).toBe(seqno + 1);
    const [tx] = (await tonweb.getTransactions(a.friendly.bounceable, 1)) as { out_msgs: { message: string; value: string }[] }[];
    expect(tx!.out_msgs[0]).toMatchObject({ message: 'sent by tonweb', value: '250000000' });
  });

  it('getWalletInfo: wallet kinds, v5 beta included, with extra_currencies as getAddressInfo has them', async () => {
    const alice = chain.account('alice').friendly.bounceable;
    const info = (await tonweb.provider.getWalletInfo(alice)) as Record<string, unknown>;
    expect(info).toMatchObject({ wallet: true, wallet_type: 'wallet v4 r2', account_state: 'active', extra_currencies: [] });
    expect(info.extra_currencies).toEqual(((await tonweb.provider.getAddressInfo(alice)) as { extra_currencies: unknown }).extra_currencies);
    const beta = (await tonweb.provider.getWalletInfo(chain.account('wallet_v5beta').friendly.bounceable)) as Record<string, unknown>;
    expect(beta).toMatchObject({ wallet: true, wallet_type: 'wallet v5 beta', seqno: 0, wallet_id: -239, is_signature_allowed: false, account_state: 'active' });
  });

  it('provider.sendQuery (sendQuerySimple): a wallet deployed from its parts as cell objects', async () => {
    type TonwebCell = { bits: { array: Uint8Array; cursor: number }; refs: TonwebCell[] };
    // tonweb has no serializer for this form: a client writes it from the cell's bits and refs.
    const object = (c: TonwebCell): unknown => ({
      data: { b64: Buffer.from(c.bits.array.subarray(0, Math.ceil(c.bits.cursor / 8))).toString('base64'), len: c.bits.cursor },
      refs: c.refs.map(object),
      special: false,
    });
    const keys = TonWeb.utils.nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(28));
    const wallet = new tonweb.wallet.all.v4R2(tonweb.provider, { publicKey: keys.publicKey, wc: 0 });
    const address = await wallet.getAddress();
    // Funds for the new wallet, from alice.
    const a = chain.account('alice');
    const aliceSecret = Uint8Array.from(Buffer.from(a.secret_key_hex!, 'hex'));
    const aliceWallet = new tonweb.wallet.all.v4R2(tonweb.provider, { publicKey: aliceSecret.subarray(32), wc: 0 });
    const seqno = (await aliceWallet.methods.seqno().call()) as number;
    await aliceWallet.methods.transfer({ secretKey: aliceSecret, toAddress: address.toString(true, true, false), amount: TonWeb.utils.toNano('1'), seqno, sendMode: 3 }).send();
    await chain.seal();

    const bob = chain.account('bob').friendly.bounceable;
    const q = await wallet.createTransferMessage(keys.secretKey, bob, TonWeb.utils.toNano('0.1'), 0, 'deployed by sendQuery');
    const sent = await tonweb.provider.sendQuery({ address: address.toString(true, true, true), body: object(q.body), init_code: object(q.code!), init_data: object(q.data!) });
    expect(sent).toMatchObject({ '@type': 'ok' });
    await chain.seal();
    expect(await wallet.methods.seqno().call()).toBe(1);
    const [tx] = (await tonweb.getTransactions(address.toString(true, true, true), 1)) as { out_msgs: { message: string }[] }[];
    expect(tx!.out_msgs[0]).toMatchObject({ message: 'deployed by sendQuery' });
  });
});
