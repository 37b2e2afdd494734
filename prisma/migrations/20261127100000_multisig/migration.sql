-- Multisig v2 wallets and their orders (TON's multisig-contract-v2 interface) as get_multisig_data and
-- get_order_data answer at the indexed block (lib/indexer/derive/multisig.ts). Signers and proposers are
-- kept in their index order.
-- CreateTable
CREATE TABLE "multisig_wallets" (
    "address" VARCHAR(70) NOT NULL,
    "next_order_seqno" DECIMAL(80,0) NOT NULL,
    "threshold" INTEGER NOT NULL,
    "signers" VARCHAR(70)[],
    "proposers" VARCHAR(70)[],
    "code_hash" BYTEA,
    "data_hash" BYTEA,
    "last_transaction_lt" BIGINT NOT NULL,
    "id" BIGSERIAL NOT NULL,

    CONSTRAINT "multisig_wallets_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "multisig_orders" (
    "address" VARCHAR(70) NOT NULL,
    "multisig_address" VARCHAR(70) NOT NULL,
    "order_seqno" DECIMAL(80,0) NOT NULL,
    "threshold" INTEGER NOT NULL,
    "sent_for_execution" BOOLEAN NOT NULL,
    "approvals_mask" DECIMAL(80,0) NOT NULL,
    "approvals_num" INTEGER NOT NULL,
    "expiration_date" BIGINT NOT NULL,
    "order_boc" BYTEA NOT NULL,
    "signers" VARCHAR(70)[],
    "code_hash" BYTEA,
    "data_hash" BYTEA,
    "last_transaction_lt" BIGINT NOT NULL,
    "id" BIGSERIAL NOT NULL,

    CONSTRAINT "multisig_orders_pkey" PRIMARY KEY ("address")
);

-- CreateIndex
CREATE UNIQUE INDEX "multisig_wallets_id_key" ON "multisig_wallets"("id");

-- CreateIndex
CREATE INDEX "multisig_wallets_signers_idx" ON "multisig_wallets" USING GIN ("signers");

-- CreateIndex
CREATE INDEX "multisig_wallets_proposers_idx" ON "multisig_wallets" USING GIN ("proposers");

-- CreateIndex
CREATE UNIQUE INDEX "multisig_orders_id_key" ON "multisig_orders"("id");

-- CreateIndex
CREATE INDEX "multisig_orders_multisig_address_idx" ON "multisig_orders"("multisig_address");

-- Interfaces were decided per code hash by the detectors of their time: a multisig code is recorded
-- there with none. Forgetting them makes the derive backfill (job derive-v4) decide every code again.
DELETE FROM "code_interfaces";
