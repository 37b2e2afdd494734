-- A page of transactions reads their descriptions by (mc_block_seqno, lt) (lib/api/v3/queries/transactions-load.ts):
-- a block's transactions sit together in this index, where the primary key, led by the hash, scattered
-- them one random leaf per transaction. It replaces the index on mc_block_seqno alone, whose every use it
-- serves as well, and a masterchain block's page reads its newest rows off it in lt order.
DROP INDEX "transactions_mc_block_seqno_idx";
CREATE INDEX "transactions_mc_block_seqno_lt_idx" ON "transactions"("mc_block_seqno", "lt");
