-- Pages the token routes allow without a key to narrow them, read off an index instead of sorted out of
-- the whole table: /jetton/wallets?sort=asc|desc (balance, then id) with no owner or jetton, and
-- /nft/items?sort_by_last_transaction_lt=true (newest first; ties by id put in order as they come).
-- CreateIndex
CREATE INDEX "jetton_wallets_balance_id_idx" ON "jetton_wallets"("balance", "id");

-- CreateIndex
CREATE INDEX "nft_items_last_transaction_lt_idx" ON "nft_items"("last_transaction_lt");
