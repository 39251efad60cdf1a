// What readers see is what the writer wrote, against the real WordPress: a Markdown post's shortcodes, entities,
// embed line and raw HTML are stored as sent and rendered by WordPress (caption, audio, the embed of a post of
// the site); a title is text; `editor: blocks` is stored as sent and parses as core blocks; a corpus of both
// editors' posts pulled, edited by one word and published changes `content.rendered` and the public page (the
// post's title and content as readers get them at its link) by that word only.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from '@wordpress/block-serialization-default-parser';
import { DomUtils, parseDocument } from 'htmlparser2';
import * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();
let sandbox: TestSandbox;
let work: string;
beforeAll(async () => {
  sandbox = await startTestSandbox({ wordpressTimeoutMs: 30_000 });
  work = await mkdtemp(join(tmpdir(), 'blogctl-e2e-fidelity-'));
});
afterAll(async () => {
  await sandbox?.close();
  await rm(work, { recursive: true, force: true });
});

const stored = z.looseObject({
  id: z.number(),
  link: z.string(),
  title: z.looseObject({ raw: z.string(), rendered: z.string() }),
  content: z.looseObject({ raw: z.string(), rendered: z.string(), block_version: z.optional(z.number()) }),
});

/**
 * What a single post's public page shows of the post, byte for byte as served: the inside of the theme's
 * post-content block (the e2e WordPress's theme, Twenty Twenty-Three:
 * `<div class="… entry-content wp-block-post-content">`) and of its post-title block, each found by an HTML
 * parser, exactly one of each. What is around them (header, dates, terms, comment form, the layout styles of
 * the whole page) is the theme's and the site's, not the post body's, and is left out.
 */
function postOnPage(html: string): { title: string; content: string } {
  const doc = parseDocument(html, { withStartIndices: true, withEndIndices: true });
  const inside = (cls: string): string => {
    const found = DomUtils.findAll(
      (el) => (el.attribs['class'] ?? '').split(/\s+/).includes(cls),
      doc.children,
    );
    expect(found, cls).toHaveLength(1);
    const nodes = found[0]!.children;
    if (!nodes.length) return '';
    return html.slice(nodes[0]!.startIndex!, nodes[nodes.length - 1]!.endIndex! + 1);
  };
  return { title: inside('wp-block-post-title'), content: inside('wp-block-post-content') };
}

/** A published post's public page (its `link`: a pretty permalink, or `?p=ID` with plain permalinks). */
async function publicPage(link: string): Promise<string> {
  const res = await fetch(link);
  expect(res.status, link).toBe(200);
  return res.text();
}

/** The content as sent: WordPress's copy without the sync marker blogctl appends. */
const withoutMarker = (raw: string): string => raw.replace(/\s*<!-- blogctl:v1 [^>]*-->/, '');

