import type { Context, Node } from '../tree';

/** Tries to build one block anchored at `node` (claiming it through ctx.claim); throws or returns when it does not fit. */
export type Matcher = (node: Node, ctx: Context) => void;
