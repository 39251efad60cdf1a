// The command tree: the root (its global flags, help and examples), one line per group, one per verb of its
// own. A group's verbs are declared when the group is used (commands/define.ts).
import { Command } from 'commander';
import { registerAuth } from '../commands/auth/index.js';
import { registerBlog } from '../commands/blog/index.js';
import { complete } from '../commands/__complete/command.js';
import { completion } from '../commands/completion/command.js';
import { registerConfig } from '../commands/config/index.js';
import { addVerb, declareAll, examples, type App } from '../commands/define.js';
import { help } from '../commands/help/command.js';
import { sandbox } from '../commands/sandbox/command.js';
import { registerWp } from '../commands/wp/index.js';

declare const BLOGCTL_VERSION: string;
declare const BLOGCTL_VERSION_LINE: string;
export const VERSION = typeof BLOGCTL_VERSION === 'string' ? BLOGCTL_VERSION : '0.0.0-dev';
/** What --version prints, as gh does: name, version and build date (scripts/build.mjs). */
export const VERSION_LINE =
  typeof BLOGCTL_VERSION_LINE === 'string' ? BLOGCTL_VERSION_LINE : `blogctl version ${VERSION}`;

/** The whole command tree. */
export function buildProgram(app: App): Command {
  const program = declareProgram(app);
  declareAll(program);
  return program;
}

/** The root and its groups; each group's subcommands are declared when it is used (commands/define.ts). */
export function declareProgram(app: App): Command {
  const program = new Command('blogctl')
    .description('Create AI-written blog posts, manage WordPress integrations and publish them.')
    .version(VERSION_LINE, '-V, --version', 'print the version and build date')
    .helpOption('-h, --help', 'show help')
    .option('--base-url <url>', 'service base URL (env BLOGCTL_BASE_URL)')
    .option('--profile <name>', 'account profile to use (env BLOGCTL_PROFILE)')
    // `--json=` (also what a bare `--json` before a command name becomes: see bareJsonBeforeCommands) is a
    // bare --json: true, like `--json` at the end of the line, never an empty string a command could test
    // as false.
    .option('--json [fields]', 'print JSON; optionally only these comma-separated fields', (v: string) =>
      v === '' ? true : v,
    )
    .option('--jq <expression>', 'filter the JSON output with a jq expression (implies --json)')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('--no-input', 'never prompt; fail naming the missing flag (env BLOGCTL_NO_INPUT)')
    .option('--timeout <seconds>', 'response timeout in seconds (env BLOGCTL_TIMEOUT)')
    .option('--retries <n>', 'retries for requests that are safe to repeat (default 3)')
    .option('--debug', 'log requests (method, URL, status, timing; secrets redacted) to stderr')
    .option('-q, --quiet', 'print only the identifying value (ids, names, keys) and no notes')
    .option('--sandbox', 'run against a local in-process sandbox (env BLOGCTL_SANDBOX=1)')
    .showSuggestionAfterError(true)
    .addHelpCommand(false);
  examples(program, [
    'blogctl --sandbox blog create -k "home espresso" --length short',
    'blogctl auth login',
    'blogctl blog list --json id,title',
    'blogctl wp publish --site myblog --title "Hello" --content-file post.md',
  ]);
  program.addHelpText('after', '\nMore: blogctl help environment · blogctl help exit-codes\n');

  registerAuth(program, app);
  registerConfig(program, app);
  registerBlog(program, app);
  registerWp(program, app);
  addVerb(program, app, completion);
  addVerb(program, app, complete);
  addVerb(program, app, sandbox);
  addVerb(program, app, help);
  return program;
}
