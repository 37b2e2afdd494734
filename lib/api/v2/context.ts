// What a v2 method may use besides its parameters: the request's start time, the chain and the index.
import type { LiteClient } from 'ton-lite-client';
import type { Database } from '../../db/database';
import type { PendingTraces } from '../../pending';
import type { TvmPool } from '../../tvm/pool';
import type { ServicesSource, V2Services } from '../services';

export interface V2Context {
  /** Wall-clock start of the request, for @extra timing. */
  startedAt: number;
  /** The lite client of the services the handler was built with; resolved on first use. */
  lite(): Promise<LiteClient>;
  /** The TVM pool of the same services. */
  tvm(): Promise<TvmPool>;
  /** The pending-trace emulator of the same services, if they have one (sends are emulated by it). */
  pending?(): Promise<PendingTraces | undefined>;
  /** The index of the same services, if they have one: history the lite servers pruned is read there. */
  db?(): Promise<Database | undefined>;
}

export function v2Context(startedAt: number, services: ServicesSource<V2Services>): V2Context {
  return {
    startedAt,
    lite: async () => (await services()).lite,
    tvm: async () => (await services()).tvm,
    pending: async () => (await services()).pending,
    db: async () => (await services()).db,
  };
}
