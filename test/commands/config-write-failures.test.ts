// A config dir this machine will not write — a read-only file system, a full disk — ends the command with exit 9
// and one line naming the file and the cause, the file left as it was (not exit 1 "unexpected error"). The
// file systems are real: small tmpfs mounts, made read-only or filled up. Mounting needs root (CI runs as
// root); where it is not allowed these tests are skipped, saying why.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { fillUp, tmpfsMounts } from '../helpers/tmpfs.js';
import { writeFailure } from '../../src/lib/write-failure.js';
import { WriteFailedError } from '../../src/errors.js';

guardStrayOutput();

const mounts = tmpfsMounts('blogctl-mounts-');
/** A 64 KiB tmpfs at `<base>/<name>`; undefined when this machine does not allow mounting (not root). */
const mountTmpfs = (name: string): string | undefined => mounts.mount(name, '64k');

const readOnly = mountTmpfs('ro');
const full = readOnly && mountTmpfs('full');
const CONFIG = '{"settings": {"timeout": 5}}';

if (readOnly) {
  mkdirSync(join(readOnly, 'cfg'), { mode: 0o700 });
  writeFileSync(join(readOnly, 'cfg', 'config.json'), CONFIG, { mode: 0o600 });
  execFileSync('mount', ['-o', 'remount,ro', readOnly], { stdio: 'pipe' });
}
if (full) {
  mkdirSync(join(full, 'cfg'), { mode: 0o700 });
  writeFileSync(join(full, 'cfg', 'config.json'), CONFIG, { mode: 0o600 });
  fillUp(full);
}

afterAll(() => mounts.cleanup());

const cli = (dir: string, args: string[], input?: string) =>
  runInProcess(args, { env: { BLOGCTL_CONFIG_DIR: dir }, ...(input !== undefined && { input }) });

describe.skipIf(!readOnly)('a config dir on a read-only file system (needs root to mount)', () => {
  const dir = join(readOnly ?? '', 'cfg');

  it('config set: exit 9, one line naming config.json and EROFS; the file as it was', async () => {
    const r = await cli(dir, ['config', 'set', 'timeout', '30']);
    expect(r.stderr).toBe(
      `error: cannot write ${join(dir, 'config.json')}: the file system is read-only (EROFS); config.json was left as it was\n`,
    );
    expect(r.code).toBe(9);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(CONFIG);
  });

  it('auth login: exit 9, and the key is never shown', async () => {
    const key = 'sk_live_ROROROROROROROROROR';
    const r = await cli(
      dir,
      ['--base-url', 'http://127.0.0.1:9', 'auth', 'login', '--with-key', '--no-verify'],
      `${key}\n`,
    );
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(
      /^error: cannot write \S+\/(config|credentials)\.json: the file system is read-only \(EROFS\); /,
    );
    expect(r.stderr).not.toContain(key);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('a config dir that does not exist yet: EROFS where it would be made, not ENOENT', async () => {
    const missing = join(readOnly!, 'not-yet', 'blogctl');
    const r = await cli(missing, ['config', 'set', 'timeout', '30']);
    expect(r.stderr).toBe(
      `error: cannot write ${join(missing, 'config.json')}: the file system is read-only (EROFS at ${readOnly}); config.json was left as it was\n`,
    );
    expect(r.code).toBe(9);
  });

  it('--sandbox: exit 9 naming the sandbox state directory and EROFS, not ENOENT; nothing sent', async () => {
    const r = await cli(dir, ['--sandbox', 'blog', 'list']);
    expect(r.stderr).toBe(
      `error: cannot write ${join(dir, 'sandbox')}: the file system is read-only (EROFS at ${dir}); nothing was sent\n`,
    );
    expect(r.code).toBe(9);
    expect(r.stdout).toBe('');
  });
});

describe.skipIf(!full)('a config dir on a full disk (needs root to mount)', () => {
  const dir = join(full ?? '', 'cfg');

  it('config set: exit 9 naming config.json and ENOSPC; the file as it was, no temporary file left', async () => {
    const r = await cli(dir, ['config', 'set', 'timeout', '30']);
    expect(r.stderr).toBe(
      `error: cannot write ${join(dir, 'config.json')}: no space is left on the device (ENOSPC); config.json was left as it was\n`,
    );
    expect(r.code).toBe(9);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(CONFIG);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('wp sites add: the password is not half written anywhere', async () => {
    const r = await cli(
      dir,
      [
        ...['wp', 'sites', 'add', 's1', '--url', 'http://127.0.0.1:9', '--username', 'u', '--password-stdin'],
        '--no-verify',
      ],
      'full disk pw\n',
    );
    expect(r.code).toBe(9);
    expect(r.stderr).toContain(
      `cannot write ${join(dir, 'credentials.json')}: no space is left on the device (ENOSPC)`,
    );
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});

describe('writeFailure', () => {
  const error = (code: string) => Object.assign(new Error(`${code}: raw`), { code });

  it.each([
    ['EACCES', 'permission denied'],
    ['EPERM', 'the operation is not permitted'],
    ['EDQUOT', 'the disk quota is used up'],
    ['EIO', 'an I/O error'],
  ])('%s: %s', (code, cause) => {
    const failure = writeFailure(error(code), '/x/config.json', 'config.json was left as it was');
    expect(failure).toBeInstanceOf(WriteFailedError);
    expect(failure!.exitCode).toBe(9);
    expect(failure!.message).toBe(
      `cannot write /x/config.json: ${cause} (${code}); config.json was left as it was`,
    );
  });

  it('leaves other errors alone, and an ENOENT whose nearest directory can be written', () => {
    expect(writeFailure(error('EISDIR'), '/x', 'y')).toBeUndefined();
    expect(writeFailure(new Error('no code'), '/x', 'y')).toBeUndefined();
    expect(
      writeFailure(error('ENOENT'), join(mkdtempSync(join(tmpdir(), 'blogctl-')), 'a', 'b'), 'y'),
    ).toBeUndefined();
  });
});
