// `auth login --with-key` checks the key against the service before storing it. When the check cannot be made
// (5xx, a hang, a reset, a body that is not JSON) it fails with exit 7 and stores nothing — config.json and
// credentials.json are byte for byte as they were — and says that --no-verify stores a key unchecked.
import { describe, expect, it } from 'vitest';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { seededConfigDir, snapshotDir, startFaultServer, type Fault } from '../helpers/fault-server.js';

guardStrayOutput();

const KEY = 'sk_login_Tq4Wm8Zr2Xp6Nv0';

/** A fault server of its own: the plan is per route and these runs go concurrently. */
async function login(fault: Fault, extra: string[] = []) {
  const faults = await startFaultServer({ plan: { list: fault } });
  try {
    const dir = seededConfigDir();
    const before = snapshotDir(dir);
    // Only a hang is met by --timeout; the server shares this event loop with the concurrent runs, so any
    // other fault gets a deadline a loaded machine cannot reach, and a hang one its request surely arrives in.
    const timeout = fault === 'hang' ? '4' : '30';
    const result = await runInProcess(
      [
        '--base-url',
        faults.url,
        '--timeout',
        timeout,
        '--retries',
        '1',
        'auth',
        'login',
        '--with-key',
        ...extra,
      ],
      { env: { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_RETRY_BASE_MS: '1' }, input: `${KEY}\n` },
    );
    return { result, unchanged: JSON.stringify(snapshotDir(dir)) === JSON.stringify(before), dir };
  } finally {
    await faults.close();
  }
}

describe.concurrent('auth login --with-key when the key cannot be checked', () => {
  it.each<Fault>(['503', '502', 'html500', 'hang', 'reset', 'invalidJson', 'truncated'])(
    '%s: exit 7, nothing stored, --no-verify named',
    async (fault) => {
      const { result, unchanged } = await login(fault);
      expect(result.code, result.stderr).toBe(7);
      expect(result.stderr).toMatch(
        /^error: could not check the API key: .+; nothing was stored \(--no-verify stores it without checking\)\n$/,
      );
      expect(unchanged).toBe(true);
      expect(result.stdout + result.stderr).not.toContain(KEY);
    },
  );

  it.each<Fault>(['401', '403'])('%s: exit 4, nothing stored', async (fault) => {
    const { result, unchanged } = await login(fault);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/the service rejected this API key \(HTTP 40[13]\); nothing was stored/);
    expect(unchanged).toBe(true);
  });

  it('--no-verify stores it without asking the service', async () => {
    const { result, unchanged } = await login('503', ['--no-verify']);
    expect(result.code, result.stderr).toBe(0);
    expect(unchanged).toBe(false);
  });

  it('a service that answers well: stored', async () => {
    const { result, unchanged } = await login('ok');
    expect(result.code, result.stderr).toBe(0);
    expect(unchanged).toBe(false);
  });
});
