// The provider generator: a post written by a model through the Chat Completions API. An outline first
// (title, slug, excerpt, sections with word budgets that add up to the length's target), then the sections,
// a bounded number at a time, each checked (its words within ±20 % of its budget, its keywords and links
// present, not cut off) and asked again when it is not; then the post assembled as sanitized HTML. Nothing
// is returned unless every check passed, so a failed generation stores nothing.
import type { GeneratedBlog, GenerationParams } from './generator.js';
import { WORD_TARGETS, chosen, countWords, plainText, slugify } from './generator.js';
import {
  chatCompletion,
  ProviderError,
  type ChatLimits,
  type ChatMessage,
  type ChatUsage,
} from './provider-chat.js';
import { cleanSection, linkTargets, renderMarkdown } from './provider-markdown.js';
import { fillPrompt, type PromptSet, type PromptValues } from './provider-prompts.js';

export interface ProviderGeneratorOptions {
  /** Base URL, no trailing slash. */
  url: string;
  model: string;
  /** The key the service was started with: used when a request carries none of its own. */
  serverKey?: string | undefined;
  prompts: PromptSet;
  limits: ChatLimits;
  /** Sections written at the same time for one post. */
  sectionsInFlight: number;
  /** Attempts per section (and for the outline) before the post fails. */
  attempts?: number;
}

export interface GenerateContext {
  id: string;
  createdAt: string;
  /** The request's own provider key (externalProviderApiKey): used for this post only, never kept. */
  key?: string | undefined;
  signal?: AbortSignal | undefined;
  /** A short line as the post progresses ("3/6 sections"). */
  progress?: ((line: string) => void) | undefined;
}

export interface ProviderBlog extends GeneratedBlog {
  model: string;
  usage: ChatUsage & { calls: number };
}

export type ProviderGenerate = (params: GenerationParams, ctx: GenerateContext) => Promise<ProviderBlog>;

/** A section's words may differ from its budget by this share. */
export const TOLERANCE = 0.2;
const SECTIONS: Record<keyof typeof WORD_TARGETS, number> = { Short: 3, Medium: 5, Long: 7 };
const MAX_SECTIONS = 12;
/** Continuations of one answer cut off at the provider's length limit. */
const MAX_CONTINUATIONS = 2;

interface Plan {
  title: string;
  slug: string;
  excerpt: string;
  sections: PlannedSection[];
}

interface PlannedSection {
  heading: string;
  points: string;
  words: number;
  keywords: string[];
  links: string[];
}

export function providerGenerator(options: ProviderGeneratorOptions): ProviderGenerate {
  const attempts = options.attempts ?? 3;
  return async (params, ctx) => {
    const key = ctx.key?.trim() || options.serverKey || undefined;
    // Ends the calls still running once the post has failed (or the service shuts down).
    const failed = new AbortController();
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, failed.signal]) : failed.signal;
    const target = { url: options.url, model: options.model, key };
    const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0 };
    const values = postValues(params);
    const system: ChatMessage = { role: 'system', content: fillPrompt(options.prompts.system, values) };

    /** One answer, continued while the provider cuts it off at its length limit. */
    const complete = async (messages: ChatMessage[], what: string): Promise<string> => {
      let text = '';
      for (let part = 0; ; part++) {
        const answer = await chatCompletion(target, { messages }, options.limits, signal);
        usage.calls++;
        usage.promptTokens += answer.usage.promptTokens;
        usage.completionTokens += answer.usage.completionTokens;
        usage.totalTokens += answer.usage.totalTokens;
        text += answer.content;
        if (answer.finishReason !== 'length') {
          if (answer.finishReason === 'content_filter')
            throw new ProviderError(
              'invalid',
              `stopped ${what} with its content filter (finish_reason "content_filter")`,
            );
          return text;
        }
        if (part >= MAX_CONTINUATIONS)
          throw new ProviderError(
            'invalid',
            `still cut ${what} off at the model's length limit (finish_reason "length") after ${MAX_CONTINUATIONS} continuations`,
          );
        messages = [
          ...messages,
          { role: 'assistant', content: answer.content },
          { role: 'user', content: fillPrompt(options.prompts.continue, values) },
        ];
      }
    };

    ctx.progress?.('outline');
    const plan = await outline(params, values, system, complete, options.prompts, attempts);
    const outlineText = plan.sections
      .map((s, i) => `${i + 1}. ${s.heading} (about ${s.words} words): ${s.points}`)
      .join('\n');
    let done = 0;
    ctx.progress?.(`0/${plan.sections.length} sections`);
    const bodies = await inPool(
      plan.sections,
      Math.max(1, options.sectionsInFlight),
      failed,
      async (section, i) => {
        const body = await writeSection(section, i, {
          values: { ...values, title: plan.title, outline: outlineText },
          count: plan.sections.length,
          system,
          complete,
          prompts: options.prompts,
          attempts,
          callToAction: chosen(params.callToAction),
        });
        ctx.progress?.(`${++done}/${plan.sections.length} sections`);
        return body;
      },
    );

    const markdown = plan.sections.map((s, i) => `## ${oneLine(s.heading)}\n\n${bodies[i]!}`).join('\n\n');
    let content: string;
    try {
      content = renderMarkdown(markdown);
    } catch (error) {
      throw new ProviderError(
        'invalid',
        `wrote text that could not be made safe HTML: ${(error as Error).message}`,
      );
    }
    const wordCount = countWords(content);
    const goal = WORD_TARGETS[params.blogLength.value];
    if (Math.abs(wordCount - goal) > goal * TOLERANCE)
      throw new ProviderError(
        'invalid',
        `wrote a post of ${wordCount} words, not within ${TOLERANCE * 100} % of ${goal}`,
      );
    const excerpt = plan.excerpt || clipExcerpt(plainText(renderMarkdown(bodies[0]!)));
    return {
      _id: ctx.id,
      title: plan.title,
      slug: plan.slug,
      excerpt,
      content,
      createdAt: ctx.createdAt,
      status: 'generated',
      wordCount,
      language: params.language.value,
      ...(params.category !== undefined && { category: params.category }),
      topicKeywords: [...params.topicKeywords],
      targetAudience: chosen(params.targetAudience),
      toneStyle: chosen(params.toneStyle),
      contentStructure: chosen(params.contentStructure),
      blogLength: params.blogLength.value,
      ...(params.metaData !== undefined && { metaData: params.metaData }),
      model: options.model,
      usage,
    };
  };
}

