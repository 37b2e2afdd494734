// What a v2 method may use besides its parameters: the request's start time and the chain.
import type { LiteClient } from 'ton-lite-client';
import { services } from '../../runtime';

export interface V2Context {
  /** Wall-clock start of the request, for @extra timing. */
  startedAt: number;
  /** The process's lite client (the devnet or the configured lite servers); started on first use. */
  lite(): Promise<LiteClient>;
}

// Tests point the methods at their own chain (lib/testing/chain.ts); the server uses the process's.
let testLite: LiteClient | undefined;

export function setTestLite(client: LiteClient | undefined): void {
  testLite = client;
}

export async function liteClient(): Promise<LiteClient> {
  return testLite ?? (await services()).lite;
}

export function v2Context(startedAt: number): V2Context {
  return { startedAt, lite: liteClient };
}
