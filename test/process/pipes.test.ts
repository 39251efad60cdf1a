// A reader that stops early (`| head -1`) closes the pipe under blogctl: the command must neither crash with
// an EPIPE stack trace nor lose its exit code.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, cliEnv, createFlags, runCli, tempConfigDir } from '../helpers/cli.js';

interface Outcome {
  code: number | null;
  stderr: string;
}

/**
 * Runs the CLI with its stdout a pipe whose reading end is closed at once, before the CLI has started: its
 * first write is certain to fail with EPIPE, as a write after `head -1` has exited does.
 */
function runIntoClosedPipe(args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: cliEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed stdout pipe', () => {
  it('--help: exit 0, no stack trace', async () => {
    const out = await runIntoClosedPipe(['wp', 'publish', '--help'], { BLOGCTL_CONFIG_DIR: tempConfigDir() });
    expect(out.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(out.code).toBe(0);
  });

  it('blog list as JSON and as rows: exit 0, no stack trace; the command still ran', async () => {
    const env = { BLOGCTL_CONFIG_DIR: tempConfigDir() };
    const made = await runCli(['--sandbox', 'blog', 'create', '-q', ...createFlags('pipe')], { env });
    expect(made.code).toBe(0);
    for (const args of [
      ['--sandbox', 'blog', 'list', '--json'],
      ['--sandbox', 'blog', 'list'],
    ]) {
      const out = await runIntoClosedPipe(args, env);
      expect(out.stderr).not.toMatch(/EPIPE|\n\s+at /);
      expect(out.code).toBe(0);
    }
    // A delete whose confirmation line has nowhere to go still deletes.
    const id = made.stdout.trim();
    const deleted = await runIntoClosedPipe(['--sandbox', 'blog', 'delete', id, '--yes', '--json'], env);
    expect(deleted.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(deleted.code).toBe(0);
    const left = await runCli(['--sandbox', 'blog', 'list', '--json'], { env });
    expect(JSON.parse(left.stdout)).toEqual([]);
  });
});

describe('a stdout that cannot be written (a full disk: /dev/full)', () => {
  /** The CLI with stdout on /dev/full: every write fails with ENOSPC. */
  function runIntoFullDevice(
    args: string[],
    env: Record<string, string>,
  ): { code: number | null; stderr: string } {
    const out = openSync('/dev/full', 'w');
    try {
      const res = spawnSync(process.execPath, [BIN, ...args], {
        env: cliEnv(env),
        stdio: ['ignore', out, 'pipe'],
        encoding: 'utf8',
      });
      return { code: res.status, stderr: res.stderr };
    } finally {
      closeSync(out);
    }
  }

  it.each([
    ['--version', ['--version']],
    ['--help', ['--help']],
    ['a command that prints data', ['--sandbox', 'blog', 'create', ...createFlags(), '--json']],
  ])('%s: exit 9 and one line naming the cause, no stack trace', (_name, args) => {
    const res = runIntoFullDevice(args, { BLOGCTL_CONFIG_DIR: tempConfigDir() });
    expect(res.code, res.stderr).toBe(9);
    expect(res.stderr).toBe('error: could not write the output to stdout: ENOSPC\n');
  });
});