type Complete = (messages: ChatMessage[], what: string) => Promise<string>;

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
    sectionCount: String(SECTIONS[length]),
  };
}

/** The related-reading link, as the deterministic generator makes it: the blog's base URL and the first keyword. */
function linkedBlogHref(params: GenerationParams): string {
  const base = params.baseUrlForLinkedBlog!;
  return new URL(slugify(params.topicKeywords[0]!.trim()), base.endsWith('/') ? base : `${base}/`).toString();
}

async function outline(
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
    const text = await complete(messages, 'the outline');
    const parsed = parseOutline(text);
    if (typeof parsed !== 'string') return budget(parsed, params);
    problem = parsed;
  }
  throw new ProviderError(
    'invalid',
    `wrote no usable outline in ${attempts} attempts (the JSON asked for): ${problem}`,
  );
}

interface RawOutline {
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

interface SectionJob {
  values: PromptValues;
  count: number;
  system: ChatMessage;
  complete: Complete;
  prompts: PromptSet;
  attempts: number;
  callToAction: string;
}

async function writeSection(section: PlannedSection, index: number, job: SectionJob): Promise<string> {
  const min = Math.ceil(section.words * (1 - TOLERANCE));
  const max = Math.floor(section.words * (1 + TOLERANCE));
  const role =
    index === 0
      ? 'the introduction: open the topic for the reader'
      : index === job.count - 1
        ? `the close: end the post with this call to action: ${job.callToAction}`
        : 'a section of the body';
  const values: PromptValues = {
    ...job.values,
    sectionNumber: String(index + 1),
    heading: section.heading,
    points: section.points,
    sectionRole: role,
    sectionWords: String(section.words),
    minWords: String(min),
    maxWords: String(max),
    sectionKeywords: section.keywords.length ? section.keywords.map((k) => `"${k}"`).join(', ') : '(none)',
    sectionLinks: section.links.length ? section.links.join(', ') : '(none)',
  };
  const ask: ChatMessage = { role: 'user', content: fillPrompt(job.prompts.section, values) };
  const what = `section ${index + 1} ("${section.heading}")`;
  let messages: ChatMessage[] = [job.system, ask];
  let problems: string[] = [];
  for (let attempt = 0; attempt < job.attempts; attempt++) {
    const answer = await job.complete(messages, what);
    const markdown = cleanSection(answer, section.heading);
    problems = sectionProblems(markdown, section, min, max);
    if (!problems.length) return markdown;
    messages = [
      job.system,
      ask,
      { role: 'assistant', content: answer },
      { role: 'user', content: fillPrompt(job.prompts.revise, { ...values, problems: problems.join('; ') }) },
    ];
  }
  throw new ProviderError(
    'invalid',
    `wrote ${what} ${job.attempts} times and it still failed its checks: ${problems.join('; ')}`,
  );
}

/** What is wrong with a section's Markdown: its length, a keyword or a link it left out. */
function sectionProblems(markdown: string, section: PlannedSection, min: number, max: number): string[] {
  const problems: string[] = [];
  let html: string;
  try {
    html = renderMarkdown(markdown);
  } catch {
    return ['it holds HTML that cannot be published'];
  }
  const words = countWords(html);
  if (words < min || words > max) problems.push(`it has ${words} words where ${min}–${max} were asked`);
  const text = plainText(html).toLowerCase();
  const missing = section.keywords.filter((k) => !text.includes(k.toLowerCase()));
  if (missing.length) problems.push(`it leaves out ${missing.map((k) => `"${k}"`).join(', ')}`);
  const targets = new Set(linkTargets(html).map(normalUrl));
  const absent = section.links.filter((l) => !targets.has(normalUrl(l)));
  if (absent.length) problems.push(`it does not link to ${absent.join(', ')}`);
  return problems;
}

function normalUrl(url: string): string {
  try {
    return new URL(url).toString();
  } catch {
    return url;
  }
}

/** One line of plain text: no tags (a title or excerpt is not HTML), white space collapsed. */
function oneLine(text: string): string {
  return text
    .replace(/<[^>]*>?/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function clipExcerpt(text: string): string {
  const t = oneLine(text);
  return t.length > 160 ? `${t.slice(0, 157).replace(/\s+\S*$/, '')}…` : t;
}

/**
 * Runs `work` over `items` with at most `limit` at a time; the first failure starts no more and aborts
 * `failed`, which ends the calls of those still running.
 */
async function inPool<T, R>(
  items: T[],
  limit: number,
  failed: AbortController,
  work: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!failed.signal.aborted && next < items.length) {
      const i = next++;
      try {
        results[i] = await work(items[i]!, i);
      } catch (error) {
        failed.abort();
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
