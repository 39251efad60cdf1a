// The CLI's entry (dist/cli.cjs): run() for bin/blogctl.js, the command tree, and its help as data for the
// build. Each action imports its verb lazily (commands/define.ts), so start-up loads only commander and the
// declarations.
export { buildProgram, VERSION, VERSION_LINE } from './cli/program.js';
export { helpTree, type HelpTree } from './cli/help-tree.js';
export { run, type RunOptions } from './cli/run.js';
