-- CreateTable
CREATE TABLE "offchain_metadata" (
    "uri" TEXT NOT NULL,
    "state" VARCHAR(16) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fetched_at" TIMESTAMPTZ(3),
    "url" TEXT,
    "content" JSONB,
    "error" TEXT,

    CONSTRAINT "offchain_metadata_pkey" PRIMARY KEY ("uri")
);

-- CreateIndex
CREATE INDEX "offchain_metadata_state_next_attempt_at_idx" ON "offchain_metadata"("state", "next_attempt_at");
