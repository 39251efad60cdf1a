// A generated blog as a post: its title, content, excerpt and slug, as one layer under the flags, for `wp
// publish --from-blog` and `blog create --publish` alike. A blog is also published as a Markdown file
// (`blog show --markdown`, `blog create --save`), whose source is the same blog: so that the file, unedited,
// is the same post and not a change, the blog's content is compared as that file reads it back (turndown,
// then marked). The HTML sent is still the service's own; an edit of the file changes the sum, and updates
// the post with the file's HTML.
import { blogToMarkdown } from '../../blogs/markdown-export.js';
import type { Blog } from '../../schemas/blog.js';
import { fieldSum } from '../identity.js';
import { parseMarkdownPost } from './markdown.js';
import type { ContentLayer } from './post-payload.js';
import type { JobSpec } from './publish-job.js';

export interface BlogContent {
  layer: ContentLayer;
  /** What the job spec carries about the blog (publish-job.ts). */
  blog: NonNullable<JobSpec['blog']>;
}

/** The blog's post fields as a layer; `label` names them in messages (`--from-blog`, `the generated`). */
export function blogContent(
  blog: Pick<Blog, '_id' | 'title'> & Record<string, unknown>,
  label: string,
): BlogContent {
  const html = typeof blog['content'] === 'string' ? blog['content'] : '';
  const values: Record<string, unknown> = { title: blog.title, content: html };
  const names: Record<string, string> = { title: `${label} title`, content: `${label} content` };
  const text = (field: 'excerpt' | 'slug'): string | undefined => {
    const value = blog[field];
    return typeof value === 'string' && value.trim() ? value : undefined;
  };
  for (const field of ['excerpt', 'slug'] as const) {
    const value = text(field);
    if (value === undefined) continue;
    values[field] = value;
    names[field] = `${label} ${field}`;
  }
  const asPost = parseMarkdownPost(blogToMarkdown(blog as Blog), { path: 'blog.md' });
  const asFile = asPost.html;
  // The generated SEO title and description, as the saved file's front matter carries them.
  if (asPost.fields.seo) {
    values['seo'] = asPost.fields.seo;
    names['seo'] = `${label} seo`;
  }
  const slug = text('slug');
  return {
    layer: { values, names },
    blog: { html, contentSum: fieldSum(asFile), ...(slug !== undefined && { slug }) },
  };
}
