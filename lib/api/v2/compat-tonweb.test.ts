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
});
