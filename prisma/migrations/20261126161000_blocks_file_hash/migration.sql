-- /api/v3/blocks?file_hash= finds its block through an index, like every other filter of the route.
CREATE INDEX "blocks_file_hash_idx" ON "blocks"("file_hash");
