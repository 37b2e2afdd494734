-- Jetton transfers, jetton burns and NFT transfers were written without their transaction's trace_id
-- (null on every /api/v3/jetton/transfers, /jetton/burns and /nft/transfers row). Rows written from
-- now on carry it (lib/indexer/derive/trace-ids.ts); this fills the rows already stored. Transactions
-- still without a trace (an index whose trace backfill has not reached them) leave theirs null: the
-- trace backfill fills them when it gets there.
UPDATE "jetton_transfers" AS r SET "trace_id" = t."trace_id"
FROM "transactions" AS t WHERE t."hash" = r."tx_hash" AND r."trace_id" IS NULL AND t."trace_id" IS NOT NULL;

UPDATE "jetton_burns" AS r SET "trace_id" = t."trace_id"
FROM "transactions" AS t WHERE t."hash" = r."tx_hash" AND r."trace_id" IS NULL AND t."trace_id" IS NOT NULL;

UPDATE "nft_transfers" AS r SET "trace_id" = t."trace_id"
FROM "transactions" AS t WHERE t."hash" = r."tx_hash" AND r."trace_id" IS NULL AND t."trace_id" IS NOT NULL;
