// `npm run bench`: the bench on Node 24 (the active LTS, installed into a cache by scripts/node-binary.sh
// when missing) and on this machine's Node (20 here), one after the other, each against its own floor
// (`node -e 0` of the same binary). Arguments go to both runs (test/bench/bench.mjs). A Node that cannot be
// had (no registry) is reported and skipped; a failing bench fails the whole run.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const HERE = import.meta.dirname;
const args = process.argv.slice(2);
const lines = [];
const installed = spawnSync('bash', [join(HERE, '../../scripts/node-binary.sh'), '24'], { encoding: 'utf8' });
const node24 = installed.status === 0 ? installed.stdout.trim() : undefined;
if (!node24) {
  // npm's own error lines say why (no network, no such version); its pointer to a log file does not.
  const why = installed.stderr
    .split('\n')
    .filter((line) => line.trim() && !/complete log/i.test(line))
    .join('; ');
  lines.push(`Node 24 skipped: ${why || 'not available'}`);
}
let failed = false;
for (const node of [node24, process.execPath].filter(Boolean)) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  process.stdout.write(`\n=== Node ${version} (${node})\n`);
  const run = spawnSync(node, [join(HERE, 'bench.mjs'), ...args], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
  // The sandbox store's writes per second (a file of its own: test/bench/store-bench.mjs).
  if (spawnSync(node, [join(HERE, 'store-bench.mjs'), ...args], { stdio: 'inherit' }).status !== 0)
    failed = true;
  // Another key's latency under a generation hog (a file of its own: test/bench/generation-bench.mjs).
  if (spawnSync(node, [join(HERE, 'generation-bench.mjs'), ...args], { stdio: 'inherit' }).status !== 0)
    failed = true;
  // A no-change sync on a small and on a large site (a file of its own: test/bench/sync-bench.mjs).
  if (spawnSync(node, [join(HERE, 'sync-bench.mjs'), ...args], { stdio: 'inherit' }).status !== 0)
    failed = true;
  // wp publish with 3 local images a post, first and no-change runs (a file of its own: test/bench/images-bench.mjs).
  if (spawnSync(node, [join(HERE, 'images-bench.mjs'), ...args], { stdio: 'inherit' }).status !== 0)
    failed = true;
  // wp pull of a site of 1,000 and of 10,000 posts (a file of its own: test/bench/pull-bench.mjs).
  if (spawnSync(node, [join(HERE, 'pull-bench.mjs'), ...args], { stdio: 'inherit' }).status !== 0)
    failed = true;
  // wp pull of one 400 KB hostile post, each shape (a file of its own: test/bench/convert-bench.mjs).
  if (spawnSync(node, [join(HERE, 'convert-bench.mjs'), ...args], { stdio: 'inherit' }).status !== 0)
    failed = true;
}
for (const line of lines) process.stdout.write(`note: ${line}\n`);
process.exit(failed ? 1 : 0);
