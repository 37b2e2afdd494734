-- CreateTable
CREATE TABLE "nft_collections" (
    "address" VARCHAR(70) NOT NULL,
    "next_item_index" DECIMAL(78,0) NOT NULL,
    "owner_address" VARCHAR(70),
    "collection_content" JSONB,
    "collection_content_boc" BYTEA,
    "code_hash" BYTEA,
    "data_hash" BYTEA,
    "last_transaction_lt" BIGINT NOT NULL,
    "id" BIGSERIAL NOT NULL,

    CONSTRAINT "nft_collections_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "nft_items" (
    "address" VARCHAR(70) NOT NULL,
    "init" BOOLEAN NOT NULL,
    "index" DECIMAL(78,0) NOT NULL,
    "collection_address" VARCHAR(70),
    "owner_address" VARCHAR(70),
    "content" JSONB,
    "content_boc" BYTEA,
    "code_hash" BYTEA,
    "data_hash" BYTEA,
    "last_transaction_lt" BIGINT NOT NULL,
    "id" BIGSERIAL NOT NULL,

    CONSTRAINT "nft_items_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "nft_transfers" (
    "tx_hash" BYTEA NOT NULL,
    "tx_lt" BIGINT NOT NULL,
    "tx_now" INTEGER NOT NULL,
    "tx_aborted" BOOLEAN NOT NULL,
    "mc_seqno" INTEGER NOT NULL,
    "query_id" DECIMAL(20,0) NOT NULL,
    "nft_item_address" VARCHAR(70) NOT NULL,
    "nft_item_index" DECIMAL(78,0),
    "nft_collection_address" VARCHAR(70),
    "old_owner" VARCHAR(70),
    "new_owner" VARCHAR(70),
    "response_destination" VARCHAR(70),
    "custom_payload" BYTEA,
    "forward_amount" DECIMAL(39,0) NOT NULL,
    "forward_payload" BYTEA,
    "comment" TEXT,
    "trace_id" BYTEA,

    CONSTRAINT "nft_transfers_pkey" PRIMARY KEY ("tx_hash")
);

-- CreateTable
CREATE TABLE "nft_sales" (
    "address" VARCHAR(70) NOT NULL,
    "type" VARCHAR(16) NOT NULL,
    "nft_address" VARCHAR(70),
    "nft_owner_address" VARCHAR(70),
    "marketplace_address" VARCHAR(70),
    "created_at" BIGINT,
    "details" JSONB NOT NULL,
    "code_hash" BYTEA,
    "data_hash" BYTEA,
    "last_transaction_lt" BIGINT NOT NULL,

    CONSTRAINT "nft_sales_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "dns_entries" (
    "nft_item_address" VARCHAR(70) NOT NULL,
    "domain" TEXT NOT NULL,
    "nft_item_owner" VARCHAR(70),
    "dns_next_resolver" VARCHAR(70),
    "dns_wallet" VARCHAR(70),
    "dns_site_adnl" VARCHAR(64),
    "dns_storage_bag_id" VARCHAR(64),
    "expiry" BIGINT,
    "last_transaction_lt" BIGINT NOT NULL,

    CONSTRAINT "dns_entries_pkey" PRIMARY KEY ("nft_item_address")
);

-- CreateIndex
CREATE UNIQUE INDEX "nft_collections_id_key" ON "nft_collections"("id");

-- CreateIndex
CREATE INDEX "nft_collections_owner_address_idx" ON "nft_collections"("owner_address");

-- CreateIndex
CREATE UNIQUE INDEX "nft_items_id_key" ON "nft_items"("id");

-- CreateIndex
CREATE INDEX "nft_items_owner_address_collection_address_index_idx" ON "nft_items"("owner_address", "collection_address", "index");

-- CreateIndex
CREATE INDEX "nft_items_collection_address_index_idx" ON "nft_items"("collection_address", "index");

-- CreateIndex
CREATE INDEX "nft_transfers_tx_lt_idx" ON "nft_transfers"("tx_lt");

-- CreateIndex
CREATE INDEX "nft_transfers_tx_now_idx" ON "nft_transfers"("tx_now");

-- CreateIndex
CREATE INDEX "nft_transfers_nft_item_address_tx_lt_idx" ON "nft_transfers"("nft_item_address", "tx_lt");

-- CreateIndex
CREATE INDEX "nft_transfers_nft_collection_address_tx_lt_idx" ON "nft_transfers"("nft_collection_address", "tx_lt");

-- CreateIndex
CREATE INDEX "nft_transfers_old_owner_tx_lt_idx" ON "nft_transfers"("old_owner", "tx_lt");

-- CreateIndex
CREATE INDEX "nft_transfers_new_owner_tx_lt_idx" ON "nft_transfers"("new_owner", "tx_lt");

-- CreateIndex
CREATE INDEX "nft_sales_nft_address_idx" ON "nft_sales"("nft_address");

-- CreateIndex
CREATE INDEX "nft_sales_nft_owner_address_idx" ON "nft_sales"("nft_owner_address");

-- CreateIndex
CREATE INDEX "dns_entries_domain_idx" ON "dns_entries"("domain");

-- CreateIndex
CREATE INDEX "dns_entries_dns_wallet_idx" ON "dns_entries"("dns_wallet");
