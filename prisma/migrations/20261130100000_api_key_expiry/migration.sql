-- AlterTable: API keys may expire (npm run keys -- create --expires).
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
