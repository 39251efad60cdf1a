// Turns `blog create` flags and a -f JSON file into BlogParams (spec 2.4), and names the flag behind every
// problem. Pure functions: no IO, so the parse tests call them directly.
//
// Flag syntax (also in `blogctl blog create --help`):
//   --tone Friendly                 → {name: "Friendly", value: "Friendly"}
//   --tone "Friendly=friendly"      → {name: "Friendly", value: "friendly"}   (split at the first "=")
//   --tone-custom "warm, no jargon" → adds customValue to whichever toneStyle is in force (flag, file or prompt)
//   --length short|medium|long      → {name: "Short", value: "Short"} (any case); "Quick read=short" names it
//   -k a,b -k c                     → topicKeywords ["a", "b", "c"]
//   --meta key=value                → metaData; the value is JSON when it parses as JSON (number, true, false,
//                                     null, object, array, or a "quoted string"), else the text as given
// Flags override the file: a flag replaces that whole field (-k, --link and an option flag replace the file's
// array or object), except --meta, which overrides the file's metaData key by key, and --<opt>-custom, which
// only sets customValue.
import * as z from 'zod/mini';
import { BlogParamsError } from './params-error.js';
import {
  blogLengthValues,
  blogParams,
  httpUrl,
  requiredBlogParamFields,
  type BlogLength,
  type BlogParams,
} from '../schemas/blog.js';
import { check, type FieldIssue } from '../schemas/validate.js';
import { parseJsonText } from '../lib/json-text.js';
import { parseMetaPair } from '../lib/meta-value.js';

/** `blog create`'s own flags, as commander hands them over. */
export interface BlogParamFlags {
  keyword?: string[];
  language?: string;
  tone?: string;
  toneCustom?: string;
  structure?: string;
  structureCustom?: string;
  cta?: string;
  ctaCustom?: string;
  audience?: string;
  audienceCustom?: string;
  length?: string;
  lengthCustom?: string;
  category?: string;
  link?: string[];
  linkedBlogUrl?: string;
  meta?: string[];
}

export type RequiredField = (typeof requiredBlogParamFields)[number];
export type OptionField = 'toneStyle' | 'contentStructure' | 'callToAction' | 'targetAudience' | 'blogLength';

/** Every BlogParams field and the flag that sets it, for messages that name what the person typed. */
export const FIELD_FLAGS: Record<keyof BlogParams, string> = {
  topicKeywords: '--keyword',
  language: '--language',
  toneStyle: '--tone',
  contentStructure: '--structure',
  callToAction: '--cta',
  targetAudience: '--audience',
  blogLength: '--length',
  category: '--category',
  hyperlinks: '--link',
  baseUrlForLinkedBlog: '--linked-blog-url',
  metaData: '--meta',
  externalProviderApiKey: '--provider-key-stdin',
};

interface OptionFlagSpec {
  field: OptionField | 'language';
  flag: keyof BlogParamFlags;
  custom?: keyof BlogParamFlags;
}

const OPTION_FLAGS: OptionFlagSpec[] = [
  { field: 'language', flag: 'language' },
  { field: 'toneStyle', flag: 'tone', custom: 'toneCustom' },
  { field: 'contentStructure', flag: 'structure', custom: 'structureCustom' },
  { field: 'callToAction', flag: 'cta', custom: 'ctaCustom' },
  { field: 'targetAudience', flag: 'audience', custom: 'audienceCustom' },
  { field: 'blogLength', flag: 'length', custom: 'lengthCustom' },
];

