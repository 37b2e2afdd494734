-- Change notices for the API's side-map cache (lib/api/v3/side-cache.ts): every committed change to what
-- the address_book and metadata are made of is announced on the channel atlas_side, one notice per
-- account (payload 'a' || account) or off-chain URI (payload 'u' || uri; '*' for a URI too long to send,
-- which drops every cached entry, as does a TRUNCATE). PostgreSQL delivers notices only when their
-- transaction commits, and once per distinct payload per transaction. Triggers catch every writer
-- (indexer, derive backfills, metadata fetcher, an operator's SQL), where announcing from the code would
-- depend on each writer remembering to. Updates fire only when a column the side maps read changed: an
-- account state's code, not its balance; a jetton wallet's balance, owner or jetton.

-- A row's key never changes (it is the primary key): the new row's, or the deleted one's (NEW is null then).
CREATE FUNCTION atlas_side_account() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN PERFORM pg_notify('atlas_side', 'a' || COALESCE(NEW.account, OLD.account)); RETURN NULL; END
$fn$;

CREATE FUNCTION atlas_side_address() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN PERFORM pg_notify('atlas_side', 'a' || COALESCE(NEW.address, OLD.address)); RETURN NULL; END
$fn$;

-- A name belongs to the wallet it points at: both the wallet it pointed at and the one it points at now change.
CREATE FUNCTION atlas_side_dns() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.dns_wallet IS NOT NULL THEN PERFORM pg_notify('atlas_side', 'a' || OLD.dns_wallet); END IF;
  IF TG_OP <> 'DELETE' AND NEW.dns_wallet IS NOT NULL THEN PERFORM pg_notify('atlas_side', 'a' || NEW.dns_wallet); END IF;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION atlas_side_uri() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  uri text := CASE WHEN TG_OP = 'DELETE' THEN OLD.uri ELSE NEW.uri END;
BEGIN
  PERFORM pg_notify('atlas_side', CASE WHEN octet_length(uri) < 7000 THEN 'u' || uri ELSE '*' END);
  RETURN NULL;
END
$fn$;

CREATE FUNCTION atlas_side_all() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('atlas_side', '*');
  RETURN NULL;
END
$fn$;

CREATE TRIGGER atlas_side_insert_delete AFTER INSERT OR DELETE ON latest_account_states FOR EACH ROW EXECUTE FUNCTION atlas_side_account();
CREATE TRIGGER atlas_side_update AFTER UPDATE ON latest_account_states FOR EACH ROW
  WHEN (OLD.code_hash IS DISTINCT FROM NEW.code_hash) EXECUTE FUNCTION atlas_side_account();

CREATE TRIGGER atlas_side_insert_delete AFTER INSERT OR DELETE ON jetton_wallets FOR EACH ROW EXECUTE FUNCTION atlas_side_address();
CREATE TRIGGER atlas_side_update AFTER UPDATE ON jetton_wallets FOR EACH ROW
  WHEN ((OLD.balance, OLD.owner, OLD.jetton) IS DISTINCT FROM (NEW.balance, NEW.owner, NEW.jetton)) EXECUTE FUNCTION atlas_side_address();

CREATE TRIGGER atlas_side_insert_delete AFTER INSERT OR DELETE ON jetton_masters FOR EACH ROW EXECUTE FUNCTION atlas_side_address();
CREATE TRIGGER atlas_side_update AFTER UPDATE ON jetton_masters FOR EACH ROW
  WHEN (OLD.jetton_content IS DISTINCT FROM NEW.jetton_content) EXECUTE FUNCTION atlas_side_address();

CREATE TRIGGER atlas_side_insert_delete AFTER INSERT OR DELETE ON nft_collections FOR EACH ROW EXECUTE FUNCTION atlas_side_address();
CREATE TRIGGER atlas_side_update AFTER UPDATE ON nft_collections FOR EACH ROW
  WHEN (OLD.collection_content IS DISTINCT FROM NEW.collection_content) EXECUTE FUNCTION atlas_side_address();

CREATE TRIGGER atlas_side_insert_delete AFTER INSERT OR DELETE ON nft_items FOR EACH ROW EXECUTE FUNCTION atlas_side_address();
CREATE TRIGGER atlas_side_update AFTER UPDATE ON nft_items FOR EACH ROW
  WHEN ((OLD.index, OLD.content) IS DISTINCT FROM (NEW.index, NEW.content)) EXECUTE FUNCTION atlas_side_address();

CREATE TRIGGER atlas_side_insert_delete AFTER INSERT OR DELETE ON dns_entries FOR EACH ROW EXECUTE FUNCTION atlas_side_dns();
CREATE TRIGGER atlas_side_update AFTER UPDATE ON dns_entries FOR EACH ROW
  WHEN ((OLD.dns_wallet, OLD.domain, OLD.nft_item_owner) IS DISTINCT FROM (NEW.dns_wallet, NEW.domain, NEW.nft_item_owner)) EXECUTE FUNCTION atlas_side_dns();

CREATE TRIGGER atlas_side_insert_delete AFTER INSERT OR DELETE ON offchain_metadata FOR EACH ROW EXECUTE FUNCTION atlas_side_uri();
CREATE TRIGGER atlas_side_update AFTER UPDATE ON offchain_metadata FOR EACH ROW
  WHEN ((OLD.state, OLD.url, OLD.content, OLD.error) IS DISTINCT FROM (NEW.state, NEW.url, NEW.content, NEW.error)) EXECUTE FUNCTION atlas_side_uri();

CREATE TRIGGER atlas_side_truncate AFTER TRUNCATE ON latest_account_states FOR EACH STATEMENT EXECUTE FUNCTION atlas_side_all();
CREATE TRIGGER atlas_side_truncate AFTER TRUNCATE ON jetton_wallets FOR EACH STATEMENT EXECUTE FUNCTION atlas_side_all();
CREATE TRIGGER atlas_side_truncate AFTER TRUNCATE ON jetton_masters FOR EACH STATEMENT EXECUTE FUNCTION atlas_side_all();
CREATE TRIGGER atlas_side_truncate AFTER TRUNCATE ON nft_collections FOR EACH STATEMENT EXECUTE FUNCTION atlas_side_all();
CREATE TRIGGER atlas_side_truncate AFTER TRUNCATE ON nft_items FOR EACH STATEMENT EXECUTE FUNCTION atlas_side_all();
CREATE TRIGGER atlas_side_truncate AFTER TRUNCATE ON dns_entries FOR EACH STATEMENT EXECUTE FUNCTION atlas_side_all();
CREATE TRIGGER atlas_side_truncate AFTER TRUNCATE ON offchain_metadata FOR EACH STATEMENT EXECUTE FUNCTION atlas_side_all();
