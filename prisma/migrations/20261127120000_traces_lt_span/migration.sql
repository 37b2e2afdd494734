-- /api/v3/traces?account=, newest first, walks the account's transactions down by lt and must also find
-- its traces still running at the walk's edge (lib/api/v3/queries/traces.ts): the traces whose
-- [start_lt, end_lt] contains an lt, a GiST range lookup (btree cannot answer "contains"). An expression
-- index, which schema.prisma cannot declare (noted on model Trace).
CREATE INDEX "traces_lt_span_idx" ON "traces" USING GIST (int8range("start_lt", "end_lt", '[]'));
