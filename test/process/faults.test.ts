// Every command that talks to the service, against every fault the service (or the network) can produce: the
// documented exit code, one clear line on stderr, no stack, no secret, the config dir untouched, and no POST
// sent twice — while the requests that are safe to repeat are retried and succeed once the fault clears.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import {
  SECRETS,
  expectNoSecrets,
  expectOneErrorLine,
  seededConfigDir,
  serviceCommands,
  snapshotDir,
  splitInDoubt,
  startFaultServer,
  type Fault,
  type FaultServer,
  type ServiceCommand,
  type Step,
} from '../helpers/fault-server.js';

const workDir = mkdtempSync(join(tmpdir(), 'blogctl-faults-'));
const COMMANDS = serviceCommands(workDir);
const RETRIES = 2;

/** Faults whose answer proves nothing was done, or whose connection broke: the ones worth repeating. */
const RETRIED: Fault[] = ['502', '503', '504', '429', 'reset', 'truncated'];

const FAULTS: { fault: Step; exit: number; label: string }[] = [
  { label: 'html500', fault: 'html500', exit: 7 },
  { label: '502', fault: '502', exit: 7 },
  { label: '503 + Retry-After seconds', fault: { fault: '503', retryAfter: '0' }, exit: 7 },
  { label: '504', fault: '504', exit: 7 },
  // 429 is "another 4xx" in the exit-code table (issue 3).
  {
    label: '429 + Retry-After date',
    fault: { fault: '429', retryAfter: new Date(Date.now() - 5_000).toUTCString() },
    exit: 6,
  },
  { label: 'hang', fault: 'hang', exit: 7 },
  { label: 'reset', fault: 'reset', exit: 7 },
  { label: 'truncated', fault: 'truncated', exit: 7 },
  { label: 'invalidJson', fault: 'invalidJson', exit: 7 },
  { label: 'empty204', fault: 'empty204', exit: 7 },
  { label: '401', fault: '401', exit: 4 },
  { label: '403', fault: '403', exit: 4 },
  { label: '404', fault: '404', exit: 5 },
  { label: '413', fault: '413', exit: 6 },
  { label: 'huge', fault: 'huge', exit: 7 },
  { label: 'hugeDeclared', fault: 'hugeDeclared', exit: 7 },
];

const faultName = (step: Step): Fault => (typeof step === 'string' ? step : step.fault);

/** Answers that say for certain the request was not acted on: anything else leaves a publish in doubt. */
const DEFINITE: Fault[] = ['429', '401', '403', '404', '413'];

/** What the documented behaviour is for one command and one fault. */
function expectedExit(command: ServiceCommand, step: Step, base: number): number {
  // A 204 is one of the two documented answers to a delete.
  if (command.route === 'delete' && faultName(step) === 'empty204') return 0;
  return base;
}

function expectedRequests(command: ServiceCommand, step: Step): number {
  const fault = faultName(step);
  if (!command.idempotent) return 1;
  if (command.route === 'delete' && fault === 'empty204') return 1;
  return RETRIED.includes(fault) ? RETRIES + 1 : 1;
}

interface Run {
  result: CliResult;
  server: FaultServer;
  before: Record<string, string>;
  after: Record<string, string>;
}

/** One command against its own fault server, with the config dir watched. */
async function run(
  command: ServiceCommand,
  plan: Step | Step[],
  extra: { args?: string[]; env?: Record<string, string>; timeout?: string } = {},
): Promise<Run> {
  const faults = await startFaultServer({ plan: { [command.route]: plan } });
  try {
    const dir = seededConfigDir();
    const before = snapshotDir(dir);
    const result = await runCli(
      // --json [fields] takes an optional value, so extra flags go after the command's own arguments.
      [
        '--base-url',
        faults.url,
        '--retries',
        String(RETRIES),
        '--timeout',
        extra.timeout ?? '1',
        ...command.args,
        ...(extra.args ?? []),
      ],
      {
        env: {
          BLOGCTL_CONFIG_DIR: dir,
          ...SECRETS,
          BLOGCTL_RETRY_BASE_MS: '1',
          BLOGCTL_MAX_RESPONSE_MB: '1',
          ...extra.env,
        },
        timeoutMs: 15_000,
      },
    );
    return { result, server: faults, before, after: snapshotDir(dir) };
  } finally {
    await faults.close();
  }
}

