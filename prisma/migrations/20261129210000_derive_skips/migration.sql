-- Get-methods the derive stage could not use (a crash, a deadline, a result past the limits): the newest
-- skip of each account and method. Indexing moves on past them.
CREATE TABLE "derive_skips" (
    "address" VARCHAR(70) NOT NULL,
    "method" TEXT NOT NULL,
    "code_hash" BYTEA,
    "mc_seqno" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "derive_skips_pkey" PRIMARY KEY ("address","method")
);
