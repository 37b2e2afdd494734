import { describe, expect, it } from 'vitest';
import { loadConfigParams } from './config';
import { configParamCell } from './config-proof';
import { dictKeyPath } from './hashmap-aug';
import { createMerkleProof } from './merkle';
import { fixtureRoot } from '../testing/fixtures';

describe('configParamCell', () => {
  const params = loadConfigParams(fixtureRoot('config_46991999.boc').beginParse());
  const root = fixtureRoot('config_46991999.boc').refs[0];

  it('finds every mainnet parameter, negative ids included', () => {
    for (const [id, cell] of params.config) expect(configParamCell(root, id)?.hash(), `param ${id}`).toEqual(cell.hash());
    expect(configParamCell(root, 3)).toBeUndefined();
    expect(configParamCell(root, 9999)).toBeUndefined();
  });

  it('reads one parameter from a proof that prunes the others (a liteserver getConfigParams answer)', () => {
    const path = dictKeyPath(root, 32, 34n);
    const proof = createMerkleProof(root, { cells: path, subtrees: [path.at(-1)!.refs[0]] });
    const pruned = proof.refs[0];
    expect(configParamCell(pruned, 34)?.hash()).toEqual(params.config.get(34)!.hash());
  });
});
