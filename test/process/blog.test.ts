// Overlapping `blog` commands as separate processes on one config dir, the way cron jobs collide. Every other
// `blog` behaviour a script sees is tested in-process: test/commands/blog-scripts.test.ts.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, cliEnv, createFlags, runCli, tempConfigDir } from '../helpers/cli.js';

const REQUIRED = createFlags();

describe('--sandbox (state in the config dir)', () => {
  it('overlapping commands on one config dir take turns: none loses a blog made by another', async () => {
    const dir = tempConfigDir();
    const env = { BLOGCTL_CONFIG_DIR: dir };
    const runs = await Promise.all(
      Array.from({ length: 6 }, () => runCli(['--sandbox', 'blog', 'create', ...REQUIRED, '-q'], { env })),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const ids = runs.map((r) => r.stdout.trim());
    expect(new Set(ids).size).toBe(6);
    const list = await runCli(['--sandbox', 'blog', 'list', '--json', 'id'], { env });
    expect(
      JSON.parse(list.stdout)
        .map((b: { id: string }) => b.id)
        .sort(),
    ).toEqual([...ids].sort());
  });
});

describe('blog show on a terminal that reports 0 columns (inside `script`)', () => {
  it('lays the post out at 80 columns through the pager, and ends', async () => {
    const dir = tempConfigDir();
    const env = { BLOGCTL_CONFIG_DIR: dir };
    const created = await runCli(
      ['--sandbox', 'blog', 'create', ...createFlags('cold brew'), '--length', 'long', '-q'],
      {
        env,
      },
    );
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    // `cat -` is a pager like any other (a bare `cat` means none): the terminal is handed to it.
    const command = `stty cols 0 rows 0; exec "${process.execPath}" "${BIN}" --sandbox blog show ${id}`;
    const result = spawnSync('script', ['-qec', command, '/dev/null'], {
      encoding: 'utf8',
      env: { ...cliEnv(env), BLOGCTL_PAGER: 'cat -', TERM: 'xterm' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    expect(result.error, 'it ended').toBeUndefined();
    expect(result.status, result.stderr).toBe(0);
    const lines = result.stdout
      .replace(/\r/g, '')
      .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
      .trimEnd()
      .split('\n');
    expect(
      lines.some((l) => /^#+ \S/.test(l)),
      result.stdout,
    ).toBe(true);
    expect(lines.length).toBeGreaterThan(30);
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
