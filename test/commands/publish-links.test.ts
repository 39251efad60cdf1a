// Links between sources, in-process against the sandbox relaying to a fake WordPress: `[t](other.md#part)`
// (inline or reference-style) becomes the target post's permalink with its fragment, targets are created
// before the posts linking to them, two new posts linking to each other both get the other's permalink, a
// target's new slug updates the posts linking to it, a link to a file that is no source is an input error at
// its line (--dry-run too), and a run with nothing new sends nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';
import { stripMarker } from '../../src/publishing/identity.js';

guardStrayOutput();

const world = syncWorld('links');

interface Row {
  source: string;
  action: string;
  id: string;
  link: string;
  fields?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];
const writes = (): number => world.wp.requests.filter((r) => r.method !== 'GET').length;
const content = (id: string, wp: FakeWordPress = world.wp): string =>
  stripMarker(String(wp.posts.find((p) => p.id === Number(id))!['content']));
const bySource = (res: CliResult, source: string): Row => rows(res).find((r) => r.source === source)!;

/** A fresh config dir with the site profile "blog", and a project folder (namespace `ns`) as the cwd. */
async function project(
  ns: string,
): Promise<{ root: string; publish: (...a: string[]) => Promise<CliResult> }> {
  const run = await world.runner();
  const root = newProject(world.home, `site: blog\nnamespace: ${ns}\nsources: [posts]\n`);
  return {
    root,
    publish: (...args: string[]) =>
      run(['wp', 'publish', '--json', '--status', 'publish', ...args], { cwd: root }),
  };
}

