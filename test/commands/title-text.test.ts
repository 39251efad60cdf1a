// Titles are text: a Markdown or HTML file's title reaches WordPress escaped (it shows, never runs), an HTML
// title only with `title_html: true`; `wp pull` then `wp publish` leaves every title as the site stores it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardStrayOutput } from '../helpers/in-process.js';
import { newProject, syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('titles');

describe('titles are text', () => {
  it('escapes a front matter, heading or <title> title; sends title_html as written', async () => {
    world.wp.posts.length = 0;
    const run = await world.runner();
    const dir = newProject(world.home, 'site: blog\nnamespace: titles\nsources: [posts]\n', ['posts']);
    process.chdir(dir);
    writeFileSync(join(dir, 'posts/a.md'), '---\ntitle: "<script>alert(1)</script> & more"\n---\nA\n');
    writeFileSync(join(dir, 'posts/b.md'), '# &lt;img onerror=x&gt; *Hi*\n\nB\n');
    writeFileSync(join(dir, 'posts/c.md'), '---\ntitle: "My <em>own</em> title"\ntitle_html: true\n---\nC\n');
    writeFileSync(join(dir, 'posts/d.html'), '<title>&lt;b&gt;bold&lt;/b&gt; &amp; co</title><p>D</p>');
    const res = await run(['wp', 'publish', 'posts', '--site', 'blog', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const titles = world.wp.posts.map((p) => p.title).sort();
    expect(titles).toEqual([
      '&lt;b&gt;bold&lt;/b&gt; & co',
      '&lt;img onerror=x&gt; Hi',
      '&lt;script&gt;alert(1)&lt;/script&gt; & more',
      'My <em>own</em> title',
    ]);
  });

  it('wp pull then wp publish sends every title back unchanged', async () => {
    world.wp.posts.length = 0;
    const titles = ['Fish & Chips', 'A <em>styled</em> title', 'Plain &amp; escaped', '&lt;tag&gt; shown'];
    titles.forEach((title, i) =>
      world.wp.posts.push({
        id: 9300 + i,
        status: 'publish',
        slug: `t-${i}`,
        title,
        content: `<p>Body ${i}</p>`,
        date: '2025-05-01T10:00:00',
        date_gmt: '2025-05-01T10:00:00',
        modified: '2025-05-02T10:00:00',
        categories: [1],
        author: 1,
      }),
    );
    const run = await world.runner();
    const dir = newProject(world.home, 'site: blog\nnamespace: pulled-titles\nsources: [posts]\n', []);
    process.chdir(dir);
    const pulled = await run(['wp', 'pull', '--adopt', '--json']);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(readFileSync(join(dir, 'posts/t-0.md'), 'utf8')).toContain('title: "Fish & Chips"\n');
    expect(readFileSync(join(dir, 'posts/t-1.md'), 'utf8')).toContain('title_html: true\n');
    // `&amp;` where blogctl would send `&`: kept as the site has it.
    expect(readFileSync(join(dir, 'posts/t-2.md'), 'utf8')).toContain(
      'title: "Plain &amp; escaped"\ntitle_html: true\n',
    );
    expect(readFileSync(join(dir, 'posts/t-3.md'), 'utf8')).toContain('title: "<tag> shown"\n');
    const plan = await run([
      'wp',
      'publish',
      'posts',
      '--site',
      'blog',
      '--dry-run',
      '--exit-code',
      '--json',
    ]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // A one-word edit of the title is the only change sent.
    const file = join(dir, 'posts/t-0.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Fish & Chips', 'Fish & Peas'));
    const res = await run(['wp', 'publish', 'posts', '--site', 'blog', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(world.wp.posts.map((p) => p.title)).toEqual(['Fish & Peas', ...titles.slice(1)]);
  });
});

describe('a project default editor: blocks', () => {
  it('sends Markdown bodies as blocks unless the front matter says classic; pull keeps each file as it was', async () => {
    world.wp.posts.length = 0;
    const run = await world.runner();
    const dir = newProject(
      world.home,
      'site: blog\nnamespace: editors\nsources: [posts]\ndefaults:\n  editor: blocks\n',
      ['posts'],
    );
    process.chdir(dir);
    writeFileSync(join(dir, 'posts/a.md'), '---\ntitle: A\n---\nHello *blocks*\n');
    writeFileSync(join(dir, 'posts/b.md'), '---\ntitle: B\neditor: classic\n---\nHello *classic*\n');
    const res = await run(['wp', 'publish', 'posts', '--site', 'blog', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const body = (title: string): string =>
      String(world.wp.posts.find((p) => p.title === title)!['content']).replace(
        /<!-- blogctl:v1 [^>]*-->/,
        '',
      );
    expect(body('A')).toBe('<!-- wp:paragraph -->\n<p>Hello <em>blocks</em></p>\n<!-- /wp:paragraph -->');
    // The body's last line break stays after the marker, as sent.
    expect(body('B')).toBe('<p>Hello <em>classic</em></p>\n');
  });
});
