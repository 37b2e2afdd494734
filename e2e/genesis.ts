// The devnet's genesis accounts as the server under test wrote them ($ATLAS_DATA_DIR/devnet/genesis.json):
// names, addresses in every form, and the keys of its wallets (devnet keys are not secrets).
import fs from 'node:fs';
import path from 'node:path';

export interface GenesisAccount {
  name: string;
  /** Raw `0:HEX`. */
  address: string;
  friendly: { bounceable: string; nonBounceable: string };
  secret_key_hex?: string;
}

export function genesisAccounts(): GenesisAccount[] {
  const file = path.join(process.env.ATLAS_E2E_DATA_DIR!, 'devnet', 'genesis.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as GenesisAccount[];
}

export function genesisAccount(name: string): GenesisAccount {
  const a = genesisAccounts().find((g) => g.name === name);
  if (!a) throw new Error(`no genesis account ${name}`);
  return a;
}
