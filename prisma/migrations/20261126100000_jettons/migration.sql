-- CreateTable
CREATE TABLE "code_interfaces" (
    "code_hash" BYTEA NOT NULL,
    "interfaces" JSONB NOT NULL,

    CONSTRAINT "code_interfaces_pkey" PRIMARY KEY ("code_hash")
);

-- CreateTable
CREATE TABLE "jetton_masters" (
    "address" VARCHAR(70) NOT NULL,
    "total_supply" DECIMAL(39,0) NOT NULL,
    "mintable" BOOLEAN NOT NULL,
    "admin_address" VARCHAR(70),
    "jetton_content" JSONB,
    "jetton_content_boc" BYTEA,
    "jetton_wallet_code_hash" BYTEA,
    "code_hash" BYTEA,
    "data_hash" BYTEA,
    "last_transaction_lt" BIGINT NOT NULL,
    "id" BIGSERIAL NOT NULL,

    CONSTRAINT "jetton_masters_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "jetton_wallets" (
    "address" VARCHAR(70) NOT NULL,
    "balance" DECIMAL(39,0) NOT NULL,
    "owner" VARCHAR(70) NOT NULL,
    "jetton" VARCHAR(70) NOT NULL,
    "last_transaction_lt" BIGINT NOT NULL,
    "code_hash" BYTEA,
    "data_hash" BYTEA,
    "id" BIGSERIAL NOT NULL,

    CONSTRAINT "jetton_wallets_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "jetton_transfers" (
    "tx_hash" BYTEA NOT NULL,
    "tx_lt" BIGINT NOT NULL,
    "tx_now" INTEGER NOT NULL,
    "tx_aborted" BOOLEAN NOT NULL,
    "mc_seqno" INTEGER NOT NULL,
    "query_id" DECIMAL(20,0) NOT NULL,
    "amount" DECIMAL(39,0) NOT NULL,
    "source" VARCHAR(70),
    "destination" VARCHAR(70),
    "jetton_wallet" VARCHAR(70) NOT NULL,
    "jetton_master" VARCHAR(70),
    "response_destination" VARCHAR(70),
    "custom_payload" BYTEA,
    "forward_ton_amount" DECIMAL(39,0) NOT NULL,
    "forward_payload" BYTEA,
    "comment" TEXT,
    "trace_id" BYTEA,

    CONSTRAINT "jetton_transfers_pkey" PRIMARY KEY ("tx_hash")
);

-- CreateTable
CREATE TABLE "jetton_burns" (
    "tx_hash" BYTEA NOT NULL,
    "tx_lt" BIGINT NOT NULL,
    "tx_now" INTEGER NOT NULL,
    "tx_aborted" BOOLEAN NOT NULL,
    "mc_seqno" INTEGER NOT NULL,
    "query_id" DECIMAL(20,0) NOT NULL,
    "owner" VARCHAR(70),
    "jetton_wallet" VARCHAR(70) NOT NULL,
    "jetton_master" VARCHAR(70),
    "amount" DECIMAL(39,0) NOT NULL,
    "response_destination" VARCHAR(70),
    "custom_payload" BYTEA,
    "trace_id" BYTEA,

    CONSTRAINT "jetton_burns_pkey" PRIMARY KEY ("tx_hash")
);

-- CreateTable
CREATE TABLE "derive_jobs" (
    "id" VARCHAR(32) NOT NULL,
    "last_account" VARCHAR(70),
    "processed" INTEGER NOT NULL DEFAULT 0,
    "done_at" TIMESTAMPTZ(3),

    CONSTRAINT "derive_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "jetton_masters_id_key" ON "jetton_masters"("id");

-- CreateIndex
CREATE INDEX "jetton_masters_admin_address_idx" ON "jetton_masters"("admin_address");

-- CreateIndex
CREATE UNIQUE INDEX "jetton_wallets_id_key" ON "jetton_wallets"("id");

-- CreateIndex
CREATE INDEX "jetton_wallets_owner_id_idx" ON "jetton_wallets"("owner", "id");

-- CreateIndex
CREATE INDEX "jetton_wallets_owner_balance_idx" ON "jetton_wallets"("owner", "balance");

-- CreateIndex
CREATE INDEX "jetton_wallets_jetton_id_idx" ON "jetton_wallets"("jetton", "id");

-- CreateIndex
CREATE INDEX "jetton_wallets_jetton_balance_idx" ON "jetton_wallets"("jetton", "balance");

-- CreateIndex
CREATE INDEX "jetton_transfers_tx_lt_idx" ON "jetton_transfers"("tx_lt");

-- CreateIndex
CREATE INDEX "jetton_transfers_tx_now_idx" ON "jetton_transfers"("tx_now");

-- CreateIndex
CREATE INDEX "jetton_transfers_source_tx_lt_idx" ON "jetton_transfers"("source", "tx_lt");

-- CreateIndex
CREATE INDEX "jetton_transfers_destination_tx_lt_idx" ON "jetton_transfers"("destination", "tx_lt");

-- CreateIndex
CREATE INDEX "jetton_transfers_jetton_wallet_tx_lt_idx" ON "jetton_transfers"("jetton_wallet", "tx_lt");

-- CreateIndex
CREATE INDEX "jetton_transfers_jetton_master_tx_lt_idx" ON "jetton_transfers"("jetton_master", "tx_lt");

-- CreateIndex
CREATE INDEX "jetton_burns_tx_lt_idx" ON "jetton_burns"("tx_lt");

-- CreateIndex
CREATE INDEX "jetton_burns_tx_now_idx" ON "jetton_burns"("tx_now");

-- CreateIndex
CREATE INDEX "jetton_burns_owner_tx_lt_idx" ON "jetton_burns"("owner", "tx_lt");

-- CreateIndex
CREATE INDEX "jetton_burns_jetton_wallet_tx_lt_idx" ON "jetton_burns"("jetton_wallet", "tx_lt");

-- CreateIndex
CREATE INDEX "jetton_burns_jetton_master_tx_lt_idx" ON "jetton_burns"("jetton_master", "tx_lt");
