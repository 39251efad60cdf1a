// The SEO title and meta description of a generated post, as search engines show them: a title of at most
// 60 characters, a description of 140 to 160 (a shorter post's whole text when it has fewer). Cut at a word
// boundary; a description cut short ends with `…`, counted in its length.
import { plainText } from './generator.js';

const SEO_TITLE_MAX = 60;
const SEO_DESCRIPTION_MIN = 140;
const SEO_DESCRIPTION_MAX = 160;

export interface GeneratedSeo {
  title: string;
  description: string;
}

/** From the post's title, excerpt and HTML content. */
export function seoFieldsOf(post: { title: string; excerpt: string; content: string }): GeneratedSeo {
  return { title: seoTitle(post.title), description: seoDescription(post) };
}

function seoTitle(title: string): string {
  const text = title.replace(/\s+/g, ' ').trim();
  if (text.length <= SEO_TITLE_MAX) return text;
  const cut = text.slice(0, SEO_TITLE_MAX + 1).replace(/\s+\S*$/, '');
  return (cut.length >= SEO_TITLE_MAX / 2 ? cut : text.slice(0, SEO_TITLE_MAX)).replace(/[\s,;:.–—-]+$/, '');
}

function seoDescription(post: { excerpt: string; content: string }): string {
  // The excerpt first (it is the post's own summary), then the body, without repeating the excerpt.
  const excerpt = post.excerpt.replace(/…$/, '').replace(/\s+/g, ' ').trim();
  const body = plainText(post.content).replace(/\s+/g, ' ').trim();
  const text = body.startsWith(excerpt) ? body : `${excerpt} ${body}`.trim();
  if (text.length <= SEO_DESCRIPTION_MAX) return text;
  const room = SEO_DESCRIPTION_MAX - 1;
  const atWord = text
    .slice(0, room + 1)
    .replace(/\s+\S*$/, '')
    .replace(/[\s,;:–—-]+$/, '');
  const cut = atWord.length >= SEO_DESCRIPTION_MIN - 1 ? atWord : text.slice(0, room).trimEnd();
  return `${cut}…`;
}
