// A post's file as wp pull writes it (postToMarkdown of a bare published post, slug `s`, key `k`), and the
// HTML wp publish makes of a file: what the pull tests round-trip through.
import { postToMarkdown } from '../../src/publishing/pull/pull-post.js';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import type { WpPostDetail } from '../../src/wordpress/posts.js';

/** The file wp pull writes for a published post whose stored content is `raw`. */
export const pull = (raw: string): string =>
  postToMarkdown(
    {
      id: 1,
      status: 'publish',
      slug: 's',
      title: { raw: 'T', rendered: 'T' },
      content: { raw, rendered: '' },
    } as WpPostDetail,
    { categories: new Map(), tags: new Map(), key: 'k' },
  );

/** The HTML wp publish sends for `file`. */
export const publish = (file: string): string => parseMarkdownPost(file, { path: 'p.md' }).html;
