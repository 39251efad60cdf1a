#!/usr/bin/env node
/* global require */
// The only place that exits.
//
// CommonJS on purpose (bin/package.json): an ES-module entry starts Node's ESM loader, about 8 ms of every
// run on Node 20 (test/bench/RESULTS.md). dist/startup.cjs sets the V8 flags and loads the CLI's chunks
// through the code cache (src/startup/loader.ts).
'use strict';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startCli } = require('../dist/startup.cjs');

// A reader that stops early (`blogctl wp publish --help | head -1`, `blogctl blog list | head`) closes the
// pipe. What is left to print has nowhere to go: it is dropped (IO stops writing to a destroyed stream), and
// the command still finishes what it was doing and exits with its own code, with no stack trace.
for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreClosedPipe);

function ignoreClosedPipe(error) {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
}

startCli()
  .run(process.argv)
  .then(async (code) => {
    process.exitCode = code;
    // A write to a pipe is asynchronous while the reader is behind; exiting with output still queued would
    // cut it short (a 20,000-row list piped to a slow reader kept only its first 64 KB).
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
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
