// Every v2 method by name. A method listed here is reachable as REST (GET/POST) and through JSON-RPC.
import type { V2Method } from './method';
import * as accounts from './methods/accounts';
import * as blocks from './methods/blocks';
import * as config from './methods/config';
import * as runMethod from './methods/run-method';
import * as send from './methods/send';
import * as transactions from './methods/transactions';
import * as utils from './methods/utils';

const modules = [accounts, blocks, transactions, send, runMethod, config, utils];
const all = modules.flatMap((m) => Object.values(m)) as V2Method[];

export const v2Methods: ReadonlyMap<string, V2Method> = new Map(all.map((m) => [m.name, m]));
