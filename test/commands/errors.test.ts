// How src/cli/report.ts reports an error with hints: a list under the line for a person at a terminal; for a
// script, one line with the advice folded into it (and, with --json, the error object carrying the hints).
// Per-item details of a batch are never folded. In-process, with stderr a fake terminal or not.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli.js';
import { IO } from '../../src/output/io.js';
import { createFlags, tempConfigDir } from '../helpers/cli.js';

async function cli(
  args: string[],
  stderrIsTTY: boolean,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { BLOGCTL_CONFIG_DIR: tempConfigDir(), NO_COLOR: '1' };
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrIsTTY });
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdin.end();
  const io = new IO({ stdin, stdout, stderr, env, noInput: true });
  const code = await run(['node', 'blogctl', ...args], { env, io });
  return { code, stdout: out, stderr: err };
}

const UNKNOWN_SITE = ['wp', 'sites', 'show', 'ghost'];
const MISSING_PARAMS = ['blog', 'create', ...createFlags().slice(0, 2), '--sandbox'];

describe('hint lines under an error', () => {
  it('on a terminal: the error, then each hint as a "  • " line', async () => {
    const site = await cli(UNKNOWN_SITE, true);
    expect(site.code).toBe(5);
    expect(site.stderr).toBe(
      'error: no WordPress site profile "ghost"\n' +
        '  • list them with `blogctl wp sites list`, add one with `blogctl wp sites add <id> --url … --username …`\n',
    );
    const create = await cli(MISSING_PARAMS, true);
    expect(create.code).toBe(2);
    expect(create.stderr.split('\n')).toEqual([
      expect.stringMatching(/^error: missing required parameters: --language, /),
      expect.stringMatching(/^ {2}• pass them as flags or in a -f params\.json file; nothing was sent/),
      '',
    ]);
  });

  it('not a terminal: exactly one line, the advice folded into it', async () => {
    const site = await cli(UNKNOWN_SITE, false);
    expect(site.stderr).toBe(
      'error: no WordPress site profile "ghost" (list them with `blogctl wp sites list`, add one with `blogctl wp sites add <id> --url … --username …`)\n',
    );
    const create = await cli(MISSING_PARAMS, false);
    expect(create.stderr.split('\n'), create.stderr).toEqual([
      expect.stringMatching(
        /^error: missing required parameters: --language, .* \(pass them as flags or in a -f params\.json file; nothing was sent/,
      ),
      '',
    ]);
  });

  it('per-item details of a batch: listed on a terminal, never folded into the line', async () => {
    const ids = ['6650c0ffee0000000000abcd', '6650c0ffee0000000000abce'];
    const args = ['--sandbox', 'blog', 'delete', ...ids, '--yes'];
    const tty = await cli(args, true);
    expect(tty.code).toBe(5);
    const lines = tty.stderr.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('  • '))).toHaveLength(2);
    const piped = await cli(args, false);
    expect(piped.code).toBe(5);
    const errors = piped.stderr.split('\n').filter((l) => l.startsWith('error: '));
    expect(errors).toHaveLength(1);
    expect(piped.stderr).not.toContain('  • ');
    expect(errors[0]!.length).toBeLessThan(300);
  });

  it('not a terminal, with --json: the line, then the error object with the hints', async () => {
    const res = await cli([...UNKNOWN_SITE, '--json'], false);
    expect(res.stdout).toBe('');
    const [line, object, end] = res.stderr.split('\n');
    expect(line).toBe(
      'error: no WordPress site profile "ghost" (list them with `blogctl wp sites list`, add one with `blogctl wp sites add <id> --url … --username …`)',
    );
    expect(JSON.parse(object!)).toEqual({
      error: 'not_found',
      message: 'no WordPress site profile "ghost"',
      exitCode: 5,
      hints: [
        'list them with `blogctl wp sites list`, add one with `blogctl wp sites add <id> --url … --username …`',
      ],
    });
    expect(end).toBe('');
  });
});
