// Deterministic stand-in for the service's content generation: the same parameters always give the same
// title and HTML (a seeded PRNG, no clock, no model), so tests and demos can assert on the output.
import { createHash } from 'node:crypto';
import type { BlogLength, BlogParams, OptionObject } from '../schemas/blog.js';
import {
  escapeHtml,
  sectionPlan,
  sentenceSource,
  titleCase,
  titleFor,
  toneOf,
  type Words,
} from './phrases.js';
import { canonicalJson } from '../lib/canonical-json.js';
import { seoFieldsOf, type GeneratedSeo } from './seo-fields.js';

/** What the generator sees: the provider key never reaches it. */
export type GenerationParams = Omit<BlogParams, 'externalProviderApiKey'>;

export interface GeneratedBlog {
  _id: string;
  title: string;
  slug: string;
  excerpt: string;
  content: string;
  createdAt: string;
  status: 'generated';
  wordCount: number;
  language: string;
  category?: string;
  topicKeywords: string[];
  targetAudience: string;
  toneStyle: string;
  contentStructure: string;
  blogLength: BlogLength;
  metaData?: Record<string, unknown>;
  /** The SEO title (≤ 60 characters) and meta description (140–160), from the post (seo-fields.ts). */
  seo?: GeneratedSeo;
}

export type ComposedPost = Pick<GeneratedBlog, 'title' | 'slug' | 'excerpt' | 'content' | 'wordCount'>;

/** Target words per length; the text lands within a few percent of it. */
export const WORD_TARGETS: Record<BlogLength, number> = { Short: 300, Medium: 800, Long: 1500 };

/** The value a person chose: their own text when they gave one, else the option's value. */
export function chosen(option: Pick<OptionObject, 'value'> & { customValue?: string | undefined }): string {
  return option.customValue?.trim() || option.value;
}

export function generateBlog(params: GenerationParams, id: string, createdAt: string): GeneratedBlog {
  const post = composePost(params);
  return {
    _id: id,
    ...post,
    createdAt,
    status: 'generated',
    language: params.language.value,
    ...(params.category !== undefined && { category: params.category }),
    topicKeywords: [...params.topicKeywords],
    targetAudience: chosen(params.targetAudience),
    toneStyle: chosen(params.toneStyle),
    contentStructure: chosen(params.contentStructure),
    blogLength: params.blogLength.value,
    ...(params.metaData !== undefined && { metaData: params.metaData }),
    seo: seoFieldsOf(post),
  };
}

interface Section {
  heading?: string;
  paragraphs: string[][];
}

export function composePost(params: GenerationParams): ComposedPost {
  const random = seededRandom(canonicalJson(params));
  const keywords = params.topicKeywords.map((k) => k.trim());
  const words: Words = {
    keywords,
    audience: chosen(params.targetAudience),
    tone: toneOf(chosen(params.toneStyle)),
  };
  const length = params.blogLength.value;
  const plan = sectionPlan(chosen(params.contentStructure), length, words);
  const title = titleFor(plan.kind, words, plan.items);

  const intro: Section = {
    paragraphs: [
      [
        `This article is written for ${escapeHtml(words.audience)} who want to understand ${kw(keywords[0]!)}.`,
      ],
    ],
  };
  const body: Section[] = plan.headings.map((heading) => ({ heading, paragraphs: [[]] }));
  params.hyperlinks?.forEach((href, i) => {
    const section = body[i % body.length]!;
    section.paragraphs[0]!.push(`For more detail, see ${link(href, linkLabel(href))}.`);
  });
  const tail: Section[] = [];
  if (params.baseUrlForLinkedBlog) {
    // As given: a page the person chose, never a path made up from it (which would usually not exist).
    const href = params.baseUrlForLinkedBlog.trim();
    tail.push({
      heading: 'Related reading',
      paragraphs: [[`Continue with ${link(href, `more on ${titleCase(keywords[0]!)}`)} on our blog.`]],
    });
  }
  tail.push({
    heading: words.tone === 'casual' ? 'Your next step' : 'Next steps',
    paragraphs: [[`${ctaLead(words.tone)} ${escapeHtml(sentenceCase(chosen(params.callToAction)))}.`]],
  });

  // Fill the body round-robin until the visible text reaches the target length. The sentences name the
  // keywords in turn; those still unnamed when the length is reached (many keywords, a short post) are
  // listed after the introduction, and that list counts towards the length from the start.
  const target = WORD_TARGETS[length];
  const sentences = sentenceSource(random, words, [keywords[0]!]);
  const all = [intro, ...body, ...tail];
  let total = countWords(all.map(renderSection).join('\n'));
  for (let i = 0; total + countWords(alsoCovers(sentences.unwoven())) < target; i++) {
    const section = i === 0 ? intro : body[(i - 1) % body.length]!;
    const paragraphs = section.paragraphs;
    let current = paragraphs[paragraphs.length - 1]!;
    if (current.length >= 4) {
      current = [];
      paragraphs.push(current);
    }
    const sentence = sentences.next();
    current.push(sentence);
    total += countWords(sentence);
  }
  const rest = alsoCovers(sentences.unwoven());
  if (rest) intro.paragraphs[0]!.splice(1, 0, rest);

  const content = all.map(renderSection).join('\n');
  const excerptText = plainText(intro.paragraphs[0]!.join(' '));
  return {
    title,
    slug: slugify(title),
    excerpt: excerptText.length > 160 ? `${excerptText.slice(0, 157).replace(/\s+\S*$/, '')}…` : excerptText,
    content,
    wordCount: countWords(content),
  };
}

/** The sentence naming keywords the body did not reach: "" when there are none. */
function alsoCovers(keywords: string[]): string {
  if (!keywords.length) return '';
  const named = keywords.map(escapeHtml);
  const list = named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named.at(-1)!}`;
  return `Along the way it also touches on ${list}.`;
}

function renderSection(section: Section): string {
  const parts = section.heading ? [`<h2>${escapeHtml(section.heading)}</h2>`] : [];
  for (const p of section.paragraphs) if (p.length) parts.push(`<p>${p.join(' ')}</p>`);
  return parts.join('\n');
}

function ctaLead(tone: Words['tone']): string {
  if (tone === 'casual') return 'Ready to give it a go?';
  if (tone === 'energetic') return "Don't wait:";
  if (tone === 'formal') return 'As a next step, we recommend the following:';
  return 'Ready for the next step?';
}

/** Words in the visible text of an HTML fragment. */
export function countWords(html: string): number {
  const text = plainText(html);
  return text ? text.split(/\s+/).length : 0;
}

/** Visible text: inline tags vanish, block tags separate words, entities become their characters. */
export function plainText(html: string): string {
  return html
    .replace(/<\/?(?:a|strong|em)\b[^>]*>/gi, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

function kw(keyword: string): string {
  return `<strong>${escapeHtml(keyword)}</strong>`;
}

function link(href: string, label: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(label)}</a>`;
}

function linkLabel(href: string): string {
  const url = new URL(href);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.hostname}${path}`;
}

export function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80)
      .replace(/-+$/, '') || 'post'
  );
}

function sentenceCase(text: string): string {
  const t = text.trim().replace(/[.!?]+$/, '');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** mulberry32, seeded from a hash of the parameters. */
function seededRandom(seedText: string): () => number {
  let state = createHash('sha256').update(seedText).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
