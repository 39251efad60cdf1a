// A provider post's plan: the parameters as the prompts name them, the outline the model writes (parsed,
// asked again when unusable), and the word budgets and keywords and links shared among its sections.
import type { GenerationParams } from './generator.js';
import { WORD_TARGETS, chosen, countWords, slugify } from './generator.js';
import { ProviderError, type ChatMessage } from './provider-chat.js';
import { fillPrompt, type PromptSet, type PromptValues } from './provider-prompts.js';
import { holdsPhrase } from './provider-section.js';

export const SECTION_COUNTS: Record<keyof typeof WORD_TARGETS, number> = { Short: 3, Medium: 5, Long: 7 };
const MAX_SECTIONS = 12;

export interface Plan {
  title: string;
  slug: string;
  excerpt: string;
  sections: PlannedSection[];
  /** What the outline misses of what the request implies (the main keyword in the title…); empty: none. */
  problems: string[];
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

/**
 * The related-reading link: `baseUrlForLinkedBlog` as given. It is a page the person chose; a path made up
 * from it (its URL and a keyword's slug) would usually not exist.
 */
function linkedBlogHref(params: GenerationParams): string {
  return params.baseUrlForLinkedBlog!.trim();
}

export async function outline(
  params: GenerationParams,
  values: PromptValues,
  system: ChatMessage,
  complete: Complete,
  prompts: PromptSet,
  attempts: number,
  strict = false,
): Promise<Plan> {
  const ask: ChatMessage = { role: 'user', content: fillPrompt(prompts.outline, values) };
  let problem = '';
  let best: Plan | undefined;
  let messages: ChatMessage[] = [system, ask];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const text = await complete(messages, 'the outline', true);
    const parsed = parseOutline(text);
    if (typeof parsed === 'string') {
      problem = parsed;
      messages = [system, ask];
      continue;
    }
    const plan = budget(parsed, params);
    if (!plan.problems.length) return plan;
    if (!best || plan.problems.length < best.problems.length) best = plan;
    problem = plan.problems.join('; ');
    // Asked again with what was wrong: the outline is the post's title and excerpt.
    messages = [
      system,
      ask,
      { role: 'assistant', content: text },
      {
        role: 'user',
        content: `Your outline needs another try: ${problem}. Answer with the whole JSON object again, and nothing else.`,
      },
    ];
  }
  if (best && !strict) return { ...best, problems: best.problems.map((p) => `the outline: ${p}`) };
  throw new ProviderError(
    'invalid',
    best
      ? `wrote the outline ${attempts} times and it still failed its checks: ${problem}`
      : `wrote no usable outline in ${attempts} attempts (the JSON asked for): ${problem}`,
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
 * proposed (evenly where it did not say), except that the introduction and the close take at most a fifth
 * each, so the body has the most of the words; every keyword and link given a section. And what the
 * outline misses: at least an introduction, a body and a close, the main keyword (the first) in the title,
 * the slug and the excerpt.
 */
function budget(raw: RawOutline, params: GenerationParams): Plan {
  const goal = WORD_TARGETS[params.blogLength.value];
  const headingWords = raw.sections.reduce((n, s) => n + countWords(s.heading), 0);
  const body = Math.max(goal - headingWords, raw.sections.length * 30);
  const n = raw.sections.length;
  const proposed = raw.sections.map((s) => s.words || body / n);
  const sum = proposed.reduce((a, b) => a + b, 0);
  let shares = proposed.map((p) => (p / sum) * body);
  if (n >= 3) {
    const cap = Math.max(40, body * 0.2);
    const ends = [0, n - 1];
    const freed = ends.reduce((a, i) => a + Math.max(0, shares[i]! - cap), 0);
    const middle = shares.slice(1, -1).reduce((a, b) => a + b, 0);
    shares = shares.map((w, i) =>
      ends.includes(i) ? Math.min(w, cap) : w + (middle > 0 ? (w / middle) * freed : freed / (n - 2)),
    );
  }
  const sections: PlannedSection[] = raw.sections.map((s, i) => ({
    heading: s.heading,
    points: s.points || s.heading,
    words: Math.max(30, Math.round(shares[i]!)),
    keywords: [],
    links: [],
  }));
  params.topicKeywords.forEach((k, i) => sections[i % n]!.keywords.push(k.trim()));
  // Links go to the body sections first (the introduction and the close come last), the related-reading
  // link to the closing section.
  const bodyOrder = n > 2 ? [...sections.slice(1, -1), sections[0]!, sections[n - 1]!] : sections;
  (params.hyperlinks ?? []).forEach((href, i) => bodyOrder[i % bodyOrder.length]!.links.push(href));
  if (params.baseUrlForLinkedBlog) sections[n - 1]!.links.push(linkedBlogHref(params));

  const main = params.topicKeywords[0]!.trim();
  const mainSlug = slugify(main);
  const titleSlug = slugify(raw.title);
  // The model's slug when it names the main keyword, else the title's when that does.
  const slug =
    raw.slug && slugify(raw.slug).includes(mainSlug)
      ? slugify(raw.slug)
      : titleSlug.includes(mainSlug)
        ? titleSlug
        : slugify(raw.slug || raw.title);
  const excerpt = raw.excerpt ? clipExcerpt(raw.excerpt) : '';
  const problems: string[] = [];
  if (n < 3)
    problems.push(
      `it has ${n} section${n === 1 ? '' : 's'} where an introduction, a body and a close were asked`,
    );
  if (!holdsPhrase(raw.title, main)) problems.push(`the title leaves out "${main}"`);
  if (excerpt && !holdsPhrase(excerpt, main)) problems.push(`the excerpt leaves out "${main}"`);
  return { title: raw.title, slug, excerpt, sections, problems };
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
