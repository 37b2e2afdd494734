// `npm run fuzz -- --requests N [--url http://host:port] [--seed S] [--concurrency C] [--api-key K] [--pid P] [--max-rss MB] [--routes REGEX] [--worst W]`:
// valid, boundary and invalid requests for every v2 (REST and JSON-RPC) and v3 route of a running Atlas,
// built from its own OpenAPI documents (lib/fuzz). Prints status counts per route class, latency,
// hangs, the server's RSS and the indexer's progress, and the worst requests as replayable curl
// commands (all of them in .reports/fuzz.json); exits 1 on an unexpected 5xx, a request over 5 s, a
// stalled indexer or a server that went down, 2 on a usage error.
import { parseArgs } from 'node:util';
import { formatReport, runFuzz, saveReport } from '../lib/fuzz/run';

function usage(message?: string): never {
  if (message) console.error(`fuzz: ${message}`);
  console.error('usage: npm run fuzz -- [--requests N] [--url http://127.0.0.1:3000] [--seed S] [--concurrency C] [--api-key K] [--pid P] [--max-rss MB] [--routes REGEX] [--worst W]');
  process.exit(2);
}

const options = {
  requests: { type: 'string', default: '10000' },
  url: { type: 'string', default: 'http://127.0.0.1:3000' },
  seed: { type: 'string', default: 'atlas' },
  concurrency: { type: 'string', default: '8' },
  'api-key': { type: 'string' },
  pid: { type: 'string' },
  worst: { type: 'string', default: '10' },
  'max-rss': { type: 'string' },
  routes: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

function readArgs() {
  try {
    return parseArgs({ options, strict: true }).values;
  } catch (err) {
    usage((err as Error).message);
  }
}

const values = readArgs();
if (values.help) usage();

const REPORT_FILE = '.reports/fuzz.json';

const positive = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) usage(`--${name} must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
};

function pattern(text: string): RegExp {
  try {
    return new RegExp(text);
  } catch (err) {
    usage(`--routes: ${(err as Error).message}`);
  }
}

try {
  const report = await runFuzz({
  url: values.url,
    requests: positive('requests', values.requests),
  seed: values.seed,
  concurrency: positive('concurrency', values.concurrency),
    apiKey: values['api-key'],
  pid: values.pid === undefined ? undefined : positive('pid', values.pid),
    maxRssMb: values['max-rss'] === undefined ? undefined : positive('max-rss', values['max-rss']),
    routes: values.routes === undefined ? undefined : pattern(values.routes),
    progress: (line) => console.log(line),
  });
  console.log(`fuzz: seed ${JSON.stringify(values.seed)} against ${values.url}`);
  for (const line of formatReport(report, values.url, positive('worst', values.worst))) console.log(line);
  saveReport(report, REPORT_FILE);
  console.log(`fuzz: every finding with its request in ${REPORT_FILE}`);
  process.exit(report.failures.length ? 1 : 0);
} catch (err) {
  console.error(`fuzz: ${(err as Error).message}`);
  process.exit(2);
}
