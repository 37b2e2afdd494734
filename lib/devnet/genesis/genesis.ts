/**
 * The devnet's genesis scenario: the faucet holds the whole supply in the zero state, and everything else
 * is created by real transactions (signed externals through the ChainDriver): wallets of every version,
 * a jetton, NFTs with a sale, `.ton` DNS names, a vesting wallet and a set of edge cases; then (added
 * later, after those) an off-chain-content jetton, a governed (USDT-like) jetton, an NFT auction, a sale
 * that is bought, vesting messages, a failed jetton transfer, a DNS renewal, a multisig wallet and the NFT
 * marketplace's deployer (README.md lists them).
 * Everything derives from the seed: the same seed gives the same keys and addresses.
 *
 * The steps, in order, are steps.ts's GENESIS_STEPS (one module per family: steps-*.ts), over the
 * GenesisContext they share (context.ts); what they make is described in scenario.ts.
 */
import { writeFile } from 'node:fs/promises';
import { Address } from '@ton/core';
import { GenesisContext } from './context';
import type { ChainDriver } from './driver';
import type { GenesisAccount, GenesisOptions } from './scenario';
import { GENESIS_STEPS } from './steps';

export * from './scenario';
export { genesisWalletContract } from './steps-accounts';
export { GENESIS_STEPS, type GenesisStep } from './steps';

/**
 * Run the genesis scenario on `driver`'s chain and return every named account. Call it once, on a fresh
 * chain: the faucet and the frozen account are created with setGenesisAccount, the rest by transactions.
 */
export async function runGenesis(driver: ChainDriver, options: GenesisOptions): Promise<GenesisAccount[]> {
  const g = new GenesisContext(driver, options.seed, options.testOnly ?? false);
  for (const step of GENESIS_STEPS) await step.run(g);
  return g.accounts;
}

/** Write the account list as JSON (pretty, one file). */
export async function writeGenesisFile(path: string, accounts: GenesisAccount[]): Promise<void> {
  await writeFile(path, JSON.stringify(accounts, null, 2) + '\n', 'utf8');
}

/** The address of a named genesis account (throws when absent). */
export function genesisAddress(accounts: readonly GenesisAccount[], name: string): Address {
  const a = accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no genesis account ${name}`);
  return Address.parseRaw(a.address);
}

