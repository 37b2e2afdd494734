// The browser page's script in e2e/cors-clients.spec.ts: @ton/ton's TonClient as a dApp bundles it
// (Buffer from the `buffer` package, as browser bundlers provide it).
import { Buffer } from 'buffer';
(globalThis as unknown as { Buffer: typeof Buffer }).Buffer = Buffer;
const { TonClient } = await import('@ton/ton');
(globalThis as unknown as { TonClient: typeof TonClient }).TonClient = TonClient;
