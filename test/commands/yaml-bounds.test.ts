// Front matter and blogctl.yml are read within bounds (docs/limits-and-security.md): an alias bomb of 11
// lines, which expands to billions of values, is a usage error (exit 2) naming the file and the line where
// the expansion passes the limit, and nothing is sent.
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';
import { ALIAS_BOMB } from '../helpers/hostile-yaml.js';

guardStrayOutput();

const world = syncWorld('yaml-bounds');

/**
 * Far above any load, never a measure of speed: the same bomb read by a YAML reader without an alias bound
 * ran for minutes and ended out of memory.
 */
const GUARD_MS = 60_000;

describe('an alias bomb is exit 2 naming the file and line', () => {
  it('in front matter', async () => {
    const run = await world.runner();
    process.chdir(newProject(world.home, 'site: blog\nnamespace: bomb-front\n', ['posts']));
    writeFileSync('posts/ok.md', '# Fine\n\nBody.\n');
    writeFileSync('posts/bomb.md', `---\ntitle: Bomb\n${ALIAS_BOMB}\n---\nBody.\n`);
    const before = world.wp.requests.length;
    const started = Date.now();
    const res = await run(['wp', 'publish']);
    expect(Date.now() - started).toBeLessThan(GUARD_MS);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain(
      'error: posts/bomb.md: front matter could not be read: aliases expand to more than 100000 values at line 8, column 8',
    );
    expect(world.wp.requests.length).toBe(before);
  });

  it('in blogctl.yml', async () => {
    const run = await world.runner();
    process.chdir(newProject(world.home, `site: blog\nnamespace: bomb-project\n${ALIAS_BOMB}\n`, ['posts']));
    writeFileSync('posts/ok.md', '# Fine\n\nBody.\n');
    const started = Date.now();
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(Date.now() - started).toBeLessThan(GUARD_MS);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/^error: blogctl\.yml:8: aliases expand to more than 100000 values$/m);
  });

  it('a blogctl.yml nested too deep or too long names its line too', async () => {
    const run = await world.runner();
    const deep = `site: blog\nnamespace: deep\ndefaults:\n  tags: ${'['.repeat(100)}${']'.repeat(100)}\n`;
    process.chdir(newProject(world.home, deep, ['posts']));
    const res = await run(['wp', 'publish', '--dry-run']);
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/^error: blogctl\.yml:4: nested more than 64 levels deep$/m);
    writeFileSync('blogctl.yml', `site: blog\nnamespace: long\n${'# padding\n'.repeat(7000)}`);
    const long = await run(['wp', 'publish', '--dry-run']);
    expect(long.code, long.stderr).toBe(2);
    expect(long.stderr).toMatch(/^error: blogctl\.yml:\d+: longer than 65536 characters$/m);
  });
});
