// The provider generator: a post written by a model through the Chat Completions API. An outline first
// (title, slug, excerpt, sections with word budgets that add up to the length's target), then the sections,
// a bounded number at a time, each checked (its words within ±20 % of its budget, its keywords and links
// present, not cut off) and asked again when it is not; then the post assembled as sanitized HTML. Nothing
// is returned unless every check passed, so a failed generation stores nothing. The outline and budgets are
// provider-outline.ts; a section and its checks, provider-section.ts.
import type { GeneratedBlog, GenerationParams } from './generator.js';
import { WORD_TARGETS, chosen, countWords, plainText } from './generator.js';
import { seoFieldsOf } from './seo-fields.js';
import {
  chatCompletion,
  ProviderError,
  type ChatAnswer,
  type ChatLimits,
  type ChatMessage,
  type ChatUsage,
} from './provider-chat.js';
import { renderMarkdown } from './provider-markdown.js';
import { clipExcerpt, oneLine, outline, postValues, SECTION_COUNTS } from './provider-outline.js';
import { fillPrompt, type PromptSet } from './provider-prompts.js';
import { TOLERANCE, writeSection } from './provider-section.js';

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
  /** The whole post: every call, retry and wait (ms). */
  deadlineMs: number;
  /** Provider calls one post may make, retries included; default maxCallsFor its length. */
  maxCalls?: number;
}

export interface GenerateContext {
  id: string;
  createdAt: string;
  /** The request's own provider key (externalProviderApiKey): used for this post only, never kept. */
  key?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Refuse (502) a post that misses anything it was asked for, rather than keep it with its shortfalls. */
  strict?: boolean | undefined;
  /** A short line as the post progresses ("3/6 sections"). */
  progress?: ((line: string) => void) | undefined;
}

export interface ProviderBlog extends GeneratedBlog {
  model: string;
  usage: ChatUsage & { calls: number };
  /**
   * What the post misses of what was asked, one line each, when its drafts ran out (absent when nothing):
   * the post is kept with its best drafts, unless the request was strict.
   */
  shortfalls?: string[];
}

export type ProviderGenerate = (params: GenerationParams, ctx: GenerateContext) => Promise<ProviderBlog>;

/** Continuations of one answer cut off at the provider's length limit. */
const MAX_CONTINUATIONS = 2;

export function providerGenerator(options: ProviderGeneratorOptions): ProviderGenerate {
  const attempts = options.attempts ?? 3;
  /** Whether to ask for JSON output (`response_format`) where JSON is wanted: until the provider refuses it. */
  let jsonMode = true;
  return async (params, ctx) => {
    const key = ctx.key?.trim() || options.serverKey || undefined;
    // Ends the calls still running once the post has failed, its deadline has passed, its client has gone
    // or the service shuts down.
    const failed = new AbortController();
    const late = new AbortController();
    const seconds = Math.round(options.deadlineMs / 1000);
    const deadline = setTimeout(
      () =>
        late.abort(
          new ProviderError(
            'unavailable',
            `did not finish the post within ${seconds} s (the deadline of one post, BLOGCTL_PROVIDER_DEADLINE)`,
          ),
        ),
      options.deadlineMs,
    );
    const signal = AbortSignal.any([failed.signal, late.signal, ...(ctx.signal ? [ctx.signal] : [])]);
    try {
      return await write(params, ctx, key, signal, failed);
    } finally {
      clearTimeout(deadline);
    }
  };

  async function write(
    params: GenerationParams,
    ctx: GenerateContext,
    key: string | undefined,
    signal: AbortSignal,
    failed: AbortController,
  ): Promise<ProviderBlog> {
    const target = { url: options.url, model: options.model, key };
    const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, calls: 0 };
    const maxCalls = options.maxCalls ?? maxCallsFor(params.blogLength.value, attempts);
    let attemptsMade = 0;
    /** Before each attempt sent to the provider, retries included: the post's bound on calls. */
    const meter = (): void => {
      if (++attemptsMade > maxCalls)
        throw new ProviderError(
          'unavailable',
          `was still not done after ${maxCalls} calls for this post (the bound on calls for one post, BLOGCTL_PROVIDER_MAX_CALLS)`,
        );
    };
    const values = postValues(params);
    const system: ChatMessage = { role: 'system', content: fillPrompt(options.prompts.system, values) };

    /**
     * One answer, continued while the provider cuts it off at its length limit; with `json`, asked as a JSON
     * object (`response_format`) unless the provider has refused that once.
     */
    const complete = async (messages: ChatMessage[], what: string, json = false): Promise<string> => {
      let text = '';
      for (let part = 0; ; part++) {
        const answer = await completion(messages, json);
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

    const completion = async (messages: ChatMessage[], json: boolean): Promise<ChatAnswer> => {
      const asJson = json && jsonMode;
      try {
        return await chatCompletion(
          target,
          { messages, ...(asJson && { response_format: { type: 'json_object' as const } }) },
          options.limits,
          signal,
          meter,
        );
      } catch (error) {
        if (!asJson || !refusedJsonMode(error)) throw error;
        // A server without JSON mode: asked again without it, and never with it again.
        jsonMode = false;
        return chatCompletion(target, { messages }, options.limits, signal, meter);
      }
    };

    ctx.progress?.('outline');
    const strict = ctx.strict === true;
    const plan = await outline(params, values, system, complete, options.prompts, attempts, strict);
    const outlineText = plan.sections
      .map((s, i) => `${i + 1}. ${s.heading} (about ${s.words} words): ${s.points}`)
      .join('\n');
    let done = 0;
    ctx.progress?.(`0/${plan.sections.length} sections`);
    const drafts = await inPool(
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
          strict,
        });
        ctx.progress?.(`${++done}/${plan.sections.length} sections`);
        return body;
      },
    );
    const shortfalls = [...plan.problems, ...drafts.flatMap((d) => d.problems)];
    const bodies = drafts.map((d) => d.markdown);

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
    if (Math.abs(wordCount - goal) > goal * TOLERANCE) {
      const problem = `a post of ${wordCount} words, not within ${TOLERANCE * 100} % of ${goal}`;
      if (strict) throw new ProviderError('invalid', `wrote ${problem}`);
      shortfalls.push(`the post: ${problem}`);
    }
    if (strict && shortfalls.length)
      throw new ProviderError('invalid', `wrote a post that fails its checks: ${shortfalls.join('; ')}`);
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
      seo: seoFieldsOf({ title: plan.title, excerpt, content }),
      model: options.model,
      usage,
      ...(shortfalls.length && { shortfalls }),
    };
  }
}

/** A 400 that names response_format (or JSON mode): the server does not take it. */
function refusedJsonMode(error: unknown): boolean {
  return (
    error instanceof ProviderError &&
    error.providerStatus === 400 &&
    /response_format|json_object|json mode/i.test(error.message)
  );
}

/**
 * The provider calls a post of this length may make by default, retries included: each of its planned
 * sections and its outline asked `attempts` times, twice over (a continuation, a retry).
 */
export function maxCallsFor(length: keyof typeof WORD_TARGETS, attempts: number): number {
  return 2 * attempts * (SECTION_COUNTS[length] + 1);
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
