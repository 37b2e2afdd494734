// The indexer's parse worker (started by block-parser.ts): block BoC in, index records out.
import { parentPort } from 'node:worker_threads';
import { installFastTonCore } from '../ton/fast-core';
import type { ParseJob, ParseReply, ParseWorkerHello } from './block-parser';
import { parseDownloadedBlock } from './parse-block';

// Loading a block hashes each of its cells, and reading its transactions loads thousands of integers
// and rebuilds many cells: all through @ton/core, sped up here, as this worker starts (its entry point).
const hello: ParseWorkerHello = { fastTonCore: installFastTonCore() };

const port = parentPort!;
port.postMessage(hello);
port.on('message', (job: ParseJob) => {
  let reply: ParseReply;
  try {
    const boc = Buffer.from(job.boc.buffer, job.boc.byteOffset, job.boc.byteLength);
    reply = { id: job.id, block: parseDownloadedBlock(boc, { rootHash: Buffer.from(job.rootHash), fileHash: Buffer.from(job.fileHash) }, job.mcBlockSeqno) };
  } catch (err) {
    reply = { id: job.id, error: (err as Error).message };
  }
  port.postMessage(reply);
});
