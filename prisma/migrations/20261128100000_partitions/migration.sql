-- Partitioning by masterchain seqno range (docs/scaling.md, "Partitioning"). On PostgreSQL the four big
-- tables become RANGE-partitioned parents: transactions, messages and account_states by mc_block_seqno,
-- actions by trace_mc_seqno_end (all actions of a trace in one partition). PGlite keeps plain tables.
-- Both engines get the SAME columns, primary keys and unique indexes (schema.prisma describes both):
-- PostgreSQL requires every primary key and unique index of a partitioned table to contain the partition
-- key, so those now end with it. action_accounts stays plain on both (see docs/scaling.md).
--
-- The engine is told apart by version(): PGlite's reads "PostgreSQL 18.x (PGlite 0.x) on
-- wasm32-unknown-emscripten", so this file runs unchanged under the app's migrator and `prisma migrate
-- deploy`. On PostgreSQL each table is rebuilt: the plain table is renamed, the partitioned one created
-- with a DEFAULT partition and one range partition (1,000,000 seqnos, lib/db/partitions.ts
-- PARTITION_SIZE) for every range its rows fall in, the rows copied, the old table dropped, then the
-- primary key and indexes built under their old names. It rewrites the four tables once: on a large
-- index plan the disk space (about their size again) and the time (the indexer and API stopped).

-- transactions.mc_block_seqno becomes NOT NULL (a partition key in a primary key must be). The indexer
-- always stored it (only a block parsed without its masterchain block, in tests, lacks it); any row
-- without one takes its block's.
UPDATE "transactions" t SET "mc_block_seqno" = b."mc_block_seqno"
  FROM "blocks" b
 WHERE t."mc_block_seqno" IS NULL AND b."workchain" = t."block_workchain" AND b."shard" = t."block_shard" AND b."seqno" = t."block_seqno";

-- PostgreSQL only: creates the range partition [lo, hi) of a parent partitioned by this migration, named
-- <parent>_p<lo>, moving into it any rows of that range its DEFAULT partition (<parent>_default) holds
-- (PostgreSQL refuses to add a range whose rows sit in the default). Created standalone, then attached:
-- ATTACH takes a SHARE UPDATE EXCLUSIVE lock on the parent where CREATE TABLE ... PARTITION OF takes an
-- ACCESS EXCLUSIVE one, so reads and writes of the other partitions go on. Identifiers are quoted by
-- format(%I); the bounds are integers. Called by lib/db/partitions.ts as the index advances.
DO $$
BEGIN
  IF version() LIKE '%PGlite%' THEN
    RETURN;
  END IF;
  CREATE FUNCTION atlas_create_partition(parent text, lo integer, hi integer) RETURNS text
  LANGUAGE plpgsql AS $fn$
  DECLARE
    part text := parent || '_p' || lo;
    key text;
  BEGIN
    SELECT a.attname INTO STRICT key
      FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
     WHERE p.partrelid = parent::regclass;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, parent);
    EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= %s AND %I < %s RETURNING *) INSERT INTO %I SELECT * FROM moved',
                   parent || '_default', key, lo, key, hi, part);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', parent, part, lo, hi);
    RETURN part;
  END
  $fn$;
END
$$;

DO $$
DECLARE
  size CONSTANT integer := 1000000; -- lib/db/partitions.ts PARTITION_SIZE
  k integer;
BEGIN
  IF version() LIKE '%PGlite%' THEN
    -- PGlite: the same keys on the plain tables.
    ALTER TABLE "transactions" ALTER COLUMN "mc_block_seqno" SET NOT NULL;
    ALTER TABLE "transactions" DROP CONSTRAINT "transactions_pkey", ADD CONSTRAINT "transactions_pkey" PRIMARY KEY ("hash", "mc_block_seqno");
    DROP INDEX "transactions_account_lt_key";
    CREATE UNIQUE INDEX "transactions_account_lt_mc_block_seqno_key" ON "transactions"("account", "lt", "mc_block_seqno");

    ALTER TABLE "messages" ADD COLUMN "mc_block_seqno" INTEGER;
    UPDATE "messages" m SET "mc_block_seqno" = t."mc_block_seqno" FROM "transactions" t WHERE t."hash" = m."tx_hash";
    ALTER TABLE "messages" ALTER COLUMN "mc_block_seqno" SET NOT NULL;
    ALTER TABLE "messages" DROP CONSTRAINT "messages_pkey", ADD CONSTRAINT "messages_pkey" PRIMARY KEY ("tx_hash", "msg_hash", "direction", "mc_block_seqno");

    -- A state is the one a transaction left behind (its account_state_hash_after), stored with the
    -- masterchain block that transaction's block was registered in. A state no transaction names (none
    -- is written so) goes to 0.
    ALTER TABLE "account_states" ADD COLUMN "mc_block_seqno" INTEGER;
    UPDATE "account_states" s SET "mc_block_seqno" = x.seqno
      FROM (SELECT "account_state_hash_after" AS hash, min("mc_block_seqno") AS seqno FROM "transactions" GROUP BY 1) x
     WHERE x.hash = s."hash";
    UPDATE "account_states" SET "mc_block_seqno" = 0 WHERE "mc_block_seqno" IS NULL;
    ALTER TABLE "account_states" ALTER COLUMN "mc_block_seqno" SET NOT NULL;
    ALTER TABLE "account_states" DROP CONSTRAINT "account_states_pkey", ADD CONSTRAINT "account_states_pkey" PRIMARY KEY ("hash", "mc_block_seqno");

    ALTER TABLE "actions" DROP CONSTRAINT "actions_pkey", ADD CONSTRAINT "actions_pkey" PRIMARY KEY ("trace_id", "action_id", "trace_mc_seqno_end");
    RETURN;
  END IF;

  -- transactions
  ALTER TABLE "transactions" RENAME TO "transactions_plain";
  CREATE TABLE "transactions" (LIKE "transactions_plain" INCLUDING DEFAULTS) PARTITION BY RANGE ("mc_block_seqno");
  ALTER TABLE "transactions" ALTER COLUMN "mc_block_seqno" SET NOT NULL;
  CREATE TABLE "transactions_default" PARTITION OF "transactions" DEFAULT;
  FOR k IN SELECT DISTINCT "mc_block_seqno" / size FROM "transactions_plain" WHERE "mc_block_seqno" IS NOT NULL LOOP
    PERFORM atlas_create_partition('transactions', k * size, (k + 1) * size);
  END LOOP;
  INSERT INTO "transactions" SELECT * FROM "transactions_plain";

  -- messages: with the seqno of their transaction
  ALTER TABLE "messages" RENAME TO "messages_plain";
  CREATE TABLE "messages" (LIKE "messages_plain" INCLUDING DEFAULTS, "mc_block_seqno" INTEGER NOT NULL) PARTITION BY RANGE ("mc_block_seqno");
  CREATE TABLE "messages_default" PARTITION OF "messages" DEFAULT;
  FOR k IN SELECT DISTINCT "mc_block_seqno" / size FROM "transactions_plain" WHERE "mc_block_seqno" IS NOT NULL LOOP
    PERFORM atlas_create_partition('messages', k * size, (k + 1) * size);
  END LOOP;
  -- A message without its transaction (none is written so) fails the NOT NULL: the migration stops.
  INSERT INTO "messages" SELECT m.*, t."mc_block_seqno" FROM "messages_plain" m LEFT JOIN "transactions_plain" t ON t."hash" = m."tx_hash";
  DROP TABLE "messages_plain";

  -- account_states: with the seqno of the transaction that left them behind (as on PGlite above)
  ALTER TABLE "account_states" RENAME TO "account_states_plain";
  CREATE TABLE "account_states" (LIKE "account_states_plain" INCLUDING DEFAULTS, "mc_block_seqno" INTEGER NOT NULL) PARTITION BY RANGE ("mc_block_seqno");
  CREATE TABLE "account_states_default" PARTITION OF "account_states" DEFAULT;
  FOR k IN SELECT DISTINCT "mc_block_seqno" / size FROM "transactions_plain" WHERE "mc_block_seqno" IS NOT NULL LOOP
    PERFORM atlas_create_partition('account_states', k * size, (k + 1) * size);
  END LOOP;
  INSERT INTO "account_states"
  SELECT s.*, coalesce(x.seqno, 0) FROM "account_states_plain" s
    LEFT JOIN (SELECT "account_state_hash_after" AS hash, min("mc_block_seqno") AS seqno FROM "transactions_plain" GROUP BY 1) x ON x.hash = s."hash";
  DROP TABLE "account_states_plain";
  DROP TABLE "transactions_plain";

  -- actions
  ALTER TABLE "actions" RENAME TO "actions_plain";
  CREATE TABLE "actions" (LIKE "actions_plain" INCLUDING DEFAULTS) PARTITION BY RANGE ("trace_mc_seqno_end");
  CREATE TABLE "actions_default" PARTITION OF "actions" DEFAULT;
  FOR k IN SELECT DISTINCT "trace_mc_seqno_end" / size FROM "actions_plain" LOOP
    PERFORM atlas_create_partition('actions', k * size, (k + 1) * size);
  END LOOP;
  INSERT INTO "actions" SELECT * FROM "actions_plain";
  DROP TABLE "actions_plain";

  -- Keys and indexes, built once over the copied rows, under the names the plain tables had.
  ALTER TABLE "transactions" ADD CONSTRAINT "transactions_pkey" PRIMARY KEY ("hash", "mc_block_seqno");
  CREATE UNIQUE INDEX "transactions_account_lt_mc_block_seqno_key" ON "transactions"("account", "lt", "mc_block_seqno");
  CREATE INDEX "transactions_lt_idx" ON "transactions"("lt");
  CREATE INDEX "transactions_now_idx" ON "transactions"("now");
  CREATE INDEX "transactions_mc_block_seqno_idx" ON "transactions"("mc_block_seqno");
  CREATE INDEX "transactions_block_workchain_block_shard_block_seqno_idx" ON "transactions"("block_workchain", "block_shard", "block_seqno");
  CREATE INDEX "transactions_trace_id_idx" ON "transactions"("trace_id");

  ALTER TABLE "messages" ADD CONSTRAINT "messages_pkey" PRIMARY KEY ("tx_hash", "msg_hash", "direction", "mc_block_seqno");
  CREATE INDEX "messages_msg_hash_idx" ON "messages"("msg_hash");
  CREATE INDEX "messages_msg_hash_norm_idx" ON "messages"("msg_hash_norm");
  CREATE INDEX "messages_sort_lt_msg_hash_idx" ON "messages"("sort_lt", "msg_hash");
  CREATE INDEX "messages_source_sort_lt_msg_hash_idx" ON "messages"("source", "sort_lt", "msg_hash");
  CREATE INDEX "messages_destination_sort_lt_msg_hash_idx" ON "messages"("destination", "sort_lt", "msg_hash");
  CREATE INDEX "messages_opcode_sort_lt_msg_hash_idx" ON "messages"("opcode", "sort_lt", "msg_hash");
  CREATE INDEX "messages_created_at_msg_hash_idx" ON "messages"("created_at", "msg_hash");
  CREATE INDEX "messages_body_hash_idx" ON "messages"("body_hash");
  CREATE INDEX "messages_trace_id_idx" ON "messages"("trace_id");

  ALTER TABLE "account_states" ADD CONSTRAINT "account_states_pkey" PRIMARY KEY ("hash", "mc_block_seqno");
  CREATE INDEX "account_states_account_idx" ON "account_states"("account");

  ALTER TABLE "actions" ADD CONSTRAINT "actions_pkey" PRIMARY KEY ("trace_id", "action_id", "trace_mc_seqno_end");
  CREATE INDEX "actions_action_id_idx" ON "actions"("action_id");
  CREATE INDEX "actions_trace_end_lt_idx" ON "actions"("trace_end_lt");
  CREATE INDEX "actions_trace_end_utime_idx" ON "actions"("trace_end_utime");
  CREATE INDEX "actions_trace_mc_seqno_end_idx" ON "actions"("trace_mc_seqno_end");
  CREATE INDEX "actions_type_trace_end_lt_idx" ON "actions"("type", "trace_end_lt");

  -- The copies have no statistics yet; the planner needs them before the first query.
  ANALYZE "transactions";
  ANALYZE "messages";
  ANALYZE "account_states";
  ANALYZE "actions";
END
$$;