describe.concurrent.each(COMMANDS)('$name', (command) => {
  it('succeeds when the service answers well', async () => {
    const { result, server: s, before, after } = await run(command, 'ok');
    expect(result.stderr).not.toMatch(/error:/);
    expect(result.code, result.stderr).toBe(0);
    expect(s.count(command.route)).toBe(1);
    // A successful publish is recorded in the journal; nothing else changes.
    const { 'journal.jsonl': journal, ...rest } = after;
    expect(rest).toEqual(before);
    expect(journal !== undefined).toBe(command.route === 'publish');
    expectNoSecrets(result.stdout, result.stderr);
  });

  it.each(FAULTS)('$label → exit $exit', async ({ fault, exit }) => {
    const { result, server: s, before, after } = await run(command, fault);
    const code = expectedExit(command, fault, exit);
    expect(result.signal, 'ended by itself, not by the test timeout').toBeNull();
    expect(result.code, `${result.stderr}`).toBe(code);
    if (code !== 0) expectOneErrorLine(result);
    expectNoSecrets(result.stdout, result.stderr);
    // Unchanged but for the record of a publish whose outcome is unknown (the next run checks first).
    const { inDoubt, rest } = splitInDoubt(after);
    expect(rest, 'config dir byte-identical').toEqual(before);
    expect(inDoubt).toHaveLength(command.route === 'publish' && !DEFINITE.includes(faultName(fault)) ? 1 : 0);
    expect(s.count(command.route), 'requests that reached the server').toBe(expectedRequests(command, fault));
    expect(s.unexpected).toEqual([]);
    if (!command.idempotent) {
      const keys = s.keys(command.route);
      expect(keys[0]).toMatch(/^\S{8,}$/);
    }
  });
});

describe.concurrent('recovery once the fault clears', () => {
  const idempotent = COMMANDS.filter((c) => c.idempotent);
  it.each(
    idempotent.flatMap((c) =>
      (['502', '503', '504', '429', 'reset'] as const).map((fault) => ({ c, fault, name: c.name })),
    ),
  )('$name after $fault twice', async ({ c, fault }) => {
    const { result, server: s } = await run(c, [fault, fault, 'ok']);
    expect(result.code, result.stderr).toBe(0);
    expect(s.count(c.route)).toBe(3);
    expect(result.stderr).not.toMatch(/error:/);
  });

  it('honours a Retry-After of one second', async () => {
    const started = Date.now();
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const { result, server: s } = await run(list, [{ fault: '503', retryAfter: '1' }, 'ok'], {
      timeout: '10',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(s.count('list')).toBe(2);
  });

  it('--retries 0 sends a GET once', async () => {
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const faults = await startFaultServer({ plan: { list: '503' } });
    try {
      const result = await runCli(['--base-url', faults.url, '--retries', '0', 'blog', 'list'], {
        env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, BLOGCTL_RETRY_BASE_MS: '1' },
      });
      expect(result.code).toBe(7);
      expect(faults.count(list.route)).toBe(1);
    } finally {
      await faults.close();
    }
  });

  it.each(COMMANDS.filter((c) => !c.idempotent))(
    '$name is not repeated after 503, even when it clears',
    async (c) => {
      const { result, server: s } = await run(c, ['503', 'ok']);
      expect(result.code).toBe(7);
      expect(s.count(c.route)).toBe(1);
    },
  );
});

describe.concurrent('--json errors', () => {
  it.each(COMMANDS)('$name: one error line and one JSON object on stderr', async (c) => {
    const { result } = await run(c, '503', { args: ['--json'] });
    expect(result.code).toBe(7);
    expectOneErrorLine(result, { json: true });
    const objects = result.stderr.split('\n').filter((l) => l.startsWith('{'));
    expect(objects).toHaveLength(1);
    expect(JSON.parse(objects[0]!)).toMatchObject({ error: 'unavailable', exitCode: 7, status: 503 });
    if (c.route === 'delete') {
      // `delete --json` reports each id's outcome on stdout, failures included (issue 3).
      expect(JSON.parse(result.stdout)).toEqual([
        expect.objectContaining({ id: 'blog-1', deleted: false, status: 503 }),
      ]);
    } else {
      expect(result.stdout).toBe('');
    }
    expectNoSecrets(result.stdout, result.stderr);
  });
});

describe('timeouts', () => {
  it('a hanging service ends at --timeout, even with retries left', async () => {
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const started = Date.now();
    const { result, server: s } = await run(list, 'hang', { args: ['--retries', '5'] });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/within 1 s/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(s.count('list')).toBe(1);
  });

  it('BLOGCTL_TIMEOUT bounds blog create too', async () => {
    const create = COMMANDS.find((c) => c.name === 'blog create')!;
    const faults = await startFaultServer({ plan: { create: 'hang' } });
    try {
      const started = Date.now();
      const result = await runCli(['--base-url', faults.url, ...create.args], {
        env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, BLOGCTL_TIMEOUT: '1' },
      });
      expect(result.code).toBe(7);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(faults.count('create')).toBe(1);
    } finally {
      await faults.close();
    }
  });

  it('a service that is not listening is exit 7 with the reason', async () => {
    const list = COMMANDS.find((c) => c.name === 'blog list')!;
    const result = await runCli(['--base-url', 'http://127.0.0.1:9', '--retries', '1', ...list.args], {
      env: { BLOGCTL_CONFIG_DIR: seededConfigDir(), ...SECRETS, BLOGCTL_RETRY_BASE_MS: '1' },
    });
    expect(result.code).toBe(7);
    expectOneErrorLine(result);
    expect(result.stderr).toMatch(/connection refused/);
  });
});
