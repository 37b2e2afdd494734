-- The accounts of given actions (/api/v3/actions?include_accounts): action_accounts is keyed by account
-- first, so finding an action's rows read the whole table. action_accounts is a plain table on both
-- engines (not partitioned), so this is one index.
CREATE INDEX "action_accounts_trace_id_action_id_idx" ON "action_accounts"("trace_id", "action_id");
