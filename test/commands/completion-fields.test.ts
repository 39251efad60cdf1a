// The `--json` fields each command declares (jsonFields in src/commands/define.ts; help and completion offer
// them) are the fields it accepts: every fixed-shape command names them in its "unknown field" error, which fails before anything
// is read or sent, so no server is needed.
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { commandTree, declaredFields, missingFrom, verbsWithJsonFields } from '../helpers/command-tree.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

/** A command line for each form of each fixed-shape command (its output's fields depend on its flags). */
const FORMS: [string, string[]][] = [
  ['auth login', ['--with-key']],
  ['auth status', []],
  ['auth switch', ['default']],
  ['auth logout', []],
  ['config get', ['timeout']],
  ['config set', ['timeout', '3']],
  ['config unset', ['timeout']],
  ['config list', []],
  ['config path', []],
  ['blog create', ['--dry-run', '-k', 'x']],
  ['blog create', ['--publish', 's1', '-k', 'x']],
  ['blog delete', ['x', '--yes']],
  ['wp sites add', ['s1', '--url', 'https://example.com', '--username', 'u']],
  ['wp sites list', []],
  ['wp sites show', ['s1']],
  ['wp sites verify', ['s1']],
  ['wp sites remove', ['s1', '--yes']],
  ['wp sites set-password', ['s1']],
  ['wp pull', []],
  ['wp settings update', ['--label', 'x']],
  ['wp settings update', ['--label', 'x', '--dry-run']],
  ['wp settings replace', ['--from-sites', '--yes']],
  ['wp publish', ['--title', 'x', '--content', 'y']],
  ['wp publish', ['--title', 'x', '--content', 'y', '--dry-run']],
  ['wp publish', ['a.md', 'b.md']],
];

/** Commands whose output has the service's fields (a blog's), which they do not check. */
const OPEN = ['blog list', 'blog show'];

describe('completion offers the --json fields each command accepts', () => {
  it.each(FORMS)('%s %j', async (path, args) => {
    const declared = await declaredFields();
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_SANDBOX: '1' };
    const res = await runInProcess([...path.split(' '), ...args, '--json=id,no_such_field'], { env });
    const available = /\(available: ([^)]*)\)/.exec(res.stderr)?.[1];
    expect(available, res.stderr).toBeDefined();
    expect(declared[path]).toEqual(expect.arrayContaining(available!.split(', ')));
  });

  it('names every declared verb with JSON fields but those whose fields are open', () => {
    const verbs = verbsWithJsonFields(commandTree()).filter((p) => !OPEN.includes(p));
    expect(
      missingFrom(
        verbs,
        FORMS.map(([path]) => path),
      ),
    ).toEqual([]);
  });
});
