// A provider post's plan: the parameters as the prompts name them, the outline the model writes (parsed,
// asked again when unusable), and the word budgets and keywords and links shared among its sections.
import type { GenerationParams } from './generator.js';
import { WORD_TARGETS, chosen, countWords, slugify } from './generator.js';
import { ProviderError, type ChatMessage } from './provider-chat.js';
import { fillPrompt, type PromptSet, type PromptValues } from './provider-prompts.js';

export const SECTION_COUNTS: Record<keyof typeof WORD_TARGETS, number> = { Short: 3, Medium: 5, Long: 7 };
const MAX_SECTIONS = 12;

export interface Plan {
  title: string;
  slug: string;
  excerpt: string;
  sections: PlannedSection[];
}

export interface PlannedSection {
  heading: string;
  points: string;
  words: number;
  keywords: string[];
  links: string[];
}

/** One answer from the model, continued while the provider cuts it off at its length limit. */
export type Complete = (messages: ChatMessage[], what: string, json?: boolean) => Promise<string>;

/** Every parameter, as the prompts name them; what was not given reads "(none)". */
export function postValues(params: GenerationParams): PromptValues {
  const none = '(none)';
  const length = params.blogLength.value;
  return {
    keywords: params.topicKeywords.map((k) => `"${k.trim()}"`).join(', '),
    language:
      params.language.name === params.language.value
        ? params.language.name
        : `${params.language.name} (${params.language.value})`,
    tone: chosen(params.toneStyle),
    structure: chosen(params.contentStructure),
    audience: chosen(params.targetAudience),
    callToAction: chosen(params.callToAction),
    category: params.category?.trim() || none,
    hyperlinks: params.hyperlinks?.length ? params.hyperlinks.join(', ') : none,
    linkedBlogUrl: params.baseUrlForLinkedBlog ? linkedBlogHref(params) : none,
    metaData: params.metaData && Object.keys(params.metaData).length ? JSON.stringify(params.metaData) : none,
    length,
    targetWords: String(WORD_TARGETS[length]),
    sectionCount: String(SECTION_COUNTS[length]),
  };
}

/** The related-reading link, as the deterministic generator makes it: the blog's base URL and the first keyword. */
function linkedBlogHref(params: GenerationParams): string {
  const base = params.baseUrlForLinkedBlog!;
  return new URL(slugify(params.topicKeywords[0]!.trim()), base.endsWith('/') ? base : `${base}/`).toString();
}

export async function outline(
  params: GenerationParams,
  values: PromptValues,
  system: ChatMessage,
  complete: Complete,
  prompts: PromptSet,
  attempts: number,
): Promise<Plan> {
  const ask: ChatMessage = { role: 'user', content: fillPrompt(prompts.outline, values) };
  let problem = '';
  for (let attempt = 0; attempt < attempts; attempt++) {
    const messages: ChatMessage[] = [system, ask];
    const text = await complete(messages, 'the outline', true);
    const parsed = parseOutline(text);
    if (typeof parsed !== 'string') return budget(parsed, params);
    problem = parsed;
  }
  throw new ProviderError(
    'invalid',
    `wrote no usable outline in ${attempts} attempts (the JSON asked for): ${problem}`,
  );
}

export interface RawOutline {
  title: string;
  slug: string;
  excerpt: string;
  sections: { heading: string; points: string; words: number }[];
}

/** The outline the model wrote, or what is wrong with it. */
export function parseOutline(text: string): RawOutline | string {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return 'no JSON object in the answer';
  let body: unknown;
  try {
    body = JSON.parse(text.slice(start, end + 1));
  } catch {
    return 'the JSON does not parse';
  }
  const b = body as Record<string, unknown>;
  const title = typeof b['title'] === 'string' ? oneLine(b['title']).replace(/^#+\s*/, '') : '';
  if (!title) return 'no "title"';
  if (!Array.isArray(b['sections']) || !b['sections'].length) return 'no "sections"';
  const sections = (b['sections'] as unknown[]).slice(0, MAX_SECTIONS).map((s) => {
    const o = (s && typeof s === 'object' ? s : {}) as Record<string, unknown>;
    const heading = typeof o['heading'] === 'string' ? oneLine(o['heading']).replace(/^#+\s*/, '') : '';
    const points = typeof o['points'] === 'string' ? oneLine(o['points']) : '';
    const words =
      typeof o['words'] === 'number' && Number.isFinite(o['words']) && o['words'] > 0 ? o['words'] : 0;
    return { heading, points, words };
  });
  if (sections.some((s) => !s.heading)) return 'a section without a "heading"';
  return {
    title,
    slug: typeof b['slug'] === 'string' ? b['slug'] : '',
    excerpt: typeof b['excerpt'] === 'string' ? oneLine(b['excerpt']) : '',
    sections,
  };
}

/**
 * Word budgets that add up to the target less the headings' words (they count too), shared as the model
 * proposed (evenly where it did not say); every keyword and link given a section.
 */
function budget(raw: RawOutline, params: GenerationParams): Plan {
  const goal = WORD_TARGETS[params.blogLength.value];
  const headingWords = raw.sections.reduce((n, s) => n + countWords(s.heading), 0);
  const body = Math.max(goal - headingWords, raw.sections.length * 30);
  const proposed = raw.sections.map((s) => s.words || body / raw.sections.length);
  const sum = proposed.reduce((a, b) => a + b, 0);
  const sections: PlannedSection[] = raw.sections.map((s, i) => ({
    heading: s.heading,
    points: s.points || s.heading,
    words: Math.max(30, Math.round((proposed[i]! / sum) * body)),
    keywords: [],
    links: [],
  }));
  const n = sections.length;
  params.topicKeywords.forEach((k, i) => sections[i % n]!.keywords.push(k.trim()));
  // Links go to the body sections first (the introduction and the close come last), the related-reading
  // link to the closing section.
  const bodyOrder = n > 2 ? [...sections.slice(1, -1), sections[0]!, sections[n - 1]!] : sections;
  (params.hyperlinks ?? []).forEach((href, i) => bodyOrder[i % bodyOrder.length]!.links.push(href));
  if (params.baseUrlForLinkedBlog) sections[n - 1]!.links.push(linkedBlogHref(params));
  return {
    title: raw.title,
    slug: slugify(raw.slug || raw.title),
    excerpt: raw.excerpt ? clipExcerpt(raw.excerpt) : '',
    sections,
  };
}
/** One line of plain text: no tags (a title or excerpt is not HTML), white space collapsed. */
export function oneLine(text: string): string {
  return text
    .replace(/<[^>]*>?/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function clipExcerpt(text: string): string {
  const t = oneLine(text);
  return t.length > 160 ? `${t.slice(0, 157).replace(/\s+\S*$/, '')}…` : t;
}
