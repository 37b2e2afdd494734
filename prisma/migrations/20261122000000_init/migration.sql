-- CreateTable
CREATE TABLE "indexer_state" (
    "id" VARCHAR(32) NOT NULL,
    "network" VARCHAR(32) NOT NULL,
    "zero_state_root_hash" BYTEA NOT NULL,
    "zero_state_file_hash" BYTEA NOT NULL,
    "last_mc_seqno" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "indexer_state_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blocks" (
    "workchain" INTEGER NOT NULL,
    "shard" BIGINT NOT NULL,
    "seqno" INTEGER NOT NULL,
    "root_hash" BYTEA NOT NULL,
    "file_hash" BYTEA NOT NULL,
    "mc_block_seqno" INTEGER,
    "global_id" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "after_merge" BOOLEAN NOT NULL,
    "before_split" BOOLEAN NOT NULL,
    "after_split" BOOLEAN NOT NULL,
    "want_merge" BOOLEAN NOT NULL,
    "want_split" BOOLEAN NOT NULL,
    "key_block" BOOLEAN NOT NULL,
    "vert_seqno_incr" BOOLEAN NOT NULL,
    "flags" INTEGER NOT NULL,
    "gen_utime" BIGINT NOT NULL,
    "start_lt" BIGINT NOT NULL,
    "end_lt" BIGINT NOT NULL,
    "validator_list_hash_short" BIGINT NOT NULL,
    "gen_catchain_seqno" INTEGER NOT NULL,
    "min_ref_mc_seqno" INTEGER NOT NULL,
    "prev_key_block_seqno" INTEGER NOT NULL,
    "vert_seqno" INTEGER NOT NULL,
    "master_ref_seqno" INTEGER NOT NULL,
    "rand_seed" BYTEA NOT NULL,
    "created_by" BYTEA NOT NULL,
    "tx_count" INTEGER NOT NULL,
    "prev_blocks" JSONB NOT NULL,

    CONSTRAINT "blocks_pkey" PRIMARY KEY ("workchain","shard","seqno")
);

-- CreateTable
CREATE TABLE "transactions" (
    "hash" BYTEA NOT NULL,
    "account" VARCHAR(70) NOT NULL,
    "lt" BIGINT NOT NULL,
    "now" INTEGER NOT NULL,
    "block_workchain" INTEGER NOT NULL,
    "block_shard" BIGINT NOT NULL,
    "block_seqno" INTEGER NOT NULL,
    "mc_block_seqno" INTEGER,
    "trace_id" BYTEA,
    "prev_trans_hash" BYTEA NOT NULL,
    "prev_trans_lt" BIGINT NOT NULL,
    "orig_status" VARCHAR(16) NOT NULL,
    "end_status" VARCHAR(16) NOT NULL,
    "total_fees" DECIMAL(39,0) NOT NULL,
    "total_fees_extra_currencies" JSONB,
    "description" JSONB NOT NULL,
    "account_state_hash_before" BYTEA NOT NULL,
    "account_state_hash_after" BYTEA NOT NULL,

    CONSTRAINT "transactions_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "messages" (
    "tx_hash" BYTEA NOT NULL,
    "tx_lt" BIGINT NOT NULL,
    "msg_hash" BYTEA NOT NULL,
    "direction" VARCHAR(3) NOT NULL,
    "trace_id" BYTEA,
    "source" VARCHAR(70),
    "destination" VARCHAR(70),
    "value" DECIMAL(39,0),
    "value_extra_currencies" JSONB,
    "fwd_fee" DECIMAL(39,0),
    "ihr_fee" DECIMAL(39,0),
    "extra_flags" DECIMAL(39,0),
    "created_lt" BIGINT,
    "created_at" BIGINT,
    "opcode" INTEGER,
    "ihr_disabled" BOOLEAN,
    "bounce" BOOLEAN,
    "bounced" BOOLEAN,
    "import_fee" DECIMAL(39,0),
    "body_hash" BYTEA,
    "init_state_hash" BYTEA,
    "msg_hash_norm" BYTEA,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("tx_hash","msg_hash","direction")
);

-- CreateTable
CREATE TABLE "message_contents" (
    "hash" BYTEA NOT NULL,
    "boc" BYTEA NOT NULL,

    CONSTRAINT "message_contents_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "account_states" (
    "hash" BYTEA NOT NULL,
    "account" VARCHAR(70) NOT NULL,
    "balance" DECIMAL(39,0) NOT NULL,
    "balance_extra_currencies" JSONB,
    "account_status" VARCHAR(16) NOT NULL,
    "frozen_hash" BYTEA,
    "data_hash" BYTEA,
    "code_hash" BYTEA,

    CONSTRAINT "account_states_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "latest_account_states" (
    "account" VARCHAR(70) NOT NULL,
    "account_state_hash" BYTEA NOT NULL,
    "last_trans_lt" BIGINT NOT NULL,
    "last_trans_hash" BYTEA NOT NULL,
    "timestamp" INTEGER NOT NULL,
    "balance" DECIMAL(39,0) NOT NULL,
    "balance_extra_currencies" JSONB,
    "account_status" VARCHAR(16) NOT NULL,
    "frozen_hash" BYTEA,
    "data_hash" BYTEA,
    "code_hash" BYTEA,
    "data_boc" BYTEA,
    "code_boc" BYTEA,

    CONSTRAINT "latest_account_states_pkey" PRIMARY KEY ("account")
);

-- CreateIndex
CREATE UNIQUE INDEX "blocks_root_hash_key" ON "blocks"("root_hash");

-- CreateIndex
CREATE INDEX "blocks_mc_block_seqno_idx" ON "blocks"("mc_block_seqno");

-- CreateIndex
CREATE INDEX "blocks_gen_utime_idx" ON "blocks"("gen_utime");

-- CreateIndex
CREATE INDEX "blocks_start_lt_idx" ON "blocks"("start_lt");

-- CreateIndex
CREATE INDEX "transactions_lt_idx" ON "transactions"("lt");

-- CreateIndex
CREATE INDEX "transactions_now_idx" ON "transactions"("now");

-- CreateIndex
CREATE INDEX "transactions_mc_block_seqno_idx" ON "transactions"("mc_block_seqno");

-- CreateIndex
CREATE INDEX "transactions_block_workchain_block_shard_block_seqno_idx" ON "transactions"("block_workchain", "block_shard", "block_seqno");

-- CreateIndex
CREATE INDEX "transactions_trace_id_idx" ON "transactions"("trace_id");

-- CreateIndex
CREATE UNIQUE INDEX "transactions_account_lt_key" ON "transactions"("account", "lt");

-- CreateIndex
CREATE INDEX "messages_msg_hash_idx" ON "messages"("msg_hash");

-- CreateIndex
CREATE INDEX "messages_msg_hash_norm_idx" ON "messages"("msg_hash_norm");

-- CreateIndex
CREATE INDEX "messages_source_created_lt_idx" ON "messages"("source", "created_lt");

-- CreateIndex
CREATE INDEX "messages_destination_created_lt_idx" ON "messages"("destination", "created_lt");

-- CreateIndex
CREATE INDEX "messages_created_lt_idx" ON "messages"("created_lt");

-- CreateIndex
CREATE INDEX "messages_opcode_created_lt_idx" ON "messages"("opcode", "created_lt");

-- CreateIndex
CREATE INDEX "messages_body_hash_idx" ON "messages"("body_hash");

-- CreateIndex
CREATE INDEX "account_states_account_idx" ON "account_states"("account");

-- CreateIndex
CREATE INDEX "latest_account_states_balance_idx" ON "latest_account_states"("balance" DESC);

-- CreateIndex
CREATE INDEX "latest_account_states_code_hash_idx" ON "latest_account_states"("code_hash");