describe('links between sources', () => {
  it('become the target post’s permalink with the fragment; targets first; a second run sends nothing', async () => {
    const { root, publish } = await project('links-basic');
    writeFileSync(
      join(root, 'posts', 'a.md'),
      [
        '# Alpha',
        '',
        'See [the second](b.md#part), [the third][third] and [a file](notes.pdf).',
        '',
        '[Away](https://example.com/x.md), [here](#top), [root](/about/).',
        '',
        '[third]: sub/c.md',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(root, 'posts', 'b.md'),
      '---\ntitle: Beta\nkey: beta\nslug: beta\n---\nBack to [alpha](./a.md).\n',
    );
    writeFileSync(join(root, 'posts', 'sub', 'c.md'), '# Gamma\n\nNo links.\n');
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const [a, b, c] = ['posts/a.md', 'posts/b.md', 'posts/sub/c.md'].map((s) => bySource(first, s));
    expect([a, b, c].map((r) => r!.action)).toEqual(['created', 'created', 'created']);
    // c is linked to and links to nothing: created before a (lower id).
    expect(Number(c!.id)).toBeLessThan(Number(a!.id));
    expect(content(a!.id)).toBe(
      `<p>See <a href="${b!.link}#part">the second</a>, <a href="${c!.link}">the third</a> and <a href="notes.pdf">a file</a>.</p>\n` +
        '<p><a href="https://example.com/x.md">Away</a>, <a href="#top">here</a>, <a href="/about/">root</a>.</p>',
    );
    expect(b!.link).toBe(`${world.wp.url}/beta/`);
    expect(content(b!.id)).toBe(`<p>Back to <a href="${a!.link}">alpha</a>.</p>`);

    const sent = writes();
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again).map((r) => r.action)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(writes()).toBe(sent);
    // --service-only cannot read the permalinks: an input error at the link's line.
    const serviceOnly = await publish('--service-only');
    expect(serviceOnly.code).toBe(2);
    expect(serviceOnly.stderr).toContain(
      "posts/a.md:3: the link to b.md#part becomes its post's permalink, which --service-only cannot read from the site",
    );
    expect(writes()).toBe(sent);

    // A target's new slug (a new permalink) updates the posts linking to it, once.
    writeFileSync(
      join(root, 'posts', 'b.md'),
      '---\ntitle: Beta\nkey: beta\nslug: beta-two\n---\nBack to [alpha](./a.md).\n',
    );
    const plan = await publish('--dry-run');
    expect(plan.code, plan.stderr).toBe(0);
    expect(bySource(plan, 'posts/a.md')).toMatchObject({ action: 'update', fields: ['content'] });
    expect(bySource(plan, 'posts/b.md')).toMatchObject({ action: 'update', fields: ['slug'] });
    const moved = await publish();
    expect(moved.code, moved.stderr).toBe(0);
    expect(bySource(moved, 'posts/a.md')).toMatchObject({ action: 'updated', fields: ['content'] });
    expect(content(a!.id)).toContain(`<a href="${world.wp.url}/beta-two/#part">the second</a>`);
    const settled = writes();
    const third = await publish('--exit-code');
    expect(third.code, third.stderr).toBe(0);
    expect(writes()).toBe(settled);

    // One file published alone: its links to the project's other sources are their posts' permalinks.
    writeFileSync(join(root, 'posts', 'a.md'), '# Alpha\n\nOnly [the third](sub/c.md#end) now.\n');
    const alone = await publish('posts/a.md');
    expect(alone.code, alone.stderr).toBe(0);
    expect(content(a!.id)).toBe(`<p>Only <a href="${c!.link}#end">the third</a> now.</p>`);
  });

  it('two new sources linking to each other both get the other’s permalink (one is updated after)', async () => {
    const { root, publish } = await project('links-circle');
    writeFileSync(join(root, 'posts', 'x.md'), '# Ex\n\nTo [why](y.md).\n');
    writeFileSync(join(root, 'posts', 'y.md'), '# Why\n\nTo [ex](x.md#top) and [myself](y.md).\n');
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const x = bySource(first, 'posts/x.md');
    const y = bySource(first, 'posts/y.md');
    expect([x.action, y.action]).toEqual(['created', 'created']);
    expect(content(x.id)).toBe(`<p>To <a href="${y.link}">why</a>.</p>`);
    expect(content(y.id)).toBe(
      `<p>To <a href="${x.link}#top">ex</a> and <a href="${y.link}">myself</a>.</p>`,
    );
    // x went first with y's link as written, then was updated; y links to itself too.
    expect(first.stderr).toContain('its links to posts/y.md set once that source was published');
    const sent = writes();
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
    expect(writes()).toBe(sent);
  });

  it('a link to a Markdown or HTML file that is no source is an input error at its line, --dry-run too', async () => {
    const { root, publish } = await project('links-bad');
    const before = writes();
    mkdirSync(join(root, 'notes'));
    writeFileSync(join(root, 'notes', 'idea.md'), '# Not a source\n');
    writeFileSync(
      join(root, 'posts', 'd.md'),
      [
        '---',
        'title: Delta',
        '---',
        'Fine [link](e.md).',
        '',
        'See [the idea](../notes/idea.md)',
        'and [gone](gone.html#x).',
        '',
      ].join('\n'),
    );
    writeFileSync(join(root, 'posts', 'e.md'), '---\ntitle: Epsilon\nstatus: nonsense\n---\nBody.\n');
    for (const args of [[], ['--dry-run']]) {
      const res = await publish(...args);
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toContain(
        'posts/d.md:6: the link to ../notes/idea.md names no source of this project',
      );
      expect(res.stderr).toContain('posts/d.md:7: the link to gone.html#x names no source of this project');
      // Reported with the batch's other input errors.
      expect(res.stderr).toMatch(/posts\/e\.md:3: status/);
    }
    expect(writes()).toBe(before);
  });

  it('a new source linking to one whose slug changes in the same run is sent after it', async () => {
    const { root, publish } = await project('links-first');
    writeFileSync(join(root, 'posts', 't.md'), '---\ntitle: Tee\nkey: tee\nslug: t-one\n---\nTarget.\n');
    expect((await publish()).code).toBe(0);
    writeFileSync(join(root, 'posts', 't.md'), '---\ntitle: Tee\nkey: tee\nslug: t-two\n---\nTarget.\n');
    writeFileSync(join(root, 'posts', 'n.md'), '# En\n\nSee [tee](t.md).\n');
    const res = await publish();
    expect(res.code, res.stderr).toBe(0);
    expect(bySource(res, 'posts/t.md')).toMatchObject({ action: 'updated', fields: ['slug'] });
    const n = bySource(res, 'posts/n.md');
    expect(n.action).toBe('created');
    expect(content(n.id)).toBe(`<p>See <a href="${world.wp.url}/t-two/">tee</a>.</p>`);
  });

  it('plain permalinks and drafts: `?p=` links; a project source not on the site is an input error', async () => {
    const plain = await startFakeWordPress({ permalinks: 'plain' });
    try {
      const run = await world.runner({ wp: plain });
      const root = newProject(world.home, 'site: blog\nnamespace: links-plain\nsources: [posts]\n');
      const publish = (...args: string[]): Promise<CliResult> =>
        run(['wp', 'publish', '--json', ...args], { cwd: root });
      writeFileSync(join(root, 'posts', 't.md'), '---\ntitle: Tee\nkey: tee\n---\nTarget.\n');
      writeFileSync(join(root, 'posts', 'l.md'), '# Ell\n\n[tee](t.md#x)\n');
      for (const args of [['posts/l.md'], ['posts/l.md', '--dry-run']]) {
        const alone = await publish(...args);
        expect(alone.code, alone.stderr).toBe(2);
        expect(alone.stderr).toContain(
          'posts/l.md:3: the link to t.md#x: its post (key "tee") is not on the site: publish it first, or with this source',
        );
      }
      expect(plain.posts).toHaveLength(0);
      const first = await publish();
      expect(first.code, first.stderr).toBe(0);
      const t = bySource(first, 'posts/t.md');
      const l = bySource(first, 'posts/l.md');
      expect(t.link).toBe(`${plain.url}/?p=${t.id}`);
      expect(content(l.id, plain)).toBe(`<p><a href="${plain.url}/?p=${t.id}#x">tee</a></p>`);
      const again = await publish('--exit-code');
      expect(again.code, again.stderr).toBe(0);
      expect(rows(again).map((r) => r.action)).toEqual(['unchanged', 'unchanged']);
    } finally {
      await plain.close();
    }
  });

  it('a draft target published gets its permalink: the posts linking to it follow', async () => {
    const run = await world.runner();
    const root = newProject(world.home, 'site: blog\nnamespace: links-draft\nsources: [posts]\n');
    const publish = (...args: string[]): Promise<CliResult> =>
      run(['wp', 'publish', '--json', ...args], { cwd: root });
    writeFileSync(join(root, 'posts', 't.md'), '---\ntitle: Tee\nslug: tee\nstatus: draft\n---\nTarget.\n');
    writeFileSync(join(root, 'posts', 'l.md'), '---\ntitle: Ell\nstatus: publish\n---\n[tee](t.md)\n');
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const t = bySource(first, 'posts/t.md');
    const l = bySource(first, 'posts/l.md');
    expect(content(l.id)).toBe(`<p><a href="${world.wp.url}/?p=${t.id}">tee</a></p>`);
    writeFileSync(join(root, 'posts', 't.md'), '---\ntitle: Tee\nslug: tee\nstatus: publish\n---\nTarget.\n');
    const live = await publish();
    expect(live.code, live.stderr).toBe(0);
    expect(bySource(live, 'posts/l.md')).toMatchObject({ action: 'updated', fields: ['content'] });
    expect(content(l.id)).toBe(`<p><a href="${world.wp.url}/tee/">tee</a></p>`);
  });

  it('editor: blocks links too; a target not published leaves the post linking to it unsent', async () => {
    const { root, publish } = await project('links-blocks');
    writeFileSync(
      join(root, 'posts', 'k.md'),
      '---\ntitle: Kay\neditor: blocks\n---\nSee [em](m.md#a).\n\n- and [em again](m.md)\n',
    );
    writeFileSync(join(root, 'posts', 'm.md'), '---\ntitle: Em\nslug: em-taken\n---\nTarget.\n');
    // Another post (no source's) holds the slug m.md asks for: m is a conflict, never sent.
    world.wp.posts.push({ id: 9001, status: 'publish', slug: 'em-taken', title: 'Someone else' });
    const res = await publish();
    expect(res.code).toBe(6);
    expect(bySource(res, 'posts/m.md').action).toBe('failed');
    expect(bySource(res, 'posts/k.md').action).toBe('failed');
    expect(res.stderr).toContain(
      'posts/k.md: its link to m.md#a (posts/k.md:5): that source was not published: not sent',
    );
    world.wp.posts.find((p) => p.id === 9001)!.slug = 'someone-else';
    const fixed = await publish();
    expect(fixed.code, fixed.stderr).toBe(0);
    const m = bySource(fixed, 'posts/m.md');
    expect(content(bySource(fixed, 'posts/k.md').id)).toBe(
      `<!-- wp:paragraph -->\n<p>See <a href="${m.link}#a">em</a>.</p>\n<!-- /wp:paragraph -->\n\n` +
        `<!-- wp:list -->\n<ul><!-- wp:list-item -->\n<li>and <a href="${m.link}">em again</a></li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->`,
    );
  });

  it('an HTML source and raw HTML in Markdown link too', async () => {
    const { root, publish } = await project('links-html');
    writeFileSync(
      join(root, 'posts', 'h.html'),
      '<html><head><title>Aitch</title></head><body>\n<p>To <a class="c" href="x.md#y">ex</a>.</p>\n</body></html>\n',
    );
    writeFileSync(join(root, 'posts', 'x.md'), '# Ex\n\n<div>Back to <a href="h.html">aitch</a></div>\n');
    const res = await publish();
    expect(res.code, res.stderr).toBe(0);
    const h = bySource(res, 'posts/h.html');
    const x = bySource(res, 'posts/x.md');
    expect(content(h.id)).toBe(`<p>To <a class="c" href="${x.link}#y">ex</a>.</p>`);
    expect(content(x.id)).toBe(`<div>Back to <a href="${h.link}">aitch</a></div>`);
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
  });

  it('with an inline image: the image URL stays when a circle updates the post after', async () => {
    const { root, publish } = await project('links-images');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    writeFileSync(join(root, 'posts', 'pic.png'), Buffer.concat([png, Buffer.from([7])]));
    writeFileSync(join(root, 'posts', 'p.md'), '# Pe\n\n![A pic](pic.png) and [queue](q.md).\n');
    writeFileSync(join(root, 'posts', 'q.md'), '# Queue\n\nBack to [pe](p.md).\n');
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const p = bySource(first, 'posts/p.md');
    const q = bySource(first, 'posts/q.md');
    const body = content(p.id);
    expect(body).toMatch(/<img src="http[^"]+" alt="A pic"/);
    expect(body).not.toContain('blogctl-');
    expect(body).toContain(`<a href="${q.link}">queue</a>`);
    const sent = writes();
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(writes()).toBe(sent);
  });
});
