// Overlapping `blog` commands as separate processes on one config dir, the way cron jobs collide. Every other
// `blog` behaviour a script sees is tested in-process: test/commands/blog-scripts.test.ts.
import { describe, expect, it } from 'vitest';
import { createFlags, runCli, tempConfigDir } from '../helpers/cli.js';

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
