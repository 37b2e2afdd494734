-- /jetton/wallets?owner_address|jetton_address&sort=asc|desc: the page's whole order (balance, then id) off
-- the key's index. With (key, balance) alone, the wallets of one balance were all read and sorted by id
-- before the first of the page could be returned: every empty wallet of a jetton, for an ascending page.
-- DropIndex
DROP INDEX "jetton_wallets_owner_balance_idx";

-- DropIndex
DROP INDEX "jetton_wallets_jetton_balance_idx";

-- CreateIndex
CREATE INDEX "jetton_wallets_owner_balance_id_idx" ON "jetton_wallets"("owner", "balance", "id");

-- CreateIndex
CREATE INDEX "jetton_wallets_jetton_balance_id_idx" ON "jetton_wallets"("jetton", "balance", "id");
