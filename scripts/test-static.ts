// `npm run test:static`: lint, typecheck and the function-length check (scripts/function-length.ts), side by side (each is one process on one core; together they
// take the time of the longer). Each one's output is printed whole when it ends, so the two never mix.
// ATLAS_TEST_SCOPE=engine leaves both out: they read the sources, not a database (lib/testing/engine-scope.ts).
import { spawn } from 'node:child_process';
import { testScope } from '../lib/testing/engine-scope';

const CHECKS = ['lint', 'typecheck', 'lint:functions'];

function run(script: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', (err) => {
      process.stdout.write(`${script}: ${err.message}\n`);
      resolve(false);
    });
    child.on('close', (code) => {
      process.stdout.write(`${script}: ${code === 0 ? 'ok' : `failed (exit ${code})`}\n${out}`);
      resolve(code === 0);
    });
  });
}

if (testScope() === 'engine') {
  console.log(`${CHECKS.join(' and ')}: left out (ATLAS_TEST_SCOPE=engine; they do not depend on the database engine)`);
} else {
  const results = await Promise.all(CHECKS.map(run));
  if (results.includes(false)) process.exit(1);
}
