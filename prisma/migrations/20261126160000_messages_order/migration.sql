-- /api/v3/messages pages read off an index in the route's order instead of grouping and sorting every
-- matching row: the order key (created_lt; an external-in message has none and sorts by the lt of its
-- receiving transaction) becomes a column, and each filter the route offers gets an index led by it and
-- ending in that key and msg_hash, the tie-breaker. The created_lt indexes they replace served only it.
ALTER TABLE "messages" ADD COLUMN "sort_lt" BIGINT;
UPDATE "messages" SET "sort_lt" = coalesce("created_lt", "tx_lt");
ALTER TABLE "messages" ALTER COLUMN "sort_lt" SET NOT NULL;

DROP INDEX "messages_created_lt_idx";
DROP INDEX "messages_source_created_lt_idx";
DROP INDEX "messages_destination_created_lt_idx";
DROP INDEX "messages_opcode_created_lt_idx";

CREATE INDEX "messages_sort_lt_msg_hash_idx" ON "messages"("sort_lt", "msg_hash");
CREATE INDEX "messages_source_sort_lt_msg_hash_idx" ON "messages"("source", "sort_lt", "msg_hash");
CREATE INDEX "messages_destination_sort_lt_msg_hash_idx" ON "messages"("destination", "sort_lt", "msg_hash");
CREATE INDEX "messages_opcode_sort_lt_msg_hash_idx" ON "messages"("opcode", "sort_lt", "msg_hash");
CREATE INDEX "messages_created_at_msg_hash_idx" ON "messages"("created_at", "msg_hash");
