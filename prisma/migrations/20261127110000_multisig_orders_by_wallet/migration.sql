-- A wallet's orders in id order straight off an index: /multisig/orders?multisig_address= pages them, and
-- /multisig/wallets with include_orders takes each wallet's newest ones (a bounded number) without
-- reading and sorting all the orders of a busy wallet.
-- DropIndex
DROP INDEX "multisig_orders_multisig_address_idx";

-- CreateIndex
CREATE INDEX "multisig_orders_multisig_address_id_idx" ON "multisig_orders"("multisig_address", "id");
