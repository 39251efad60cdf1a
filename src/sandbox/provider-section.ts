// A provider post's section: written from its plan, checked (its words within ±20 % of its budget, its
// keywords and links present) and asked again with what is wrong until it passes or its attempts run out.
import { countWords, plainText } from './generator.js';
import { ProviderError, type ChatMessage } from './provider-chat.js';
import { cleanSection, linkTargets, renderMarkdown } from './provider-markdown.js';
import type { Complete, PlannedSection } from './provider-outline.js';
import { fillPrompt, type PromptSet, type PromptValues } from './provider-prompts.js';

/** A section's words may differ from its budget by this share. */
export const TOLERANCE = 0.2;

export interface SectionJob {
  values: PromptValues;
  count: number;
  system: ChatMessage;
  complete: Complete;
  prompts: PromptSet;
  attempts: number;
  callToAction: string;
  /** Fail when the drafts all miss something; otherwise the best one is kept with what it misses. */
  strict: boolean;
}

/** A section as written: its Markdown, and what it still misses of what was asked (empty when nothing). */
export interface SectionDraft {
  markdown: string;
  problems: string[];
}

export async function writeSection(
  section: PlannedSection,
  index: number,
  job: SectionJob,
): Promise<SectionDraft> {
  const min = Math.ceil(section.words * (1 - TOLERANCE));
  const max = Math.floor(section.words * (1 + TOLERANCE));
  const closing = index === job.count - 1 && job.count > 1;
  const role =
    index === 0
      ? 'the introduction: open the topic for the reader'
      : closing
        ? `the close: end the post with this call to action, in these words: "${job.callToAction}"`
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
  let best: (SectionDraft & { off: number }) | undefined;
  for (let attempt = 0; attempt < job.attempts; attempt++) {
    const answer = await job.complete(messages, what);
    const markdown = cleanSection(answer, section.heading);
    const checked = sectionProblems(markdown, section, min, max, closing ? job.callToAction : undefined);
    problems = checked.problems;
    if (!problems.length) return { markdown, problems };
    // The best draft so far: the fewest problems, then the nearest to its budget; never one that cannot
    // be published at all.
    if (checked.words >= 0) {
      const off = Math.abs(checked.words - section.words);
      if (
        !best ||
        problems.length < best.problems.length ||
        (problems.length === best.problems.length && off < best.off)
      )
        best = { markdown, problems, off };
    }
    messages = [
      job.system,
      ask,
      { role: 'assistant', content: answer },
      { role: 'user', content: fillPrompt(job.prompts.revise, { ...values, problems: problems.join('; ') }) },
    ];
  }
  if (job.strict || !best)
    throw new ProviderError(
      'invalid',
      `wrote ${what} ${job.attempts} times and it still failed its checks: ${problems.join('; ')}`,
    );
  return { markdown: best.markdown, problems: best.problems.map((p) => `${what}: ${p}`) };
}

/**
 * What is wrong with a section's Markdown: its length, a keyword or a link it left out, the call to action
 * (the closing section's); and its words (-1 when it cannot be published at all).
 */
function sectionProblems(
  markdown: string,
  section: PlannedSection,
  min: number,
  max: number,
  callToAction: string | undefined,
): { problems: string[]; words: number } {
  const problems: string[] = [];
  let html: string;
  try {
    html = renderMarkdown(markdown);
  } catch {
    return { problems: ['it holds HTML that cannot be published'], words: -1 };
  }
  const words = countWords(html);
  if (words < min || words > max) problems.push(`it has ${words} words where ${min}–${max} were asked`);
  const text = plainText(html).toLowerCase();
  const missing = section.keywords.filter((k) => !text.includes(k.toLowerCase()));
  if (missing.length) problems.push(`it leaves out ${missing.map((k) => `"${k}"`).join(', ')}`);
  const targets = new Set(linkTargets(html).map(normalUrl));
  const absent = section.links.filter((l) => !targets.has(normalUrl(l)));
  if (absent.length) problems.push(`it does not link to ${absent.join(', ')}`);
  if (callToAction !== undefined && !holdsPhrase(text, callToAction))
    problems.push(`it leaves out the call to action "${callToAction}"`);
  return { problems, words };
}

/** Whether `text` (lower case) holds `phrase`, case, spacing and its closing punctuation aside. */
export function holdsPhrase(text: string, phrase: string): boolean {
  const norm = (s: string): string =>
    s
      .toLowerCase()
      .replace(/[\u2018\u2019]/g, "'")
      .replace(/\s+/g, ' ')
      .trim();
  const wanted = norm(phrase).replace(/[.!?…]+$/, '');
  return !wanted || norm(text).includes(wanted);
}

function normalUrl(url: string): string {
  try {
    return new URL(url).toString();
  } catch {
    return url;
  }
}
