// Writes dist/blogctl.1, the man page (package.json "man", so `man blogctl` works after `npm install -g`),
// from the command tree itself: every command with its usage, description, options and the text its --help
// shows after them (examples, notes), the global options, the exit codes and the environment (the lists
// `blogctl help exit-codes` and `blogctl help environment` print). scripts/build.mjs runs it after bundling.
//
//   node scripts/man.mjs            write dist/blogctl.1
//   node scripts/man.mjs --stdout   print it instead
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The tree and the two lists, from src/ (bundled into one throw-away file: the lists live in a chunk of dist/
// that the entry does not export).
const bundled = await build({
  stdin: {
    contents:
      "export { buildProgram } from './src/cli.ts';\n" +
      "export { jsonFieldsByPath } from './src/commands/define.ts';\n" +
      "export { EXIT_CODES, ENVIRONMENT } from './src/commands/help/topics.ts';\n",
    resolveDir: root,
    loader: 'ts',
  },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  define: { BLOGCTL_VERSION: JSON.stringify(pkg.version) },
  external: ['@napi-rs/keyring', 'esprima'],
  write: false,
  logLevel: 'warning',
});
const tmp = mkdtempSync(join(tmpdir(), 'blogctl-man-'));
let source;
try {
  writeFileSync(join(tmp, 'tree.cjs'), bundled.outputFiles[0].contents);
  source = createRequire(import.meta.url)(join(tmp, 'tree.cjs'));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const { buildProgram, jsonFieldsByPath, EXIT_CODES, ENVIRONMENT } = source;

const program = buildProgram({
  deps: () => Promise.reject(new Error('the man page generator runs no command')),
  stopOnSignal() {},
});
/** Each command's `--json` fields, as it declares them. */
const jsonFields = await jsonFieldsByPath(program);

/**
 * Text for roff: backslashes escaped, a line starting with "." or "'" not read as a request, and anything
 * beyond ASCII (—, …, →) as a named Unicode character, which every roff reads whatever its input encoding.
 */
const esc = (text) =>
  text
    .replace(/\\/g, '\\e')
    .replace(
      /[\u0080-\u{10ffff}]/gu,
      (c) => `\\[u${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}]`,
    )
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
/** An option or command name: hyphens as \- so they print (and are searched) as ASCII hyphens. */
const flag = (text) => esc(text).replace(/-/g, '\\-');
/** The text a command's --help shows after its options (examples, notes), as it shows it. */
function helpAfter(cmd) {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: () => {}, getOutHelpWidth: () => 80 });
  cmd.outputHelp();
  const base = cmd.helpInformation();
  return text.startsWith(base) ? text.slice(base.length).replace(/^\n+|\s+$/g, '') : '';
}

const help = program.createHelp();
help.helpWidth = 80;
const out = [];
const line = (...l) => out.push(...l);

/** Options as a list of tagged paragraphs. */
function options(list) {
  for (const o of list) {
    line('.TP', `.B ${flag(o.flags)}`, esc(help.optionDescription(o)));
  }
}

/** Every visible command below `cmd`, depth first, with its full name. */
function commands(cmd, prefix) {
  return help
    .visibleCommands(cmd)
    .filter((sub) => !(sub.name() === 'help' && cmd !== program))
    .flatMap((sub) => {
      const name = `${prefix} ${sub.name()}`;
      return [[name, sub], ...commands(sub, name)];
    });
}

line(
  `.TH BLOGCTL 1 "" "blogctl ${pkg.version}" "User Commands"`,
  '.SH NAME',
  `blogctl \\- ${esc(program.description().replace(/\.$/, ''))}`,
  '.SH SYNOPSIS',
  '.B blogctl',
  '[\\fIoptions\\fR] \\fIcommand\\fR [\\fIsubcommand\\fR] [\\fIarguments\\fR]',
  '.SH DESCRIPTION',
  esc(pkg.description),
  '.PP',
  'Data goes to stdout; progress, prompts, warnings and notes go to stderr.',
  'Every command that prints data takes \\fB\\-\\-json\\fR [\\fIfields\\fR] and \\fB\\-\\-jq\\fR \\fIexpression\\fR.',
  "Each command's own page: \\fBblogctl\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR.",
  '.SH OPTIONS',
  'These options are accepted by every command, before or after its name.',
);
options(help.visibleOptions(program));
const rootAfter = helpAfter(program);
if (rootAfter) line('.PP', '.nf', esc(rootAfter), '.fi');

line('.SH COMMANDS');
for (const [name, cmd] of commands(program, 'blogctl')) {
  // Commander's usage line ("blogctl auth login [options]"): the name in bold, what follows as it is.
  const usage = help.commandUsage(cmd);
  const rest = usage.startsWith(name) ? usage.slice(name.length) : usage.replace(/^\S+/, '');
  line(`.SS "${esc(name)}"`, `.B ${flag(name)}`, esc(rest.trim()));
  line('.PP', esc(help.commandDescription(cmd)));
  const aliases = cmd.aliases();
  if (aliases.length) line('.PP', `Also: ${aliases.map((a) => `\\fB${flag(a)}\\fR`).join(', ')}.`);
  const args = help.visibleArguments(cmd);
  for (const a of args) line('.TP', `.I ${esc(help.argumentTerm(a))}`, esc(help.argumentDescription(a)));
  const own = help.visibleOptions(cmd).filter((o) => o.long !== '--help');
  if (own.length) {
    line('.PP', 'Options:');
    options(own);
  }
  const fields = jsonFields[name.slice('blogctl '.length)];
  if (fields) line('.PP', `JSON fields: ${esc(fields.join(', '))}.`);
  const after = helpAfter(cmd);
  if (after) line('.PP', '.nf', esc(after), '.fi');
}

line('.SH "EXIT STATUS"');
for (const [code, meaning, detail] of EXIT_CODES)
  line('.TP', `.B ${code}`, esc(detail ? `${meaning}: ${detail}` : meaning));

line('.SH ENVIRONMENT', 'Precedence: flag, then environment, then the selected profile, then defaults.');
for (const [name, meaning] of ENVIRONMENT) line('.TP', `.B ${flag(name)}`, esc(meaning));

line(
  '.SH FILES',
  '.TP',
  '.I $BLOGCTL_CONFIG_DIR, else $XDG_CONFIG_HOME/blogctl, else ~/.config/blogctl',
  'config.json (profiles, settings, WordPress site profiles; no secrets) and credentials.json (API keys and',
  'Application Passwords, mode 0600). \\fBblogctl config path\\fR prints where.',
  '.SH "SEE ALSO"',
  '\\fBblogctl help environment\\fR, \\fBblogctl help exit-codes\\fR, \\fBjq\\fR(1)',
);

const page = `${out.join('\n')}\n`;
if (process.argv.includes('--stdout')) process.stdout.write(page);
else {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(join(root, 'dist', 'blogctl.1'), page);
}
