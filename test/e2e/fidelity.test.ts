// What readers see is what the writer wrote, against the real WordPress: a Markdown post's shortcodes, entities,
// embed line and raw HTML are stored as sent and rendered by WordPress (caption, audio, the embed of a post of
// the site); a title is text; `editor: blocks` is stored as sent and parses as core blocks.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from '@wordpress/block-serialization-default-parser';
import * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMarkdownPost } from '../../src/publishing/markdown.js';
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

/** The content as sent: WordPress's copy without the sync marker blogctl appends. */
const withoutMarker = (raw: string): string => raw.replace(/\s*<!-- blogctl:v1 [^>]*-->/, '');

describe.each(instances)(
  'Markdown fidelity on WordPress with $permalinks permalinks',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-fid-${wp.permalinks}`;
    let dir: string;
    let client: WordPressClient;
    const blogctl = (args: string[], input?: string): Promise<CliResult> =>
      runCli(['--base-url', sandbox.url, ...args], {
        env: { BLOGCTL_CONFIG_DIR: join(dir, 'config'), BLOGCTL_API_KEY: sandbox.apiKey },
        cwd: dir,
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
  },
);
