// Every error line has one form, whoever found the error: commander (an unknown flag or command, a missing
// or extra argument, a value outside a choice list) or blogctl itself (a bad value, a missing parameter).
// `error: <what>: <problem>`: one line, the flag, argument or command word first, lower case after it, no
// final full stop; advice folded into the line in parentheses off a terminal; exit 2 (docs/exit-codes.md).
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

const env = { BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_BASE_URL: 'http://127.0.0.1:9' };

/** One line: `error: `, a subject, `: ` and a problem in lower case, no full stop, maybe `(advice)`. */
const ONE_FORM = /^error: (?:[-<"]|[a-z])[^\n]*?: [a-z"][^\n]*[^.]$/;

const cases: [name: string, args: string[], line: RegExp][] = [
  // commander's
  [
    'an unknown flag, with a suggestion',
    ['config', 'list', '--jsn'],
    /^error: --jsn: not a flag of blogctl config list \(did you mean --json\?\)$/,
  ],
  [
    'an unknown flag, without one',
    ['blog', 'create', '--frobnicate'],
    /^error: --frobnicate: not a flag of blogctl blog create \(the flags: blogctl blog create --help\)$/,
  ],
  [
    'an unknown command',
    ['config', 'lst'],
    /^error: "lst": not a command of blogctl config \(did you mean list\?\)$/,
  ],
  [
    'an unknown command of the root',
    ['frobnicate'],
    /^error: "frobnicate": not a command of blogctl \(the commands: blogctl --help\)$/,
  ],
  [
    'a missing argument',
    ['config', 'get'],
    /^error: <key>: missing \(usage: blogctl config get \[options\] <key>\)$/,
  ],
  [
    'a missing flag value',
    ['blog', 'list', '--limit'],
    /^error: --limit: missing its value \(usage: --limit <n>\)$/,
  ],
  [
    'too many arguments',
    ['config', 'path', 'extra'],
    /^error: "extra": too many arguments: blogctl config path takes no arguments \(usage: blogctl config path/,
  ],
  [
    'a value outside a choice list',
    ['wp', 'publish', '--status', 'nope'],
    /^error: --status: "nope" must be one of publish, draft, pending, private, future$/,
  ],
  [
    'an argument outside a choice list',
    ['completion', 'tcsh'],
    /^error: <shell>: "tcsh" must be one of bash, zsh, fish \(usage: blogctl completion/,
  ],
  [
    "a flag's own parser",
    ['wp', 'publish', '--site', 'a', '--site', 'b', 'x.md'],
    /^error: --site given twice \("a", then "b"\): one site per run; run once for each site$/,
  ],
  // blogctl's
  ['a help topic that is not one', ['help', 'nope'], /^error: "nope": neither a help topic nor a command/],
  [
    'a bad value',
    ['blog', 'list', '--limit', 'abc'],
    /^error: --limit: expected a whole number from 1 to \d+, got "abc"$/,
  ],
  ['a bad choice of ours', ['blog', 'create', '--length', 'Huge'], /^error: --length: "Huge" must be short/],
];

describe('error lines have one form', () => {
  for (const [name, args, line] of cases)
    it(`${name}: ${args.join(' ')}`, async () => {
      const res = await runInProcess(args, { env });
      expect(res.code, res.stderr).toBe(2);
      expect(res.stdout).toBe('');
      const lines = res.stderr.split('\n');
      expect(lines, res.stderr).toHaveLength(2);
      expect(lines[0]).toMatch(line);
      expect(lines[0]).toMatch(ONE_FORM);
    });

  it('with --json, the JSON error carries the same message and the advice as hints', async () => {
    const res = await runInProcess(['--json', 'config', 'lst'], { env });
    expect(res.code).toBe(2);
    const [line, json, ...rest] = res.stderr.split('\n');
    expect(line).toBe('error: "lst": not a command of blogctl config (did you mean list?)');
    expect(JSON.parse(json!)).toEqual({
      error: 'usage',
      message: '"lst": not a command of blogctl config',
      exitCode: 2,
      hints: ['did you mean list?'],
    });
    expect(rest).toEqual(['']);
  });

  it('an interruption and a declined confirmation are worded the same way', async () => {
    const { InterruptedError, CancelledError } = await import('../../src/errors.js');
    for (const message of [new InterruptedError().message, new CancelledError().message])
      expect(`error: ${message}`).toMatch(/^error: [a-z][^.]*$/);
  });
});
