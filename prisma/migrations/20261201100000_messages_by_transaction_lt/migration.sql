-- A page of transactions reads their messages by (tx_lt, tx_hash) (lib/api/v3/queries/transactions-load.ts):
-- the transactions of one block have adjacent lts, so a block's messages sit in adjacent leaves of this
-- index, where the primary key, led by tx_hash, scattered them one random leaf per transaction. New rows
-- arrive in rising lt, at the index's right edge.
CREATE INDEX "messages_tx_lt_tx_hash_idx" ON "messages"("tx_lt", "tx_hash");
