-- Vesting wallets (ton-blockchain/vesting-contract) as get_vesting_data and get_whitelist answer at the
-- indexed block (lib/indexer/derive/vesting.ts).
-- CreateTable
CREATE TABLE "vesting_contracts" (
    "address" VARCHAR(70) NOT NULL,
    "vesting_start_time" BIGINT NOT NULL,
    "vesting_total_duration" BIGINT NOT NULL,
    "unlock_period" BIGINT NOT NULL,
    "cliff_duration" BIGINT NOT NULL,
    "vesting_total_amount" DECIMAL(39,0) NOT NULL,
    "vesting_sender_address" VARCHAR(70),
    "owner_address" VARCHAR(70),
    "code_hash" BYTEA,
    "data_hash" BYTEA,
    "last_transaction_lt" BIGINT NOT NULL,
    "id" BIGSERIAL NOT NULL,

    CONSTRAINT "vesting_contracts_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "vesting_whitelist" (
    "vesting_contract_address" VARCHAR(70) NOT NULL,
    "wallet_address" VARCHAR(70) NOT NULL,

    CONSTRAINT "vesting_whitelist_pkey" PRIMARY KEY ("vesting_contract_address","wallet_address")
);

-- CreateIndex
CREATE UNIQUE INDEX "vesting_contracts_id_key" ON "vesting_contracts"("id");

-- CreateIndex
CREATE INDEX "vesting_contracts_vesting_sender_address_idx" ON "vesting_contracts"("vesting_sender_address");

-- CreateIndex
CREATE INDEX "vesting_contracts_owner_address_idx" ON "vesting_contracts"("owner_address");

-- CreateIndex
CREATE INDEX "vesting_whitelist_wallet_address_idx" ON "vesting_whitelist"("wallet_address");

-- Interfaces were decided per code hash by the detectors of their time: a vesting code is recorded there
-- with none. Forgetting them makes the derive backfill (job derive-v3) decide every code again.
DELETE FROM "code_interfaces";
