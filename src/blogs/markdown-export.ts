// A generated blog as a Markdown file that `wp publish` reads back: YAML front matter (title, slug, excerpt,
// the generated SEO title and description, and the blog's id, which makes the file the same post as `wp publish --from-blog <id>`), then the body
// converted from the service's HTML. So a team can generate, review the file in a pull request, and publish
// the folder from CI.
import { measureHtml } from '../lib/html-depth.js';
import { CONVERT_LIMITS, htmlToMarkdown } from '../lib/html-to-markdown.js';
import type { Blog } from '../schemas/blog.js';

/**
 * Front matter values as YAML double-quoted scalars: JSON's string syntax is a subset of YAML's, so a title
 * with `:`, `#`, quotes, a leading `-` or any Unicode reads back exactly.
 */
const scalar = (value: string): string => JSON.stringify(value);

/**
 * What `blog create --publish … --save` adds: the post fields the blog was published with (the flags'
 * values, as `wp publish` reads them back: status, dates, categories, tags, meta…), its image (relative to
 * the file), and `--key`. So the saved file is the same post, unchanged, not an update that reverts it.
 */
export interface SavedPost {
  fields?: Record<string, unknown>;
  featuredImage?: string;
  key?: string;
}

/**
 * The blog's generated SEO title and description (the service's `seo`), as front matter `seo:` takes them;
 * only one-line texts are copied, so what the service sent cannot make the file unreadable.
 */
function seoOfBlog(blog: Blog): Record<string, string> | undefined {
  const seo = blog['seo'];
  if (!seo || typeof seo !== 'object' || Array.isArray(seo)) return undefined;
  const out: Record<string, string> = {};
  for (const field of ['title', 'description'] as const) {
    const value = (seo as Record<string, unknown>)[field];
    if (typeof value === 'string' && value.trim() && !/[\r\n]/.test(value) && value.length <= 2048)
      out[field] = value.trim();
  }
  return Object.keys(out).length ? out : undefined;
}

export function blogToMarkdown(blog: Blog, saved: SavedPost = {}): string {
  const content = typeof blog['content'] === 'string' ? blog['content'] : '';
  // Content nested deeper, holding more elements or longer blank stretches than the converter takes is
  // written as the service's HTML, said so by `body: html` (as wp pull writes HTML that Markdown cannot say):
  // found in one pass, so any content takes linear time.
  const asHtml = measureHtml(content, CONVERT_LIMITS) !== undefined;
  const fields: [string, unknown][] = [
    ['title', blog.title],
    ['slug', saved.fields?.['slug'] ?? blog['slug']],
    ['excerpt', saved.fields?.['excerpt'] ?? blog['excerpt']],
    ...Object.entries(saved.fields ?? {}).filter(([k]) => k !== 'slug' && k !== 'excerpt'),
    ['seo', seoOfBlog(blog)],
    ['featured_image', saved.featuredImage],
    ['body', asHtml ? 'html' : undefined],
    ['key', saved.key],
    ['blog_id', blog._id],
  ];
  const front = fields
    .filter(([, v]) => v !== undefined && !(typeof v === 'string' && v.trim() === ''))
    // JSON is YAML: lists and mappings as flow collections, read back exactly.
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? scalar(v) : JSON.stringify(v)}`);
  return `---\n${front.join('\n')}\n---\n\n${asHtml ? content : htmlToMarkdown(content)}\n`;
}
