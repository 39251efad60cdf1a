// `config unset`: the setting leaves config.json, and the value in force is the default again; an unknown key
// is a usage error naming the keys, and nothing is written.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

describe('config unset', () => {
  it('removes the setting: config get answers the default again', async () => {
    const dir = tempConfigDir();
    const cli = (args: string[]) => runInProcess(args, { env: { BLOGCTL_CONFIG_DIR: dir } });
    expect((await cli(['config', 'set', 'retries', '5'])).code).toBe(0);
    expect((await cli(['config', 'get', 'retries'])).stdout.trim()).toBe('5');

    const unset = await cli(['config', 'unset', 'retries']);
    expect(unset.code, unset.stderr).toBe(0);
    expect(unset.stdout).toBe('');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain('retries');
    const after = await cli(['config', 'get', 'retries', '--json']);
    expect(JSON.parse(after.stdout)).toMatchObject({ key: 'retries', default: true });
  });

  it('an unknown key: exit 2 naming the known keys, and no config file is made', async () => {
    const dir = tempConfigDir();
    const res = await runInProcess(['config', 'unset', 'retry'], { env: { BLOGCTL_CONFIG_DIR: dir } });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown config key "retry" \(known: .*retries/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});
