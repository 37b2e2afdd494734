/**
 * _ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams;
 *
 * Parameters stay cells keyed by their (int32) number; the dictionary is a
 * plain Hashmap, so @ton/core's Dictionary reads and writes it exactly.
 * Note the reference is to a non-empty Hashmap, not a HashmapE: there is no
 * presence bit (the bit @ton/core's loadMasterchainStateExtra wrongly reads).
 */
import { Builder, Cell, Dictionary, Slice, beginCell } from '@ton/core';

export type ConfigDict = Dictionary<number, Cell>;

export interface ConfigParams {
  configAddress: bigint;
  config: ConfigDict;
}

export function emptyConfigDict(): ConfigDict {
  return Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
}

/** Reads a Hashmap 32 ^Cell root cell (e.g. config_mainnet.boc, the `config` ref, sandbox `bc.config`). */
export function loadConfigDict(root: Cell): ConfigDict {
  return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root);
}

export function configDictCell(config: ConfigDict): Cell {
  if (config.size === 0) throw new Error('ConfigParams: the config dictionary cannot be empty');
  return beginCell().storeDictDirect(config, Dictionary.Keys.Int(32), Dictionary.Values.Cell()).endCell();
}

export function loadConfigParams(slice: Slice): ConfigParams {
  const configAddress = slice.loadUintBig(256);
  return { configAddress, config: loadConfigDict(slice.loadRef()) };
}

export function storeConfigParams(params: ConfigParams): (builder: Builder) => void {
  return (builder) => {
    builder.storeUint(params.configAddress, 256);
    builder.storeRef(configDictCell(params.config));
  };
}
