-- Words of token names and symbols for the explorer's name search (lib/format/name-words.ts): one row
-- per word. "C" collation so that `word LIKE 'prefix%'` is answered from the primary key's B-tree.
-- CreateTable
CREATE TABLE "token_names" (
    "word" TEXT COLLATE "C" NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "address" VARCHAR(70) NOT NULL,

    CONSTRAINT "token_names_pkey" PRIMARY KEY ("word","kind","address")
);

-- Tokens an index already holds (the derive stage and the metadata fetcher add later ones). SQL's split
-- is close to name-words.ts's (letters and digits); the search re-checks every hit in JS anyway.
INSERT INTO "token_names" ("word", "kind", "address")
SELECT DISTINCT left(w, 64), t.kind, t.address FROM (
    SELECT 'jetton' AS kind, "address", coalesce("jetton_content"->>'name', '') || ' ' || coalesce("jetton_content"->>'symbol', '') AS txt FROM "jetton_masters"
    UNION ALL SELECT 'nft_collection', "address", coalesce("collection_content"->>'name', '') FROM "nft_collections"
    UNION ALL SELECT 'nft_item', "address", coalesce("content"->>'name', '') FROM "nft_items"
) t, regexp_split_to_table(lower(t.txt), '[^[:alnum:]]+') AS w
WHERE w <> ''
ON CONFLICT DO NOTHING;
