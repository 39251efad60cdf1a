// `wp pull` in-process against fake WordPress sites on 127.0.0.1: posts are written a page at a time as the
// pages come (a limit passed mid-pull stops with exit 7 naming it, the pages before it written and said so,
// and pulling again goes on from them), and --media against hostile image servers: an image that trickles
// bytes stops at the run's --timeout, an endless one at BLOGCTL_MAX_RESPONSE_MB, an address with a malformed
// `%` escape or off the site is a note on its post; the pull goes on and writes every post.
import { existsSync, mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempConfigDir, type CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { newProject } from '../helpers/sync-project.js';

guardStrayOutput();

const cwd = process.cwd();
const home = (): string => realpathSync(mkdtempSync(join(tmpdir(), 'pull-stream-')));
const sites: FakeWordPress[] = [];
afterEach(() => process.chdir(cwd));
afterAll(async () => {
  await Promise.all(sites.map((s) => s.close()));
});

const seed = (
  wp: FakeWordPress,
  count: number,
  fields: (id: number) => Record<string, unknown> = () => ({}),
) => {
  for (let id = 1; id <= count; id++)
    wp.posts.push({
      id,
      status: 'publish',
      slug: `post-${id}`,
      title: `Post ${id}`,
      content: `<p>Body of ${id}</p>`,
      date: '2025-05-01T10:00:00',
      date_gmt: '2025-05-01T10:00:00',
      modified: '2025-05-02T10:00:00',
      author: 1,
      ...fields(id),
    });
};

/** `wp pull` in a new project on `wp`, its password from the environment. */
async function pullIn(
  wp: FakeWordPress,
  dir: string | undefined,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ dir: string; res: CliResult }> {
  const root =
    dir ??
    newProject(
      home(),
      `site:\n  url: ${wp.url}\n  username: ${wp.username}\nnamespace: stream\nsources: [posts]\n`,
      [],
    );
  process.chdir(root);
  const res = await runInProcess(['wp', 'pull', '--json', ...args], {
    env: { BLOGCTL_CONFIG_DIR: tempConfigDir(), BLOGCTL_WP_PASSWORD: wp.password, ...env },
  });
  return { dir: root, res };
}

describe('wp pull writes a page at a time', () => {
  it('a limit passed on the third page: exit 7 naming it, the first two pages written and said so; pulling again goes on', async () => {
    const wp = await startFakeWordPress();
    sites.push(wp);
    // About 430 KB a page as the fake answers (raw and rendered content): the third page passes 1 MiB.
    seed(wp, 500, (id) => ({ content: `<p>${String(id).padEnd(2_000, 'x')}</p>` }));
    const first = await pullIn(wp, undefined, [], { BLOGCTL_MAX_LIST_MB: '1' });
    expect(first.res.code, first.res.stderr).toBe(7);
    expect(first.res.stderr).toMatch(/passed 1 MiB \(BLOGCTL_MAX_LIST_MB raises the limit\)/);
    expect(first.res.stderr).toMatch(/the pull stopped there: 200 files were written into posts before it/);
    const files = readdirSync(join(first.dir, 'posts'));
    expect(files).toHaveLength(200);
    expect(files).toContain('post-1.md');
    expect(files).toContain('post-200.md');

    const again = await pullIn(wp, first.dir, []);
    expect(again.res.code, again.res.stderr).toBe(0);
    const rows = JSON.parse(again.res.stdout) as { action: string }[];
    expect(rows.filter((r) => r.action === 'unchanged')).toHaveLength(200);
    expect(rows.filter((r) => r.action === 'created')).toHaveLength(300);
    expect(readdirSync(join(first.dir, 'posts'))).toHaveLength(500);
  });

  it('more posts announced than BLOGCTL_MAX_LIST_ITEMS: refused after the first page, nothing written', async () => {
    const wp = await startFakeWordPress();
    sites.push(wp);
    seed(wp, 150);
    const { dir, res } = await pullIn(wp, undefined, [], { BLOGCTL_MAX_LIST_ITEMS: '120' });
    expect(res.code).toBe(7);
    expect(res.stderr).toMatch(/the site has 150 posts to read, more than 120 \(BLOGCTL_MAX_LIST_ITEMS/);
    expect(res.stderr).not.toMatch(/files were written/);
    expect(existsSync(join(dir, 'posts'))).toBe(false);
  });
});

describe('wp pull --media against hostile image servers', () => {
  it('a trickling image stops at --timeout, an endless one at the size limit, bad addresses are notes; every post is written', async () => {
    const timers = new Set<NodeJS.Timeout>();
    const images: Record<string, (res: ServerResponse) => void> = {
      '/wp-content/uploads/fine.png': (res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from([1, 2, 3]));
      },
      // A byte every 50 ms, for ever: never idle, so only a timeout of the whole download stops it.
      '/wp-content/uploads/trickle.png': (res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        const timer = setInterval(() => res.write('x'), 50);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
      },
      '/wp-content/uploads/endless.png': (res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        const more = (): void => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', more);
        more();
      },
    };
    let wpUrl = '';
    const sources: Record<number, string> = {
      11: '/wp-content/uploads/fine.png',
      12: '/wp-content/uploads/trickle.png',
      13: '/wp-content/uploads/endless.png',
      14: '/wp-content/uploads/bad%zz%.png',
      15: 'http://[not-an-address/a.png',
      16: 'https://elsewhere.test/a.png',
    };
    const wp = await startFakeWordPress({
      serve: (req, url, res) => {
        if (req.method === 'GET' && url.pathname === '/wp-json/wp/v2/media') {
          const ids = (url.searchParams.get('include') ?? '').split(',').map(Number);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify(
              ids
                .filter((id) => sources[id])
                .map((id) => ({
                  id,
                  source_url: sources[id]!.startsWith('/') ? `${wpUrl}${sources[id]}` : sources[id],
                })),
            ),
          );
          return true;
        }
        const image = images[url.pathname];
        if (!image) return false;
        image(res);
        return true;
      },
    });
    sites.push(wp);
    wpUrl = wp.url;
    seed(wp, 6, (id) => ({ slug: `image-${id}`, featured_media: 10 + id }));
    try {
      const { dir, res } = await pullIn(wp, undefined, ['--media', '--timeout', '1'], {
        BLOGCTL_MAX_RESPONSE_MB: '1',
      });
      expect(res.code, res.stderr).toBe(0);
      const rows = JSON.parse(res.stdout) as { file: string; action: string; note?: string }[];
      expect(rows.map((r) => r.action)).toEqual(Array(6).fill('created'));
      const note = (n: number): string | undefined =>
        rows.find((r) => r.file === `posts/image-${n}.md`)?.note;
      expect(note(1)).toBeUndefined();
      expect(note(2)).toMatch(/trickle\.png failed: took more than 1 s; the image was not written/);
      expect(note(3)).toMatch(/endless\.png failed: larger than 1 MiB \(BLOGCTL_MAX_RESPONSE_MB/);
      // A malformed escape in the address: the file name is made from it as it is, the download tried.
      expect(note(4)).toMatch(/bad%zz%\.png failed: HTTP 404/);
      expect(note(5)).toMatch(/is not a valid address; the image was not downloaded/);
      expect(note(6)).toMatch(/is not on the site .*not downloaded/);
      expect(res.stderr).toContain('posts/image-2.md: --media: downloading');
      expect(readdirSync(join(dir, 'posts', 'media'))).toEqual(['11-fine.png']);
      expect(readdirSync(join(dir, 'posts'))).toHaveLength(7);
    } finally {
      for (const t of timers) clearInterval(t);
    }
  });
});
