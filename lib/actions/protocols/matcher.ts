import type { Context, Node } from '../tree';

/** Tries to build one block anchored at `node` (claiming it through ctx.claim); throws or returns when it does not fit. */
export type Matcher = (node: Node, ctx: Context) => void;

/**
 * The anchor a matcher starts from: the opcodes of the messages it can start at, `TON` for a plain
 * transfer (no body, a comment or an encrypted comment), or `ANY` for every node. The classifier tries a
 * matcher only on the nodes of its anchor, so a trace costs its nodes, not its nodes times the matchers.
 */
export const TON = 'ton';
export const ANY = 'any';
export type Anchor = readonly number[] | typeof TON | typeof ANY;

export interface MatcherDef {
  /** For logs and tests: which protocol rule this is. */
  name: string;
  anchor: Anchor;
  match: Matcher;
}

export const def = (name: string, anchor: Anchor, match: Matcher): MatcherDef => ({ name, anchor, match });
