// CLI's service client → in-process sandbox → real WordPress: the sandbox's publish relay against both
// permalink modes, in both response shapes, and a wrong Application Password reported as WordPress said it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostContent } from '../../src/schemas/wordpress.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { getPost } from '../../src/wordpress/posts.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();

describe.each(instances)(
  'sandbox relay to WordPress with $permalinks permalinks',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-relay-${wp.permalinks}`;
    let typed: TestSandbox;
    let alt: TestSandbox;
    let reader: WordPressClient;
    const credentials = { websiteUrl: wp.baseUrl, username: wp.username, password: wp.appPassword };

    beforeAll(async () => {
      typed = await startTestSandbox({ publishShape: 'typed' });
      alt = await startTestSandbox({ publishShape: 'alt' });
      reader = new WordPressClient(credentials);
    });
    afterAll(async () => {
      await Promise.all([typed?.close(), alt?.close(), reader?.close()]);
    });

    it('publishes through the sandbox, and the post is in WordPress as sent', async () => {
      const content: PostContent = {
        title: `Relayed ${tag}`,
        content: '<p>Through the <em>sandbox</em>.</p>',
        status: 'publish',
        slug: `relayed-${tag}`,
        meta: { blogctl_source: 'sandbox relay' },
      };
      const result = await typed.api().publishToWordPress(credentials, content);
      expect(result).toMatchObject({ published: true, status: 'publish', type: 'post', shape: 'typed' });
      const id = Number(result.id);
      expect(id).toBeGreaterThan(0);
      if (wp.permalinks === 'pretty') expect(result.link).toBe(`${wp.baseUrl}/relayed-${tag}/`);
      else expect(result.link).toBe(`${wp.baseUrl}/?p=${id}`);

      const post = await getPost(reader, id);
      expect(post.title?.raw).toBe(content.title);
      expect(post.content?.raw).toBe(content.content);
      expect(post.slug).toBe(content.slug);
      expect(post.meta).toMatchObject({ blogctl_source: 'sandbox relay' });
    });

    it('answers in the other documented shape when configured', async () => {
      const result = await alt.api().publishToWordPress(credentials, {
        title: `Relayed alt ${tag}`,
        content: 'x',
        status: 'draft',
      });
      // The alt shape says nothing of the status: WordPress itself is asked.
      expect(result).toEqual({
        published: true,
        shape: 'alt',
        id: expect.any(String),
        link: expect.any(String),
      });
      expect((await getPost(reader, Number(result.id))).status).toBe('draft');
    });

    it("reports a wrong Application Password as published: false with WordPress's HTTP 401", async () => {
      for (const sandbox of [typed, alt]) {
        const result = await sandbox.api().publishToWordPress(
          { ...credentials, password: 'aaaa bbbb cccc dddd eeee ffff' },
          {
            title: `Refused ${tag}`,
            content: 'x',
            status: 'publish',
          },
        );
        expect(result.published).toBe(false);
        expect(result.reason).toContain('HTTP 401');
        expect(result.reason).toContain('rest_cannot_create');
        expect(result.reason).not.toContain('aaaa bbbb');
      }
    });
  },
);
