// What a person meets first, as a process: `blogctl` alone prints its help to stdout and exits 0 (as gh
// does); `--version` prints name, version and build date, the same through bin/'s fast path and through
// the parser.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

const VERSION_LINE = /^blogctl version \d+\.\d+\.\d+\S* \(\d{4}-\d\d-\d\d\)\n$/;

describe('first run', () => {
  it('blogctl alone: the help on stdout, nothing on stderr, exit 0', async () => {
    const res = await runCli([]);
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/^Usage: blogctl \[options\] \[command\]\n/);
    expect(res.stdout).toContain('Commands:');
  });

  it('--version: "blogctl version X.Y.Z (date)", the same with the parser on the line', async () => {
    const fast = await runCli(['--version']);
    expect(fast.code).toBe(0);
    expect(fast.stdout).toMatch(VERSION_LINE);
    const parsed = await runCli(['--no-color', '--version']);
    expect(parsed.code).toBe(0);
    expect(parsed.stdout).toBe(fast.stdout);
    expect((await runCli(['-V'])).stdout).toBe(fast.stdout);
  });
});