describe.each(instances)(
  'Markdown fidelity on WordPress with $permalinks permalinks',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-fid-${wp.permalinks}`;
    let dir: string;
    let client: WordPressClient;
    const blogctl = (args: string[], input?: string, cwd?: string): Promise<CliResult> =>
      runCli(['--base-url', sandbox.url, ...args], {
        env: { BLOGCTL_CONFIG_DIR: join(dir, 'config'), BLOGCTL_API_KEY: sandbox.apiKey },
        cwd: cwd ?? dir,
        timeoutMs: 90_000,
        ...(input !== undefined && { input }),
      });
    const read = async (id: number): Promise<z.infer<typeof stored>> =>
      (
        await client.route(`wp/v2/posts/${id}`, {
          method: 'GET',
          params: { context: 'edit' },
          schema: stored,
          label: 'e2e read',
        })
      ).body;
    const publish = async (file: string, text: string): Promise<{ id: number; sent: string }> => {
      await writeFile(join(dir, file), text);
      const res = await blogctl(['wp', 'publish', '--site', 'site', file, '--status', 'publish', '--json']);
      expect(res.code, res.stderr).toBe(0);
      const id = Number((JSON.parse(res.stdout) as { id: string }[])[0]!.id);
      return { id, sent: parseMarkdownPost(text, { path: join(dir, file) }).html };
    };

    beforeAll(async () => {
      dir = await mkdtemp(join(work, `${wp.permalinks}-`));
      client = new WordPressClient({
        websiteUrl: wp.baseUrl,
        username: wp.username,
        password: wp.appPassword,
      });
      const add = await blogctl(
        ['wp', 'sites', 'add', 'site', '--url', wp.baseUrl, '--username', wp.username, '--password-stdin'],
        `${wp.appPassword}\n`,
      );
      expect(add.code, add.stderr).toBe(0);
    });

    it('stores shortcodes, entities, an embed line and raw HTML as sent; WordPress renders them', async () => {
      const target = await client.route('wp/v2/posts', {
        method: 'POST',
        json: { title: `Embedded ${tag}`, content: '<p>The embedded post.</p>', status: 'publish' },
        schema: stored,
        label: 'e2e seed',
      });
      const { id, sent } = await publish(
        `classic-${tag}.md`,
        [
          '---',
          `title: "<script>alert(1)</script> & <b>co</b> ${tag}"`,
          '---',
          `[caption id="attachment_1" align="alignnone" width="300"]<img src="${wp.baseUrl}/cat.png" alt="A cat" width="300" height="200" /> A *cat* caption[/caption]`,
          '',
          `[audio src="${wp.baseUrl}/talk.mp3"]`,
          '',
          'Shown as text: &lt;script&gt;alert(2)&lt;/script&gt;, `<b>code</b>` and AT&T.',
          '',
          target.body.link,
          '',
          `<div class="raw-${tag}">kept "as" written &amp; more</div>`,
          '',
        ].join('\n'),
      );
      const post = await read(id);
      expect(withoutMarker(post.content.raw).trimEnd()).toBe(sent.trimEnd());
      const page = post.content.rendered;
      expect(page).toMatch(/<figure[^>]*class="wp-caption[^"]*"/);
      expect(page).toMatch(
        /<figcaption[^>]*class="wp-caption-text"[^>]*>A <em>cat<\/em> caption<\/figcaption>/,
      );
      expect(page).toContain('wp-audio-shortcode');
      expect(page).toContain(`${wp.baseUrl}/talk.mp3`);
      expect(page).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
      expect(page).not.toMatch(/<script>alert/);
      // The post's own URL alone on its line: WordPress embeds its post.
      expect(page).toContain('wp-embedded-content');
      expect(page).toContain(`<div class="raw-${tag}">kept`);
      expect(post.title.raw).toBe(`&lt;script&gt;alert(1)&lt;/script&gt; & &lt;b&gt;co&lt;/b&gt; ${tag}`);
      expect(post.title.rendered).not.toContain('<');
    });

    it('editor: blocks is stored as sent and parses as core blocks that render', async () => {
      const { id, sent } = await publish(
        `blocks-${tag}.md`,
        [
          '---',
          `title: "Blocks ${tag}"`,
          'editor: blocks',
          '---',
          'A paragraph with **bold** & `code`.',
          '',
          '### A heading',
          '',
          '- one',
          '  - nested',
          '- two',
          '',
          '> Quoted',
          '',
          '```',
          'if (a < b) [gallery]',
          '```',
          '',
          '---',
          '',
          `![Alt](${wp.baseUrl}/cat.png)`,
          '',
          '| a | b |',
          '|---|---|',
          '| 1 | 2 |',
          '',
          '<div class="raw">html</div>',
          '',
        ].join('\n'),
      );
      const post = await read(id);
      expect(withoutMarker(post.content.raw).trimEnd()).toBe(sent.trimEnd());
      expect(post.content.block_version).toBe(1);
      const names = parse(withoutMarker(post.content.raw))
        .map((b) => b.blockName)
        .filter((n) => n !== null);
      expect(names).toEqual([
        'core/paragraph',
        'core/heading',
        'core/list',
        'core/quote',
        'core/code',
        'core/separator',
        'core/image',
        'core/table',
        'core/html',
      ]);
      const page = post.content.rendered;
      for (const cls of [
        'wp-block-quote',
        'wp-block-code',
        'wp-block-separator',
        'wp-block-image',
        'wp-block-table',
      ])
        expect(page).toContain(cls);
      expect(page).toContain('<code>if (a &lt; b) &#91;gallery]</code>');
      expect(page).toMatch(/<li>one\s*<ul>\s*<li>nested<\/li>\s*<\/ul>\s*<\/li>/);
    });

    it('wp pull, a one-word edit, wp publish: content.rendered and the public page change by that word only', async () => {
      const category = (
        await client.route('wp/v2/categories', {
          method: 'POST',
          json: { name: `Round trip ${tag}` },
          schema: z.looseObject({ id: z.number() }),
          label: 'e2e seed',
        })
      ).body.id;
      const embedded = (
        await client.route('wp/v2/posts', {
          method: 'POST',
          json: { title: `Embedded round trip ${tag}`, content: '<p>Embedded.</p>', status: 'publish' },
          schema: stored,
          label: 'e2e seed',
        })
      ).body.link;
      const reusable = (
        await client.route('wp/v2/blocks', {
          method: 'POST',
          json: {
            title: `Reusable ${tag}`,
            content: '<!-- wp:paragraph -->\n<p>Reusable content.</p>\n<!-- /wp:paragraph -->',
            status: 'publish',
          },
          schema: z.looseObject({ id: z.number() }),
          label: 'e2e seed',
        })
      ).body.id;
      // Both editors' content as WordPress stores it; each holds the word "word" once, which is edited.
      const corpus = [
        'A classic word,\nsame paragraph.\n\nSecond paragraph &amp; <strong>bold</strong>.\n\n<!--more-->\n\nAfter the teaser.\n\n<!--nextpage-->\n\nPage two.',
        `[caption id="attachment_1" align="aligncenter" width="300"]<img class="size-medium" src="${wp.baseUrl}/c.png" alt="c" width="300" height="200" /> A word caption[/caption]\n\n[gallery ids="1,2" columns="2"]\n\n[audio src="${wp.baseUrl}/a.mp3"]\n\nThe end.`,
        'Escaped &lt;script&gt;alert(1)&lt;/script&gt; word.\r\n\r\n<pre>if (a &lt; b) {}</pre>',
        '<!-- wp:group {"layout":{"type":"constrained"}} -->\n<div class="wp-block-group"><!-- wp:columns -->\n<div class="wp-block-columns"><!-- wp:column -->\n<div class="wp-block-column"><!-- wp:paragraph -->\n<p>Left word</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column --></div>\n<!-- /wp:columns --></div>\n<!-- /wp:group -->',
        '<!-- wp:buttons -->\n<div class="wp-block-buttons"><!-- wp:button -->\n<div class="wp-block-button"><a class="wp-block-button__link wp-element-button" href="https://x.test">Go word</a></div>\n<!-- /wp:button --></div>\n<!-- /wp:buttons -->\n\n<!-- wp:separator -->\n<hr class="wp-block-separator has-alpha-channel-opacity"/>\n<!-- /wp:separator -->\n\n<!-- wp:code -->\n<pre class="wp-block-code"><code>a &lt; b</code></pre>\n<!-- /wp:code -->\n\n<!-- wp:table -->\n<figure class="wp-block-table"><table><tbody><tr><td>1</td></tr></tbody></table></figure>\n<!-- /wp:table -->',
        '<!-- wp:paragraph -->\n<p>Written by blogctl, one word.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:list -->\n<ul><!-- wp:list-item -->\n<li>a</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->',
        '<p>Classic <em>Markdown</em> word.</p>\n<h2>Part</h2>',
        // Ends with a lone shortcode: the marker must not join its paragraph (shortcode_unautop unwraps
        // `<p>[audio]</p>` only when nothing else is in it).
        `Closing word.\n\n[audio src="${wp.baseUrl}/b.mp3"]`,
        // A block post (pulled as HTML) ending with a line break: the page ends with it too.
        '<!-- wp:group {"layout":{"type":"constrained"}} -->\n<div class="wp-block-group"><!-- wp:paragraph -->\n<p>Last word.</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:group -->\n',
        // Embeds of a post of the site: a classic URL line, and the embed block.
        `An embed word.\n\n${embedded}\n\nAfter the embed.`,
        `<!-- wp:embed {"url":"${embedded}","type":"wp-embed","providerNameSlug":"blogctl-e2e"} -->\n<figure class="wp-block-embed is-type-wp-embed is-provider-blogctl-e2e wp-block-embed-blogctl-e2e"><div class="wp-block-embed__wrapper">\n${embedded}\n</div></figure>\n<!-- /wp:embed -->\n\n<!-- wp:paragraph -->\n<p>Under the embed, a word.</p>\n<!-- /wp:paragraph -->`,
        `[embed]${embedded}[/embed]\n\nThe embed shortcode, a word.`,
        // An image block with classes and a reusable block.
        `<!-- wp:image {"sizeSlug":"large","linkDestination":"none","className":"is-style-rounded"} -->\n<figure class="wp-block-image size-large is-style-rounded"><img src="${wp.baseUrl}/c.png" alt="c"/><figcaption class="wp-element-caption">A word caption</figcaption></figure>\n<!-- /wp:image -->\n\n<!-- wp:block {"ref":${reusable}} /-->`,
        // Classic content ending with a no-break space: wpautop makes it a paragraph of its own, on the page.
        '<p>A classic word.</p>\u00a0',
        // A block post as the block editor stores it (ending at the last block's closing comment): pulled as
        // Markdown with `editor: blocks`, it publishes back byte for byte.
        '<!-- wp:paragraph -->\n<p>A block post.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>Its last word.</p>\n<!-- /wp:paragraph -->',
        // The same ending with a line break (as the REST API or an importer may store it): the page shows
        // block content as stored, and Markdown cannot hold that break, so it is pulled as HTML.
        '<!-- wp:paragraph -->\n<p>A block post.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>Its last word.</p>\n<!-- /wp:paragraph -->\n',
      ];
      // Where the bytes of the stored content are compared too, and how each is pulled.
      const exact = new Map([
        [corpus.length - 2, 'editor: "blocks"'],
        [corpus.length - 1, 'body: "html"'],
      ]);
      const ids: number[] = [];
      for (const [i, content] of corpus.entries()) {
        const created = await client.route('wp/v2/posts', {
          method: 'POST',
          json: { title: `Round trip ${i} ${tag}`, content, status: 'publish', categories: [category] },
          schema: stored,
          label: 'e2e seed',
        });
        ids.push(created.body.id);
      }
      const before = await Promise.all(ids.map((id) => read(id)));
      const pagesBefore = await Promise.all(before.map(async (p) => postOnPage(await publicPage(p.link))));
      // The classic post with `<!--nextpage-->` (the first of the corpus): its second page, by its link's form.
      const secondPage = (link: string): string =>
        link.includes('?') ? `${link}&page=2` : `${link.replace(/\/?$/, '/')}2/`;
      const pageTwoBefore = postOnPage(await publicPage(secondPage(before[0]!.link)));
      expect(pageTwoBefore.content).toContain('Page two.');
      const project = join(dir, 'roundtrip');
      await mkdir(join(project, 'posts'), { recursive: true });
      const init = await blogctl(
        ['wp', 'init', '--site', 'site', '--namespace', `fid-${tag}`.toLowerCase()],
        undefined,
        project,
      );
      expect(init.code, init.stderr).toBe(0);
      const pulled = await blogctl(
        ['wp', 'pull', 'posts', '--category', `Round trip ${tag}`, '--adopt', '--json'],
        undefined,
        project,
      );
      expect(pulled.code, pulled.stderr).toBe(0);
      const files = (JSON.parse(pulled.stdout) as { file: string; id: string }[]).sort(
        (a, b) => Number(a.id) - Number(b.id),
      );
      expect(files.map((f) => Number(f.id))).toEqual(ids);
      const plan = await blogctl(
        ['wp', 'publish', '--site', 'site', 'posts', '--dry-run', '--exit-code', '--json'],
        undefined,
        project,
      );
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      for (const [i, f] of files.entries()) {
        const path = join(project, f.file);
        const text = await readFile(path, 'utf8');
        const body = text.indexOf('\n---\n') + 5;
        if (exact.has(i)) expect(text.slice(0, body)).toContain(`\n${exact.get(i)!}\n`);
        expect(text.slice(body)).toContain('word');
        await writeFile(path, text.slice(0, body) + text.slice(body).replace('word', 'WORD'));
      }
      const published = await blogctl(
        ['wp', 'publish', '--site', 'site', 'posts', '--json'],
        undefined,
        project,
      );
      expect(published.code, published.stderr).toBe(0);
      const after = await Promise.all(ids.map((id) => read(id)));
      // The sync marker blogctl puts in the last element is an HTML comment, not part of what the page shows:
      // taken out before comparing, byte for byte.
      const page = (html: string): string => html.replace(/<!-- blogctl:v1 [^>]*-->/, '');
      expect(after.map((p) => page(p.content.rendered))).toEqual(
        before.map((p) => p.content.rendered.replace('word', 'WORD')),
      );
      for (const i of exact.keys())
        expect(after[i]!.content.raw.replace(/<!-- blogctl:v1 [^>]*-->/, '')).toBe(
          corpus[i]!.replace('word', 'WORD'),
        );
      // The public page (what readers get at the post's link, both permalink modes): the post's content region
      // changes by that word only, byte for byte, the marker comment taken out. Nothing in the region is
      // normalised: the block-supports layout classes (`wp-container-N`) count up within one request in
      // render order (header template part first, then the content), so the same template and the same blocks
      // give the same numbers on every fetch; a changed number would be a changed layout. So do the audio
      // shortcode's `id="audio-<post>-<n>"`. The embed of a post of the site carries a random secret
      // (`data-secret`, `#?secret=`), drawn when the embed is first rendered and kept with its HTML in the
      // post's oEmbed cache (post meta, a day's time to live, not cleared by an update in WordPress 6.1): the
      // same on both fetches, so compared as it is too.
      const pagesAfter = await Promise.all(after.map(async (p) => postOnPage(await publicPage(p.link))));
      for (const p of pagesBefore) expect(p.content).toContain('word');
      expect(pagesAfter.map((p) => page(p.content))).toEqual(
        pagesBefore.map((p) => p.content.replace('word', 'WORD')),
      );
      expect(pagesAfter.map((p) => p.title)).toEqual(pagesBefore.map((p) => p.title));
      // The marker is in the post's last element, on its last page.
      const pageTwoAfter = postOnPage(await publicPage(secondPage(after[0]!.link)));
      expect({ ...pageTwoAfter, content: page(pageTwoAfter.content) }).toEqual(pageTwoBefore);
    });
  },
);
