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
}

export async function writeSection(section: PlannedSection, index: number, job: SectionJob): Promise<string> {
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
