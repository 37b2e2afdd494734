-- CreateTable
CREATE TABLE "api_keys" (
    "id" VARCHAR(16) NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "key_hash" BYTEA NOT NULL,
    "rps" INTEGER NOT NULL,
    "apis" VARCHAR(32) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");
