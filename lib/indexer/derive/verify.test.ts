// index:verify's check of the derived NFT, DNS and vesting tables: an index the derive stage kept up to date
// matches the get-methods; a row changed behind its back is reported by table, row and column.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '../../log';
import { startTestChain, type TestChain } from '../../testing/chain';
import { Deriver } from './index';
import { verifyDerived } from './verify';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain({ seed: 'derive-verify', rounds: 2, index: true, derive: true });
}, 300_000);
afterAll(() => chain?.close());

const prisma = () => chain.db!.db.prisma;
const verify = () => verifyDerived({ prisma: prisma(), deriver: new Deriver({ prisma: prisma(), lite: chain.lite, tvm: chain.tvm, log, fullConfig: true }), batch: 3 });

describe('verifyDerived', () => {
  it('the tables the derive stage wrote agree with the get-methods', async () => {
    const r = await verify();
    expect(r.differences).toEqual([]);
    // 3 collections, 9 items, 3 names, 1 vesting wallet, 1 multisig, 2 orders, and the sales: the genesis'
    // three (two fixed-price, one auction) and those the traffic listed through the marketplace.
    const sales = await prisma().nftSale.count();
    expect(sales).toBeGreaterThanOrEqual(3);
    expect(r.rows).toBe(19 + sales);
  }, 120_000);

  it('a tampered owner, record, sale price, vesting amount, whitelist, multisig signers and order approvals are each reported', async () => {
    const item = (await prisma().nftItem.findFirst({ where: { collectionAddress: { not: null } }, orderBy: { address: 'asc' } }))!;
    await prisma().nftItem.update({ where: { address: item.address }, data: { ownerAddress: '0:' + '0'.repeat(64) } });
    const name = (await prisma().dnsEntry.findFirst({ where: { domain: 'atlas.ton' } }))!;
    await prisma().dnsEntry.update({ where: { nftItemAddress: name.nftItemAddress }, data: { dnsWallet: null } });
    const sale = (await prisma().nftSale.findFirst({ where: { type: 'getgems_sale' }, orderBy: { address: 'asc' } }))!;
    await prisma().nftSale.update({ where: { address: sale.address }, data: { details: { ...(sale.details as object), full_price: '1' } } });
    const vesting = (await prisma().vestingContract.findFirst())!;
    await prisma().vestingContract.update({ where: { address: vesting.address }, data: { vestingTotalAmount: 1 } });
    const stranger = '0:' + 'A'.repeat(64);
    await prisma().vestingWhitelist.create({ data: { vestingContractAddress: vesting.address, walletAddress: stranger } });
    const multisig = (await prisma().multisigWallet.findFirst())!;
    await prisma().multisigWallet.update({ where: { address: multisig.address }, data: { signers: multisig.signers.slice(1) } });
    const order = (await prisma().multisigOrder.findFirst({ where: { sentForExecution: false } }))!;
    await prisma().multisigOrder.update({ where: { address: order.address }, data: { approvalsNum: 2 } });
    const r = await verify();
    expect(r.differences).toEqual(
      expect.arrayContaining([
        `multisig_wallets ${multisig.address}: signers ${JSON.stringify(multisig.signers.slice(1))} != ${JSON.stringify(multisig.signers)}`,
        `multisig_orders ${order.address}: approvals_num 2 != 1`,
        `nft_items ${item.address}: owner_address 0:${'0'.repeat(64)} != ${item.ownerAddress}`,
        `dns_entries ${name.nftItemAddress}: dns_wallet null != ${name.dnsWallet}`,
        expect.stringMatching(new RegExp(`^nft_sales ${sale.address}: details .*"full_price":"1"`)),
        `vesting_contracts ${vesting.address}: vesting_total_amount 1 != ${vesting.vestingTotalAmount.toFixed()}`,
        expect.stringMatching(new RegExp(`^vesting_whitelist ${vesting.address}: wallet_address \\[.*${stranger}\\] != \\[`)),
      ]),
    );
    expect(r.differences).toHaveLength(7);
  }, 120_000);
});
