-- Pages of one account's rows read in index order, not sorted out of every row of the account
-- (a busy account has thousands): /api/v3/actions?account= walks action_accounts by
-- (account, trace_end_lt, trace_id, end_lt, action_id), its ORDER BY; the (account, trace_end_lt)
-- index it replaces is a prefix of it.
DROP INDEX "action_accounts_account_trace_end_lt_idx";
CREATE INDEX "action_accounts_account_page_idx" ON "action_accounts"("account", "trace_end_lt", "trace_id", "end_lt", "action_id");
