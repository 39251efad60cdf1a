// The `--json` fields completion offers (src/commands/completion/fields.ts) are the fields each command
// accepts: every fixed-shape command names them in its "unknown field" error, which fails before anything
// is read or sent, so no server is needed.
import { describe, expect, it } from 'vitest';
import { JSON_FIELDS } from '../../src/commands/completion/fields.js';
import { tempConfigDir } from '../helpers/cli.js';
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
  ['wp settings update', ['--label', 'x']],
  ['wp settings update', ['--label', 'x', '--dry-run']],
  ['wp settings replace', ['--from-sites', '--yes']],
  ['wp publish', ['--title', 'x', '--content', 'y']],
  ['wp publish', ['--title', 'x', '--content', 'y', '--dry-run']],
  ['wp publish', ['a.md', 'b.md']],
];

describe('completion offers the --json fields each command accepts', () => {
  it.each(FORMS)('%s %j', async (path, args) => {
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_SANDBOX: '1' };
    const res = await runInProcess([...path.split(' '), ...args, '--json=id,no_such_field'], { env });
    const available = /\(available: ([^)]*)\)/.exec(res.stderr)?.[1];
    expect(available, res.stderr).toBeDefined();
    expect(JSON_FIELDS[path]).toEqual(expect.arrayContaining(available!.split(', ')));
  });

  it('every command path named there exists', async () => {
    for (const path of Object.keys(JSON_FIELDS)) {
      const res = await runInProcess([...path.split(' '), '--help']);
      expect(res.code, path).toBe(0);
    }
  });
});
