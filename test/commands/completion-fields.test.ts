// The `--json` fields each command declares (jsonFields in src/commands/define.ts; help and completion offer
// them) are the fields it accepts: every fixed-shape command names them in its "unknown field" error, which fails before anything
// is read or sent, so no server is needed.
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { commandTree, declaredFields } from '../helpers/command-tree.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { SWEEPS, unswept } from '../helpers/sweeps.js';

guardStrayOutput();

/** A command line for each form of each fixed-shape command (its output's fields depend on its flags). */
const FORMS: [string, string[]][] = Object.entries(SWEEPS).flatMap(([path, sweep]) =>
  Array.isArray(sweep.fieldForms) ? sweep.fieldForms.map((args): [string, string[]] => [path, args]) : [],
);

describe('completion offers the --json fields each command accepts', () => {
  it.each(FORMS)('%s %j', async (path, args) => {
    const declared = await declaredFields();
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_SANDBOX: '1' };
    const res = await runInProcess([...path.split(' '), ...args, '--json=id,no_such_field'], { env });
    const available = /\(available: ([^)]*)\)/.exec(res.stderr)?.[1];
    expect(available, res.stderr).toBeDefined();
    expect(declared[path]).toEqual(expect.arrayContaining(available!.split(', ')));
  });

  it('names every declared verb with JSON fields, or says its fields are open', () => {
    expect(unswept(commandTree()).fieldForms).toEqual([]);
  });
});
