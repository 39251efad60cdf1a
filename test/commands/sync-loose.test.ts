// A Markdown file outside any project and git work tree gets a front matter `key:` on its first publish
// (loose-key.ts), in-process against the sandbox relaying to a fake WordPress: every other byte of the file
// kept, the key the one the post's marker carries, the next publish `unchanged`; a dry run writes nothing;
// a read-only file and stdin keep the warning that publishing again makes another post.
import {
  chmodSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempConfigDir, type CliResult } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startFakeWordPress } from '../helpers/fake-wordpress.js';
import { syncWorld } from '../helpers/sync-project.js';
import { keyHash, readMarker } from '../../src/publishing/identity.js';

guardStrayOutput();

const world = syncWorld('loose');

interface Row {
  source: string;
  action: string;
  id: string;
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

/** A fresh folder outside any project and git work tree. */
const looseFolder = (): string => mkdtempSync(join(world.home, 'loose-'));

/** The key line the run added to `text` (at `at`), checked to be all it changed. */
function addedKey(before: string, after: string): string {
  const m = /key: ([a-z2-9]{12})(\r?\n)/.exec(after);
  expect(m, after).not.toBeNull();
  expect(after.slice(0, m!.index) + after.slice(m!.index + m![0].length)).toBe(before);
  return m![1]!;
}

/** The marker key of post `id` on a fake WordPress (the world's by default). */
function markerKeyOf(id: string, wp = world.wp): string | undefined {
  const post = wp.posts.find((p) => p.id === Number(id))!;
  return readMarker(String(post['content'] ?? ''))?.key;
}

describe('a file outside any project and git work tree gets a front matter key on its first publish', () => {
  it('CRLF, a BOM, comments and field order kept; the key is the marker’s; the next run is unchanged', async () => {
    const run = await world.runner();
    const dir = looseFolder();
    const file = join(dir, 'hello.md');
    const text =
      '\uFEFF---\r\n# a comment\r\ntitle: Hello, WordPress   # trailing comment\r\ntags: []\r\nlayout: post\r\n---\r\nMy **first** post.\r\n';
    writeFileSync(file, text);
    process.chdir(dir);
    const first = await run(['wp', 'publish', '--site', 'blog', 'hello.md', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first)[0]).toMatchObject({ action: 'created' });
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith('\uFEFF---\r\nkey: ')).toBe(true);
    const key = addedKey(text, after);
    expect(first.stderr).toContain('front matter "key" written into the file');
    expect(first.stderr).not.toContain('cannot be found again');
    const id = rows(first)[0]!.id;
    expect(markerKeyOf(id)).toBe(keyHash(`key:${key}`));

    const again = await run(['wp', 'publish', '--site', 'blog', 'hello.md', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id });
    expect(readFileSync(file, 'utf8')).toBe(after);
    // From another folder, by another path: the same post.
    process.chdir(world.home);
    const elsewhere = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(rows(elsewhere)[0]).toMatchObject({ action: 'unchanged', id });
  });

  it('a file without front matter gets one, holding only the key; its title and body are as before', async () => {
    const run = await world.runner();
    const dir = looseFolder();
    const file = join(dir, 'plain.md');
    const text = '# Plain post\n\nNo front matter at all.\n';
    writeFileSync(file, text);
    const first = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const after = readFileSync(file, 'utf8');
    const key = /^---\nkey: ([a-z2-9]{12})\n---\n/.exec(after)?.[1];
    expect(key, after).toBeDefined();
    expect(after).toBe(`---\nkey: ${key!}\n---\n${text}`);
    const post = world.wp.posts.find((p) => p.id === Number(rows(first)[0]!.id))!;
    expect(post.title).toBe('Plain post');
    const again = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: rows(first)[0]!.id });
  });

  it('--dry-run says it would write the key, and writes nothing', async () => {
    const run = await world.runner();
    const dir = looseFolder();
    const file = join(dir, 'dry.md');
    const text = '---\ntitle: Dry\n---\nBody.\n';
    writeFileSync(file, text);
    const posts = world.wp.posts.length;
    const plan = await run(['wp', 'publish', '--site', 'blog', file, '--dry-run']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain('dry.md: would get a front matter "key" once its post is created');
    expect(plan.stderr).not.toContain('cannot be found again');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(world.wp.posts.length).toBe(posts);
  });

  it('a batch: each file its own key, said once for all', async () => {
    const run = await world.runner();
    const dir = looseFolder();
    writeFileSync(join(dir, 'a.md'), '# A\n\nA.\n');
    writeFileSync(join(dir, 'b.md'), '# B\n\nB.\n');
    const plan = await run(['wp', 'publish', '--site', 'blog', dir, '--dry-run']);
    expect(plan.stderr).toMatch(
      /2 files would get a front matter "key" once their posts are created .*: .*a\.md, .*b\.md/,
    );
    const first = await run(['wp', 'publish', '--site', 'blog', dir, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const keys = ['a.md', 'b.md'].map((f) => /key: (\w+)/.exec(readFileSync(join(dir, f), 'utf8'))?.[1]);
    expect(keys[0]).toBeDefined();
    expect(keys[1]).toBeDefined();
    expect(keys[0]).not.toBe(keys[1]);
    expect(first.stderr).toMatch(/front matter "key" written into the file.*\(2 sources: /);
    const again = await run(['wp', 'publish', '--site', 'blog', dir, '--json']);
    expect(rows(again).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
  });
});

describe('--content-file', () => {
  it('a Markdown --content-file outside any project gets its key too; the same command is unchanged next', async () => {
    const run = await world.runner();
    const file = join(looseFolder(), 'content.md');
    writeFileSync(file, 'Body of a content file.\n');
    const args = [
      'wp',
      'publish',
      '--site',
      'blog',
      '--title',
      'Content file',
      '--content-file',
      file,
      '--json',
    ];
    const first = await run(args);
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^---\nkey: [a-z2-9]{12}\n---\nBody of a content file\.\n$/);
    const again = await run(args);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged', id: rows(first)[0]!.id });
  });
});

describe('files that get no key keep the warning', () => {
  it('a read-only file: nothing written, and publishing it again makes another post', async () => {
    const run = await world.runner();
    const dir = looseFolder();
    const file = join(dir, 'readonly.md');
    const text = '# Read only\n\nKept as it is.\n';
    writeFileSync(file, text);
    chmodSync(file, 0o444);
    const first = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /readonly\.md is in no project and no git work tree: its post cannot be found again.*give it a front matter "key"\)/,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
    const second = await run(['wp', 'publish', '--site', 'blog', file, '--json']);
    expect(rows(second)[0]).toMatchObject({ action: 'created' });
    expect(rows(second)[0]!.id).not.toBe(rows(first)[0]!.id);
  });

  it('a symbolic link: nothing written through it, the warning said', async () => {
    const run = await world.runner();
    const dir = looseFolder();
    const target = join(dir, 'target.md');
    const text = '# Linked\n\nReached through a link.\n';
    writeFileSync(target, text);
    symlinkSync(target, join(dir, 'link.md'));
    const res = await run(['wp', 'publish', '--site', 'blog', join(dir, 'link.md'), '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('publishing it again makes another post');
    expect(readFileSync(target, 'utf8')).toBe(text);
    expect(lstatSync(join(dir, 'link.md')).isSymbolicLink()).toBe(true);
  });

  it('standard input (--content-file -): the warning, nothing written', async () => {
    const dir = looseFolder();
    process.chdir(dir);
    const res = await runInProcess(
      [
        'wp',
        'publish',
        '--url',
        world.wp.url,
        '--username',
        world.wp.username,
        '--title',
        'From stdin',
        '--content-file',
        '-',
        '--json',
      ],
      {
        env: {
          BLOGCTL_CONFIG_DIR: tempConfigDir(),
          BLOGCTL_BASE_URL: world.sandbox.url,
          BLOGCTL_API_KEY: world.sandbox.apiKey,
          BLOGCTL_WP_PASSWORD: world.wp.password,
        },
        input: '<p>Piped.</p>',
      },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]).toMatchObject({ action: 'created' });
    expect(res.stderr).toContain('publishing it again makes another post');
    expect(res.stderr).not.toContain('written into the file');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a write that cannot be made once the post exists says how to add the key by hand', () => {
  const edited = '# Changed\n\nAn edit made while the post was being created.\n';
  let target = '';
  let wp: Awaited<ReturnType<typeof startFakeWordPress>> | undefined;
  afterAll(() => wp?.close());

  it('the file changed during the run: left as the person saved it; the warning names the key line', async () => {
    wp = await startFakeWordPress({
      filterContent: (content) => {
        if (target) writeFileSync(target, edited);
        return content;
      },
    });
    const run = await world.runner({ wp });
    const dir = looseFolder();
    target = join(dir, 'racing.md');
    writeFileSync(target, '---\ntitle: Racing\n---\nBody.\n');
    const res = await run(['wp', 'publish', '--site', 'blog', target, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]).toMatchObject({ action: 'created' });
    const key = /add the line "key: ([a-z2-9]{12})" to its front matter by hand/.exec(res.stderr)?.[1];
    expect(key, res.stderr).toBeDefined();
    expect(res.stderr).toContain('it changed while it was being published');
    expect(readFileSync(target, 'utf8')).toBe(edited);
    expect(markerKeyOf(rows(res)[0]!.id, wp)).toBe(keyHash(`key:${key!}`));
  });
});
