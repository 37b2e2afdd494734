// The vitest 'unit' project's entry point (vitest.config.ts setupFiles): tests run the code as the
// production processes do, with @ton/core's fast paths installed once at start (lib/ton/fast-core.ts).
// The 'ton-core-patches' project (lib/ton/fast-*.test.ts) leaves this out: it compares the fast paths
// with @ton/core's own code, so each of its files starts from an unpatched copy.
import { installFastTonCore } from '../ton/fast-core';

installFastTonCore();
