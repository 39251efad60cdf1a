// What one create-blog request may make the sandbox generate and store. The specification sets no limits
// (section 8: "not shown"); these are the sandbox's, documented in docs/sandbox-limits.md. The generator
// repeats keywords through the text, so their number and length bound the post's size; the stored record
// is bounded again after generation, whatever made it.
import type { BlogParams } from '../schemas/blog.js';
import { formatIssues, type FieldIssue } from '../schemas/validate.js';
import { HttpProblem } from './http-io.js';

export const LIMITS = {
  keywords: 20,
  keywordLength: 100,
  /** name and value of an option object, and category. */
  optionLength: 200,
  customValueLength: 1000,
  hyperlinks: 20,
  urlLength: 2048,
  /** metaData, as JSON. */
  metaDataBytes: 16 * 1024,
  /** One blog as stored (JSON). */
  blogBytes: 512 * 1024,
} as const;

/** Refuses (400, naming each field) parameters past the limits. */
export function checkBlogParamLimits(params: BlogParams): void {
  const issues: FieldIssue[] = [];
  const at = (path: string, message: string): void =>
    void issues.push({ path: `blogParams.${path}`, message });
  const text = (path: string, value: string | undefined, max: number): void => {
    if (value !== undefined && value.length > max) {
      at(path, `at most ${max} characters (got ${value.length})`);
    }
  };
  if (params.topicKeywords.length > LIMITS.keywords) {
    at('topicKeywords', `at most ${LIMITS.keywords} keywords (got ${params.topicKeywords.length})`);
  }
  params.topicKeywords.forEach((k, i) => text(`topicKeywords[${i}]`, k, LIMITS.keywordLength));
  for (const name of [
    'language',
    'toneStyle',
    'contentStructure',
    'callToAction',
    'targetAudience',
    'blogLength',
  ] as const) {
    const option: { name: string; value: string; customValue?: string | undefined } = params[name];
    text(`${name}.name`, option.name, LIMITS.optionLength);
    text(`${name}.value`, option.value, LIMITS.optionLength);
    text(`${name}.customValue`, option.customValue, LIMITS.customValueLength);
  }
  text('category', params.category, LIMITS.optionLength);
  if (params.hyperlinks && params.hyperlinks.length > LIMITS.hyperlinks) {
    at('hyperlinks', `at most ${LIMITS.hyperlinks} links (got ${params.hyperlinks.length})`);
  }
  params.hyperlinks?.forEach((h, i) => text(`hyperlinks[${i}]`, h, LIMITS.urlLength));
  text('baseUrlForLinkedBlog', params.baseUrlForLinkedBlog, LIMITS.urlLength);
  if (params.metaData !== undefined) {
    const bytes = Buffer.byteLength(JSON.stringify(params.metaData));
    if (bytes > LIMITS.metaDataBytes) {
      at('metaData', `at most ${LIMITS.metaDataBytes / 1024} KB as JSON (got ${Math.ceil(bytes / 1024)} KB)`);
    }
  }
  if (issues.length) {
    throw new HttpProblem(400, `invalid request: ${formatIssues(issues)}`, { issues });
  }
}

/** Refuses (422) a generated blog larger than a blog may be stored. */
export function checkBlogSize(blog: unknown): void {
  const bytes = Buffer.byteLength(JSON.stringify(blog));
  if (bytes > LIMITS.blogBytes) {
    throw new HttpProblem(
      422,
      `the generated blog would take ${Math.ceil(bytes / 1024)} KB, more than the ${LIMITS.blogBytes / 1024} KB a blog may; ask for fewer or shorter keywords or a shorter length`,
    );
  }
}
