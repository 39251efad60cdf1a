#!/usr/bin/env node
// The only place that exits.
import { run } from '../dist/cli.js';

process.exitCode = await run(process.argv);
// stdout and stderr are synchronous for files, pipes and terminals on Linux, so nothing written is lost here; exiting
// explicitly means a stray timer or socket can never keep a cron job hanging.
process.exit();
