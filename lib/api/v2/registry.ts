// Every v2 method by name. A method listed here is reachable as REST (GET/POST) and through JSON-RPC.
import type { V2Method } from './method';
import * as utils from './methods/utils';

const all: V2Method[] = [...Object.values(utils)] as V2Method[];

export const v2Methods: ReadonlyMap<string, V2Method> = new Map(all.map((m) => [m.name, m]));
