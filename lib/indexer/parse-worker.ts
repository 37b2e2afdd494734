// The indexer's parse worker (started by block-parser.ts): block BoC in, index records out.
import { parentPort } from 'node:worker_threads';
import { installFastBitReader } from '../ton/fast-bit-reader';
import { installFastCellHash } from '../ton/fast-hash';
import { installFastPaddedBits } from '../ton/fast-padded-bits';
import type { ParseJob, ParseReply } from './block-parser';
import { parseDownloadedBlock } from './parse-block';

// Loading a block computes the hash of each of its cells (native SHA-256, byte-copied padding), and
// reading its transactions loads thousands of integers (read a byte, not a bit, at a time).
installFastPaddedBits();
installFastCellHash();
installFastBitReader();

const port = parentPort!;
port.on('message', (job: ParseJob) => {
  let reply: ParseReply;
  try {
    const boc = Buffer.from(job.boc.buffer, job.boc.byteOffset, job.boc.byteLength);
    reply = { id: job.id, block: parseDownloadedBlock(boc, Buffer.from(job.rootHash), job.mcBlockSeqno) };
  } catch (err) {
    reply = { id: job.id, error: (err as Error).message };
  }
  port.postMessage(reply);
});
