// Whose project file (docs/sync.md): project discovery stops at a folder another user owns or anyone may
// write, as git's safe.directory does, and says which project file it did not use. Tested for real: folders
// chowned to another user (65534) and made world-writable (sticky too, as /tmp), as root.
import { chmodSync, chownSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('trust');
const OTHER = 65534;
const asRoot = process.getuid?.() === 0;

/** `<shared>/blogctl.yml` of someone else, and this user's folder `<shared>/alice/posts` with a post. */
function planted(prepare: (shared: string) => void): { shared: string; alice: string } {
  const shared = mkdtempSync(join(world.home, 'shared-'));
  writeFileSync(
    join(shared, 'blogctl.yml'),
    'site: {url: "http://127.0.0.1:9", username: mallory}\nnamespace: planted\n',
  );
  const alice = join(shared, 'alice');
  mkdirSync(join(alice, 'posts'), { recursive: true });
  writeFileSync(join(alice, 'posts/a.md'), '# A\n\nText.\n');
  prepare(shared);
  return { shared, alice };
}

describe.skipIf(!asRoot)('project discovery stops at a folder this user does not control', () => {
  it.each([
    ['world-writable', (dir: string) => chmodSync(dir, 0o777), 'anyone may write to it'],
    [
      'sticky and world-writable, as /tmp',
      (dir: string) => chmodSync(dir, 0o1777),
      'anyone may write to it (a shared folder, as /tmp)',
    ],
    [
      'owned by another user',
      (dir: string) => {
        chownSync(dir, OTHER, OTHER);
        chownSync(join(dir, 'blogctl.yml'), OTHER, OTHER);
      },
      `another user (uid ${OTHER}) owns it`,
    ],
  ])('%s: its blogctl.yml is not used, and stderr says so', async (_name, prepare, why) => {
    const run = await world.runner();
    const { alice } = planted(prepare);
    process.chdir(alice);
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `warning: ../blogctl.yml not used: ..: ${why} (a project file there could be anyone's;`,
    );
    expect(res.stderr).toMatch(/^error: no blogctl\.yml here or above/m);
    // With a file and a site of one's own: published outside any project, never to the planted site.
    const file = await run(['wp', 'publish', '--dry-run', '--site', 'blog', 'posts/a.md']);
    expect(file.code, file.stderr).toBe(0);
    expect(file.stderr).toContain('../blogctl.yml not used');
    expect(file.stderr).not.toContain('mallory');
    expect(file.stdout).not.toContain('planted');
  });

  it('a project file another user owns in a folder of this user is not used either', async () => {
    const run = await world.runner();
    const root = mkdtempSync(join(world.home, 'own-'));
    mkdirSync(join(root, 'posts'));
    writeFileSync(join(root, 'posts/a.md'), '# A\n\nText.\n');
    writeFileSync(join(root, 'blogctl.yml'), 'site: blog\nnamespace: theirs\n');
    chownSync(join(root, 'blogctl.yml'), OTHER, OTHER);
    process.chdir(root);
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`warning: blogctl.yml not used: another user (uid ${OTHER}) owns it`);
    // Trusted by name (a container job as root in a checkout its runner's user owns).
    const trusted = await runInProcess(['wp', 'publish', '--dry-run'], {
      env: {
        BLOGCTL_CONFIG_DIR: join(root, 'no-config'),
        BLOGCTL_SAFE_DIRECTORIES: join(root, 'blogctl.yml'),
        BLOGCTL_WP_PASSWORD: 'abcd efgh ijkl mnop qrst uvwx',
      },
    });
    expect(trusted.stderr).not.toContain('not used');
    // The project was read: its site profile "blog" is looked for in this empty config dir.
    expect(trusted.stderr).toMatch(/^error: no WordPress site profile "blog"/m);
  });

  it('a folder of this user, not writable by others, below a trusted one: used as before', async () => {
    const run = await world.runner();
    const { alice } = planted((shared) => chmodSync(shared, 0o755));
    process.chdir(alice);
    const res = await run(['wp', 'publish', '--dry-run']);
    // The planted file is this user's here: it is read (and its unreachable site fails the run).
    expect(res.stderr).not.toContain('not used');
    expect(res.stderr).not.toContain('no blogctl.yml here or above');
  });
});
