// The prompts of the provider generator: Markdown files with named placeholders (`{keywords}`), shipped in
// the package's prompts/ directory. A --prompts directory replaces any of them by file name; a file there
// that blogctl does not use, or a placeholder a prompt cannot fill, is refused when the service starts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire as requireFrom } from 'node:module';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';

/** Placeholders every prompt can use: the post's parameters. */
export const POST_PLACEHOLDERS = [
  'keywords',
  'language',
  'tone',
  'structure',
  'audience',
  'callToAction',
  'category',
  'hyperlinks',
  'linkedBlogUrl',
  'metaData',
  'length',
  'targetWords',
  'sectionCount',
] as const;

/** Placeholders of one section (section.md, revise.md), besides the post's, once the outline exists. */
export const SECTION_PLACEHOLDERS = [
  'title',
  'outline',
  'sectionNumber',
  'heading',
  'points',
  'sectionRole',
  'sectionWords',
  'minWords',
  'maxWords',
  'sectionKeywords',
  'sectionLinks',
] as const;

export const PROMPTS = {
  system: [...POST_PLACEHOLDERS],
  outline: [...POST_PLACEHOLDERS],
  section: [...POST_PLACEHOLDERS, ...SECTION_PLACEHOLDERS],
  revise: [...POST_PLACEHOLDERS, ...SECTION_PLACEHOLDERS, 'problems'],
  continue: [...POST_PLACEHOLDERS],
} as const;

export type PromptName = keyof typeof PROMPTS;
export type PromptSet = Record<PromptName, string>;
export type PromptValues = Partial<Record<string, string>>;

const PLACEHOLDER = /\{([A-Za-z][A-Za-z0-9]*)\}/g;

/** The shipped prompts, then any file of `overrideDir` over them, each checked. */
export function loadPrompts(overrideDir?: string): PromptSet {
  const shipped = shippedPromptsDir();
  const set = {} as PromptSet;
  for (const name of Object.keys(PROMPTS) as PromptName[]) {
    set[name] = readPrompt(join(shipped, `${name}.md`), name, 'the shipped prompt');
  }
  if (overrideDir !== undefined) {
    let entries: string[];
    try {
      if (!statSync(overrideDir).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
      entries = readdirSync(overrideDir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `--prompts: cannot read the directory "${overrideDir}": ${code === 'ENOENT' ? 'no such directory' : code === 'ENOTDIR' ? 'not a directory' : (code ?? 'unreadable')}`,
      );
    }
    const known = Object.keys(PROMPTS).map((n) => `${n}.md`);
    for (const entry of entries) {
      if (!entry.endsWith('.md')) continue;
      if (!known.includes(entry))
        throw new UsageError(
          `--prompts: ${join(overrideDir, entry)} is not a prompt blogctl uses (it reads ${known.join(', ')})`,
        );
      const name = entry.slice(0, -3) as PromptName;
      set[name] = readPrompt(join(overrideDir, entry), name, '--prompts');
    }
  }
  return set;
}

function readPrompt(path: string, name: PromptName, what: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `${what}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
  const allowed: readonly string[] = PROMPTS[name];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    for (const match of lines[i]!.matchAll(PLACEHOLDER)) {
      if (!allowed.includes(match[1]!))
        throw new UsageError(
          `${what}: ${path} line ${i + 1}: unknown placeholder {${match[1]!}} (${name}.md can use ${allowed.map((p) => `{${p}}`).join(', ')})`,
        );
    }
  }
  if (!text.trim()) throw new UsageError(`${what}: ${path} is empty`);
  return text;
}

/** The template with each `{name}` replaced by its value; every placeholder was checked at load. */
export function fillPrompt(template: string, values: PromptValues): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole).trim();
}

/**
 * The package's prompts/ directory, beside src/ in the repository and beside dist/ in a build (this module is
 * src/sandbox/ there, dist/ or dist/chunks/ here): resolved from this module's own location.
 */
export function shippedPromptsDir(): string {
  for (const candidate of ['../prompts/outline.md', '../../prompts/outline.md']) {
    try {
      return dirname(requireFrom(import.meta.url).resolve(candidate));
    } catch {
      // Not at this depth.
    }
  }
  throw new UsageError("blogctl's shipped prompts/ directory is missing: reinstall blogctl");
}
