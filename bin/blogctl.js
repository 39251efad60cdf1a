#!/usr/bin/env node
/* global require, __dirname */
// The only place that exits.
//
// CommonJS on purpose (bin/package.json): an ES-module entry starts Node's ESM loader, which costs every run
// on Node 20 (test/bench/RESULTS.md). Start-up speed comes from loading less (dist/ is split so a command
// loads only its own chunks) and from Node's own compile cache where Node has one (22.1 and later; it
// honours NODE_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE). Nothing here changes how V8 runs.
'use strict';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const nodeModule = require('node:module');
if (typeof nodeModule.enableCompileCache === 'function') {
  try {
    nodeModule.enableCompileCache();
  } catch {
    // A cache that cannot be opened (a read-only temporary dir): run uncached.
  }
}
// --debug: stack traces name blogctl's source lines (dist/ ships its source maps). Set before dist/ loads:
// Node reads the maps of the files loaded after this.
if (process.argv.includes('--debug') || /^(1|true|yes)$/i.test(process.env.BLOGCTL_DEBUG ?? ''))
  process.setSourceMapsEnabled(true);

// `blogctl --version` on its own answers from dist/version.txt, and a plain request for a command's help
// (`blogctl [command...] --help`, `blogctl help [command...]`, and `blogctl` alone) from dist/help.json,
// both written when dist/ was built: loading the parser and the command tree for them would cost more than
// the rest of the run (test/bench/RESULTS.md). Any other command line goes to dist/cli.cjs, as does either
// of those when its file cannot be read.
const args = process.argv.slice(2);
const run =
  args.length === 1 && (args[0] === '--version' || args[0] === '-V')
    ? () => {
        let line;
        try {
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          line = require('node:fs').readFileSync(`${__dirname}/../dist/version.txt`, 'utf8');
        } catch {
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          return require('../dist/cli.cjs').run(process.argv);
        }
        process.stdout.write(line);
        return Promise.resolve(0);
      }
    : args.length === 0 || args.includes('--help') || args.includes('-h') || args[0] === 'help'
      ? () =>
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          require('../dist/help.cjs').printHelp(args.length ? args : ['--help']) ??
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          require('../dist/cli.cjs').run(process.argv)
      : // eslint-disable-next-line @typescript-eslint/no-require-imports
        require('../dist/cli.cjs').run;

// A reader that stops early (`blogctl wp publish --help | head -1`, `blogctl blog list | head`) closes the
// pipe. What is left to print has nowhere to go: it is dropped (IO stops writing to a destroyed stream), and
// the command still finishes what it was doing and exits with its own code, with no stack trace.
// Any other failed write (a full disk ENOSPC, EIO, a closed descriptor EBADF) means output was lost: one
// line says so on stderr (when stdout is what failed), the command finishes what it was doing, and the exit
// code is 9 (README "Exit codes") unless the command failed on its own. (A descriptor closed by the shell,
// `blogctl --version >&-`, never gets here: Node opens /dev/null in its place at start-up, so the output is
// discarded and the exit is 0, as for any program that writes to /dev/null.)
const OUTPUT_FAILED = 9;
let outputFailure;
function outputFailed(error, name) {
  if (!error || error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED' || outputFailure) return;
  outputFailure = error;
  if (name === 'stderr') return;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('node:fs').writeSync(
      2,
      `error: could not write the output to stdout: ${error.code ?? error.message}\n`,
    );
  } catch {
    // stderr is gone too: the exit code is all that is left to say it.
  }
}
process.stdout.on('error', (error) => outputFailed(error, 'stdout'));
process.stderr.on('error', (error) => outputFailed(error, 'stderr'));

run(process.argv).then(async (code) => {
  process.exitCode = code;
  // A write to a pipe is asynchronous while the reader is behind; exiting with output still queued would
  // cut it short.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  // A write to a file (or /dev/full) fails synchronously: Node records it on the stream at once
  // (stream.errored) but emits 'error' on a later tick, which process.exit() below would never reach. Read
  // what the stream recorded.
  outputFailed(process.stdout.errored, 'stdout');
  outputFailed(process.stderr.errored, 'stderr');
  if (outputFailure && !code) process.exitCode = OUTPUT_FAILED;
  // Exiting explicitly means a stray timer or socket can never keep a cron job hanging.
  process.exit();
});

function flushed(stream) {
  return new Promise((resolve) => {
    if (!stream.writableLength || stream.destroyed) return resolve();
    stream.once('error', () => resolve());
    // An empty write calls back once everything queued before it has been handed to the system.
    stream.write('', () => resolve());
  });
}
