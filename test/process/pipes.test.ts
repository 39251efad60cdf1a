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

describe('a stdout or stderr that cannot be written (a full disk: /dev/full)', () => {
  /** The CLI with stdout (or stderr) on /dev/full: every write to it fails with ENOSPC. */
  function runIntoFullDevice(
    args: string[],
    env: Record<string, string>,
    options: { full?: 'stdout' | 'stderr'; input?: string } = {},
  ): { code: number | null; stdout: string; stderr: string } {
    const full = openSync('/dev/full', 'w');
    try {
      const res = spawnSync(process.execPath, [BIN, ...args], {
        env: cliEnv(env),
        stdio: [
          options.input === undefined ? 'ignore' : 'pipe',
          ...(options.full === 'stderr' ? (['pipe', full] as const) : ([full, 'pipe'] as const)),
        ],
        input: options.input,
        encoding: 'utf8',
      });
      return { code: res.status, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
    } finally {
      closeSync(full);
    }
  }

  /** A config dir holding one WordPress site profile, so `wp sites list` has a row to print. */
  function configWithSite(): string {
    const dir = tempConfigDir();
    const added = spawnSync(
      process.execPath,
      [
        BIN,
        'wp',
        'sites',
        'add',
        'myblog',
        '--url',
        'https://blog.example.com',
        '--username',
        'editor',
        '--password-stdin',
        '--no-verify',
      ],
      {
        env: cliEnv({ BLOGCTL_CONFIG_DIR: dir }),
        input: 'abcd efgh ijkl mnop qrst uvwx\n',
        encoding: 'utf8',
      },
    );
    expect(added.status, added.stderr).toBe(0);
    return dir;
  }

  // The last five print their last line just before the command returns: Node records the failed write on
  // the stream at once but says so ('error') a tick later, after bin/blogctl.js had chosen exit 0.
  it.each([
    ['--version', ['--version']],
    ['--help', ['--help']],
    ['a command that prints data', ['--sandbox', 'blog', 'create', ...createFlags(), '--json']],
    ['help exit-codes', ['help', 'exit-codes']],
    ['help environment', ['help', 'environment']],
    ['config path', ['config', 'path']],
    ['completion bash', ['completion', 'bash']],
    ['wp sites list', ['wp', 'sites', 'list']],
  ])('%s: exit 9 and one line naming the cause, no stack trace', (name, args) => {
    const dir = name === 'wp sites list' ? configWithSite() : tempConfigDir();
    const res = runIntoFullDevice(args, { BLOGCTL_CONFIG_DIR: dir });
    expect(res.code, res.stderr).toBe(9);
    expect(res.stderr).toBe('error: could not write the output to stdout: ENOSPC\n');
  });

  it('a stderr that cannot be written: the data still reaches stdout, and the exit code is 9', () => {
    // `wp sites list` with no profiles says so on stderr only.
    const res = runIntoFullDevice(
      ['wp', 'sites', 'list'],
      { BLOGCTL_CONFIG_DIR: tempConfigDir() },
      { full: 'stderr' },
    );
    expect(res.code).toBe(9);
    expect(res.stdout).toBe('');
    const withData = runIntoFullDevice(
      ['config', 'path'],
      { BLOGCTL_CONFIG_DIR: tempConfigDir() },
      { full: 'stderr' },
    );
    expect(withData.code).toBe(0);
    expect(withData.stdout).not.toBe('');
  });
});
