// Preloaded (`node --import`) into a run of the CLI by a bench (pull-bench.mjs): when the process exits, its
// peak resident memory (KiB, getrusage's ru_maxrss) is written to the file named by BENCH_RSS_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
