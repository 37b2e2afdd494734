-- Each transaction's cell as a BoC. v2 builds its transaction JSON from the cell (lib/api/v2/tx-json.ts);
-- with it the index answers the history a non-archival lite server has pruned ("lt not in db") exactly
-- as the lite server would (lib/api/v2/history). A table of its own keeps `transactions`, which every v3
-- list reads, narrow. Transactions indexed before this migration have none: v2 cannot serve those from
-- the index.
CREATE TABLE "transaction_bocs" (
    "hash" BYTEA NOT NULL,
    "boc" BYTEA NOT NULL,

    CONSTRAINT "transaction_bocs_pkey" PRIMARY KEY ("hash")
);