const flagName = (key: keyof BlogParamFlags): string =>
  `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export { BlogParamsError };

/** Where a field's value came from, so a schema problem can name the flag or the file. */
export type Origins = Partial<Record<keyof BlogParams, string>>;

export interface BlogParamsDraft {
  /** What the file and flags gave; required fields may still be missing. */
  params: Partial<BlogParams> & Record<string, unknown>;
  origins: Origins;
  /** The -f file's label, for problems with the file as a whole (unknown fields). */
  source?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Single flags

/** `Friendly` → {name, value} both "Friendly"; `Friendly=friendly` → name "Friendly", value "friendly". */
export function parseOptionFlag(flag: string, raw: string): { name: string; value: string } {
  const eq = raw.indexOf('=');
  const name = (eq < 0 ? raw : raw.slice(0, eq)).trim();
  const value = (eq < 0 ? raw : raw.slice(eq + 1)).trim();
  if (!name && !value) throw new BlogParamsError(`${flag}: must not be empty`);
  if (!name)
    throw new BlogParamsError(`${flag}: "${raw}" needs a name before "=" (e.g. ${flag} "Friendly=friendly")`);
  if (!value)
    throw new BlogParamsError(`${flag}: "${raw}" needs a value after "=" (e.g. ${flag} "Friendly=friendly")`);
  return { name, value };
}

/** `short`, `MEDIUM` → the spec's `Short`/`Medium`/`Long`; `Quick read=short` keeps "Quick read" as the name. */
export function parseLengthFlag(raw: string): { name: string; value: BlogLength } {
  const eq = raw.indexOf('=');
  const value = normaliseLength(eq < 0 ? raw : raw.slice(eq + 1));
  if (!value) {
    throw new BlogParamsError(
      `--length: "${raw}" must be short, medium or long (any case), or name=short|medium|long`,
    );
  }
  const name = eq < 0 ? value : raw.slice(0, eq).trim();
  if (!name) throw new BlogParamsError(`--length: "${raw}" needs a name before "="`);
  return { name, value };
}

export function normaliseLength(raw: string): BlogLength | undefined {
  const t = raw.trim().toLowerCase();
  return blogLengthValues.find((v) => v.toLowerCase() === t);
}

/** `-k "a, b" -k c` → ["a", "b", "c"]: repeatable and comma-separated; blanks dropped. */
export function parseKeywords(values: string[]): string[] {
  const keywords = values
    .flatMap((v) => v.split(','))
    .map((k) => k.trim())
    .filter(Boolean);
  if (!keywords.length)
    throw new BlogParamsError('--keyword: give at least one keyword (e.g. -k "home espresso")');
  return keywords;
}

const isHttpUrl = (value: string): boolean => httpUrl().safeParse(value).success;

export function parseUrlFlag(flag: string, raw: string): string {
  const value = raw.trim();
  if (!isHttpUrl(value)) throw new BlogParamsError(`${flag}: "${raw}" must be an http(s) URL`);
  return value;
}

export function parseMeta(values: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const raw of values) {
    const [key, value] = parseMetaPair(raw, '--meta', BlogParamsError);
    // A key such as __proto__ is an own property, never the object's prototype.
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The file

/**
 * `-f` content: BlogParams bare, or `{"blogParams": {…}}` as the request body is sent. Fields may be missing
 * (flags or prompts fill them); unknown fields fail later, in the schema check, naming the file.
 */
export function parseBlogParamsFile(text: string, label: string): Record<string, unknown> {
  const data = parseJsonText(text, label, { error: (message) => new BlogParamsError(message) });
  if (!isPlainObject(data))
    throw new BlogParamsError(`${label}: expected a JSON object with BlogParams fields`);
  if ('blogParams' in data) {
    const extra = Object.keys(data).filter((k) => k !== 'blogParams');
    if (extra.length) {
      throw new BlogParamsError(
        `${label}: "blogParams" must be the only top-level field (also found ${extra.join(', ')})`,
      );
    }
    const inner = data['blogParams'];
    if (!isPlainObject(inner)) throw new BlogParamsError(`${label}: "blogParams" must be an object`);
    return { ...inner };
  }
  return { ...data };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------------------
// Flags over the file

/** Merges flags over the file's fields. Checks each flag on its own first, so errors name the flag. */
export function draftBlogParams(
  flags: BlogParamFlags,
  file?: { params: Record<string, unknown>; label: string },
): BlogParamsDraft {
  const params: Record<string, unknown> = { ...file?.params };
  const origins: Origins = {};
  if (file) for (const key of Object.keys(params)) origins[key as keyof BlogParams] = file.label;
  const set = (field: keyof BlogParams, value: unknown, flag: string): void => {
    params[field] = value;
    origins[field] = flag;
  };

  if (flags.keyword?.length) set('topicKeywords', parseKeywords(flags.keyword), '--keyword');
  for (const spec of OPTION_FLAGS) {
    const raw = flags[spec.flag] as string | undefined;
    if (raw === undefined) continue;
    const option =
      spec.field === 'blogLength' ? parseLengthFlag(raw) : parseOptionFlag(flagName(spec.flag), raw);
    set(spec.field, option, flagName(spec.flag));
  }
  if (flags.category !== undefined) {
    if (!flags.category.trim()) throw new BlogParamsError('--category: must not be empty');
    set('category', flags.category.trim(), '--category');
  }
  if (flags.link?.length)
    set(
      'hyperlinks',
      flags.link.map((l) => parseUrlFlag('--link', l)),
      '--link',
    );
  if (flags.linkedBlogUrl !== undefined)
    set('baseUrlForLinkedBlog', parseUrlFlag('--linked-blog-url', flags.linkedBlogUrl), '--linked-blog-url');
  if (flags.meta?.length) {
    const fromFile = isPlainObject(params['metaData']) ? params['metaData'] : {};
    set('metaData', { ...fromFile, ...parseMeta(flags.meta) }, '--meta');
  }

  const draft: BlogParamsDraft = {
    params: params as BlogParamsDraft['params'],
    origins,
    ...(file && { source: file.label }),
  };
  applyCustomValues(draft, flags);
  const problems = checkDraft(draft);
  if (problems) throw new BlogParamsError(problems);
  return draft;
}

/**
 * `--tone-custom` sets customValue on whichever toneStyle is in force. Run again after prompting, so a custom
 * value given for an option that was then chosen in a prompt is not lost. An empty text removes customValue.
 */
export function applyCustomValues(draft: BlogParamsDraft, flags: BlogParamFlags): void {
  for (const spec of OPTION_FLAGS) {
    if (!spec.custom) continue;
    const custom = flags[spec.custom] as string | undefined;
    const current = draft.params[spec.field];
    if (custom === undefined || !isPlainObject(current)) continue;
    const next: Record<string, unknown> = { ...current };
    if (custom.trim()) next['customValue'] = custom;
    else delete next['customValue'];
    draft.params[spec.field] = next as never;
  }
}

/** Required fields still missing after the file and the flags. */
export function missingFields(params: Record<string, unknown>): RequiredField[] {
  return requiredBlogParamFields.filter((f) => params[f] === undefined);
}

/** `--keyword, --tone, --length`, in the order a person would be asked. */
export function missingFlags(fields: RequiredField[]): string {
  return fields.map((f) => FIELD_FLAGS[f]).join(', ');
}

/** The fields present so far, checked against the schema; a message naming flags or the file, or undefined. */
export function checkDraft(draft: BlogParamsDraft): string | undefined {
  const result = check(z.partial(blogParams), draft.params);
  return result.ok ? undefined : describeIssues(result.issues, draft);
}

/** The finished parameters, checked against the full schema. */
export function finishBlogParams(draft: BlogParamsDraft): BlogParams {
  const result = check(blogParams, draft.params);
  if (!result.ok) throw new BlogParamsError(describeIssues(result.issues, draft));
  return result.value;
}

/** `--link: …` for a flag's field, `params.json: hyperlinks[0]: …` for a file's, joined with "; ". */
export function describeIssues(
  issues: FieldIssue[],
  draft: Pick<BlogParamsDraft, 'origins' | 'source'>,
): string {
  const { origins } = draft;
  return issues
    .map((issue) => {
      if (issue.path === '(body)') return `${draft.source ?? 'blogParams'}: ${issue.message}`;
      const field = /^[A-Za-z]+/.exec(issue.path)?.[0] as keyof BlogParams | undefined;
      const origin = field ? origins[field] : undefined;
      if (origin?.startsWith('--')) {
        const custom = /\.customValue$/.test(issue.path) ? `${origin}-custom` : origin;
        return `${custom}: ${issue.message}`;
      }
      const where = origin ?? (field && field in FIELD_FLAGS ? FIELD_FLAGS[field] : undefined);
      return where ? `${where}: ${issue.path}: ${issue.message}` : `${issue.path}: ${issue.message}`;
    })
    .join('; ');
}

/** The request body `--dry-run` prints: exactly what would be sent, with the provider key hidden. */
export function dryRunBody(params: BlogParams): { blogParams: BlogParams } {
  return {
    blogParams: {
      ...params,
      ...(params.externalProviderApiKey !== undefined && { externalProviderApiKey: '***' }),
    },
  };
}
