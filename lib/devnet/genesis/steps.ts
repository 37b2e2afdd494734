/**
 * The genesis scenario as an ordered list of named steps (README.md's table, same order). New steps go at
 * the end: each step's transactions change the lt, seqnos and balances every later step sees, so an
 * earlier insertion would change the results (and the tests that pin them) of everything after it.
 */
import type { GenesisContext } from './context';
import { commentsAndEdgeCases, masterchainToBasechain, walletsFundedAndDeployed, zeroState } from './steps-accounts';
import { multisigWallet, vestingMessages, vestingWallet } from './steps-contracts';
import { dnsRenewal, mainnetTwins, tonDns } from './steps-dns';
import { atlasJetton, failedJettonTransfer, governedJetton, offchainJetton } from './steps-jettons';
import { auctionAndBoughtSale, nftCards, nftMarketplace, soulboundBadge } from './steps-nft';

export interface GenesisStep {
  name: string;
  run: (g: GenesisContext) => Promise<void>;
}

export const GENESIS_STEPS: readonly GenesisStep[] = [
  { name: 'zero state', run: zeroState },
  { name: 'wallets funded and deployed', run: walletsFundedAndDeployed },
  { name: 'comments and edge cases', run: commentsAndEdgeCases },
  { name: 'ATLAS jetton (on-chain metadata)', run: atlasJetton },
  { name: 'NFT cards, transfer, open sale', run: nftCards },
  { name: '`.ton` DNS', run: tonDns },
  { name: 'soulbound badge', run: soulboundBadge },
  { name: 'vesting wallet', run: vestingWallet },
  { name: 'masterchain → basechain', run: masterchainToBasechain },
  // Added after the original scenario (earlier steps keep their addresses and results).
  { name: 'off-chain jetton', run: offchainJetton },
  { name: 'governed jetton (Tolk, USDT-like)', run: governedJetton },
  { name: 'auction and a bought sale', run: auctionAndBoughtSale },
  { name: 'vesting messages', run: vestingMessages },
  { name: 'failed jetton transfer', run: failedJettonTransfer },
  { name: 'DNS renewal', run: dnsRenewal },
  { name: 'multisig v2 (Tolk)', run: multisigWallet },
  { name: 'twins of mainnet cases', run: mainnetTwins },
  { name: 'NFT marketplace (Tolk)', run: nftMarketplace },
];
