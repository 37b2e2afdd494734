-- Traces assembled by the indexer, the actions classified from them and the per-account action index.
CREATE TABLE "traces" (
    "trace_id" BYTEA NOT NULL,
    "external_hash" BYTEA,
    "external_hash_norm" BYTEA,
    "mc_seqno_start" INTEGER NOT NULL,
    "mc_seqno_end" INTEGER NOT NULL,
    "start_lt" BIGINT NOT NULL,
    "start_utime" INTEGER NOT NULL,
    "end_lt" BIGINT NOT NULL,
    "end_utime" INTEGER NOT NULL,
    "state" VARCHAR(16) NOT NULL,
    "transactions" INTEGER NOT NULL,
    "messages" INTEGER NOT NULL,
    "pending_messages" INTEGER NOT NULL,
    "is_incomplete" BOOLEAN NOT NULL,
    "classification_state" VARCHAR(16) NOT NULL,
    "classifier_version" INTEGER,

    CONSTRAINT "traces_pkey" PRIMARY KEY ("trace_id")
);

CREATE INDEX "traces_end_lt_idx" ON "traces"("end_lt");
CREATE INDEX "traces_end_utime_idx" ON "traces"("end_utime");
CREATE INDEX "traces_mc_seqno_end_idx" ON "traces"("mc_seqno_end");
CREATE INDEX "traces_external_hash_idx" ON "traces"("external_hash");
CREATE INDEX "traces_external_hash_norm_idx" ON "traces"("external_hash_norm");
CREATE INDEX "traces_classifier_version_idx" ON "traces"("classifier_version");

CREATE TABLE "actions" (
    "trace_id" BYTEA NOT NULL,
    "action_id" BYTEA NOT NULL,
    "type" VARCHAR(64) NOT NULL,
    "tx_hashes" BYTEA[],
    "start_lt" BIGINT NOT NULL,
    "end_lt" BIGINT NOT NULL,
    "start_utime" INTEGER NOT NULL,
    "end_utime" INTEGER NOT NULL,
    "trace_end_lt" BIGINT NOT NULL,
    "trace_end_utime" INTEGER NOT NULL,
    "trace_mc_seqno_end" INTEGER NOT NULL,
    "mc_seqno_end" INTEGER NOT NULL,
    "trace_external_hash" BYTEA,
    "trace_external_hash_norm" BYTEA,
    "source" VARCHAR(70),
    "source_secondary" VARCHAR(70),
    "destination" VARCHAR(70),
    "destination_secondary" VARCHAR(70),
    "asset" VARCHAR(70),
    "asset_secondary" VARCHAR(70),
    "asset2" VARCHAR(70),
    "asset2_secondary" VARCHAR(70),
    "value" DECIMAL(39,0),
    "amount" DECIMAL(39,0),
    "opcode" BIGINT,
    "success" BOOLEAN NOT NULL,
    "parent_action_id" BYTEA,
    "ancestor_type" TEXT[],
    "data" JSONB NOT NULL,

    CONSTRAINT "actions_pkey" PRIMARY KEY ("trace_id","action_id")
);

CREATE INDEX "actions_action_id_idx" ON "actions"("action_id");
CREATE INDEX "actions_trace_end_lt_idx" ON "actions"("trace_end_lt");
CREATE INDEX "actions_trace_end_utime_idx" ON "actions"("trace_end_utime");
CREATE INDEX "actions_trace_mc_seqno_end_idx" ON "actions"("trace_mc_seqno_end");
CREATE INDEX "actions_type_trace_end_lt_idx" ON "actions"("type", "trace_end_lt");

CREATE TABLE "action_accounts" (
    "account" VARCHAR(70) NOT NULL,
    "trace_id" BYTEA NOT NULL,
    "action_id" BYTEA NOT NULL,
    "trace_end_lt" BIGINT NOT NULL,
    "end_lt" BIGINT NOT NULL,

    CONSTRAINT "action_accounts_pkey" PRIMARY KEY ("account","trace_id","action_id")
);

CREATE INDEX "action_accounts_account_trace_end_lt_idx" ON "action_accounts"("account", "trace_end_lt");

-- /traces?tx_hash= and msg_hash= resolve through the messages' trace_id.
CREATE INDEX "messages_trace_id_idx" ON "messages"("trace_id");
