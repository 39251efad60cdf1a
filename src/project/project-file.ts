// The project file, `blogctl.yml`, at the root of a content folder: which site it publishes to, its
// namespace (what makes its posts its own on a site shared with other projects), where its sources are,
// and defaults for post fields. Found by walking up from a source (or from where blogctl runs, for
// `wp publish` with no paths), as git finds `.git`. Every key is checked; an unknown one is an error naming
// it and its line. See docs/sync.md.
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import * as z from 'zod/mini';
import { UsageError } from '../errors.js';
import { fieldIssues } from '../schemas/validate.js';
import { decodeUtf8 } from '../lib/utf8.js';
import { readYaml, YamlTextError, type YamlText } from '../lib/yaml-text.js';
import { checkSeo } from '../wordpress/seo.js';
import { findGitRoot, repositoryName } from './git-root.js';
import { displayPath } from './display-path.js';
import { distrust, sayDiscovery } from './trust.js';

export const PROJECT_FILE = 'blogctl.yml';

/** A namespace: lower-case letters, digits, `.`, `_`, `-` and `/` (`team/blog`), at most 100 characters. */
export const NAMESPACE_RE = /^[a-z0-9](?:[a-z0-9._/-]{0,98}[a-z0-9])?$/;

const STATUSES = ['publish', 'draft', 'pending', 'private', 'future'] as const;
const OPEN_CLOSED = ['open', 'closed'] as const;
const terms = z.union([z.string(), z.array(z.union([z.string(), z.number()]))]);

/** Post fields a project may give every source (front matter and flags win over them). */
const defaultsSchema = z.strictObject({
  status: z.optional(z.enum(STATUSES)),
  categories: z.optional(terms),
  tags: z.optional(terms),
  author: z.optional(z.number()),
  comment_status: z.optional(z.enum(OPEN_CLOSED)),
  ping_status: z.optional(z.enum(OPEN_CLOSED)),
  format: z.optional(z.string()),
  template: z.optional(z.string()),
  sticky: z.optional(z.boolean()),
  /** SEO fields every post gets unless its front matter sets them (checked by checkSeo). */
  seo: z.optional(z.record(z.string(), z.unknown())),
  /** How Markdown bodies are sent when their front matter does not say: `classic` HTML or `blocks`. */
  editor: z.optional(z.enum(['classic', 'blocks'])),
  /** Run option rather than a post field: create unknown categories and tags. */
  create_terms: z.optional(z.boolean()),
});

const projectSchema = z.strictObject({
  site: z.optional(z.union([z.string(), z.strictObject({ url: z.string(), username: z.string() })])),
  namespace: z
    .string()
    .check(
      z.regex(NAMESPACE_RE, 'lower-case letters, digits, ".", "_", "-" and "/", at most 100 characters'),
    ),
  // A folder or file, or one with the post type its Markdown files are (`{path: pages, type: page}`).
  sources: z.optional(
    z.array(
      z.union([
        z.string(),
        z.strictObject({
          path: z.string(),
          type: z
            .string()
            .check(z.regex(/^[a-z0-9_-]{1,20}$/, 'a post type: lower-case letters, digits, _ and -')),
        }),
      ]),
    ),
  ),
  /** Globs of files and folders the sources' folders hold that are no posts (excludes.ts). */
  exclude: z.optional(
    z
      .array(z.string().check(z.minLength(1), z.maxLength(200)))
      .check(z.maxLength(100, 'at most 100 patterns')),
  ),
  defaults: z.optional(defaultsSchema),
});

export type ProjectDefaults = z.infer<typeof defaultsSchema>;

export interface Project {
  /** The folder holding the project file (absolute): sources' keys are their paths relative to it. */
  root: string;
  /** The project file's path. */
  file: string;
  /** A site profile's id, or a URL and username (the password then from stdin, the environment or a profile). */
  site?: string | { url: string; username: string };
  namespace: string;
  /** Absolute paths of the source files and folders (default: the root). */
  sources: string[];
  /**
   * The post type of the sources given with one (`sources: [{path: pages, type: page}]`): a file under
   * `path` (absolute) whose front matter names no type is of `type`; `at` names the line.
   */
  sourceTypes?: { path: string; type: string; at: string }[];
  /** `exclude:` as written: globs left out of the sources' folders, with excludes.ts's defaults. */
  exclude: string[];
  defaults: ProjectDefaults;
  /** The line of each default (`defaults.status` → 4), for messages about a value it gave. */
  lines?: Record<string, number>;
}

/**
 * The project file at or above `dir` (absolute), or undefined. The walk stops at a folder this user does not
 * control (trust.ts), and a project file there or above it is said to be skipped.
 */
export function findProjectFile(dir: string): string | undefined {
  let at = resolve(dir);
  for (;;) {
    let folder;
    try {
      folder = statSync(at);
    } catch {
      folder = undefined;
    }
    const why = folder && distrust(at, folder);
    if (why) {
      const skipped = projectFileAtOrAbove(at);
      if (skipped) sayDiscovery(`${displayPath(skipped)} not used: ${displayPath(at)}: ${why} ${SAFE_HINT}`);
      return undefined;
    }
    const file = join(at, PROJECT_FILE);
    let info;
    try {
      info = statSync(file);
    } catch {
      info = undefined;
    }
    if (info?.isFile()) {
      const fileWhy = distrust(file, info);
      if (!fileWhy) return file;
      sayDiscovery(`${displayPath(file)} not used: ${fileWhy} ${SAFE_HINT}`);
      return undefined;
    }
    const up = dirname(at);
    if (up === at) return undefined;
    at = up;
  }
}

const SAFE_HINT =
  "(a project file there could be anyone's; BLOGCTL_SAFE_DIRECTORIES=<folder> trusts a folder you know)";

/** The first project file at or above `dir`, trusted or not: what a stopped walk would have found. */
function projectFileAtOrAbove(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    try {
      if (statSync(join(at, PROJECT_FILE)).isFile()) return join(at, PROJECT_FILE);
    } catch {
      // Not here: one folder up.
    }
    if (dirname(at) === at) return undefined;
  }
}

/** The project a path (a file or a folder) belongs to, or undefined. */
export function findProject(path: string): Project | undefined {
  let dir = resolve(path);
  try {
    if (!statSync(dir).isDirectory()) dir = dirname(dir);
  } catch {
    dir = dirname(dir);
  }
  const file = findProjectFile(dir);
  return file === undefined ? undefined : loadProject(file);
}

const cache = new Map<string, Project>();

/** Reads and checks a project file: a UsageError (exit 2) names the file, the key and its line. */
export function loadProject(file: string): Project {
  const cached = cache.get(file);
  if (cached) return cached;
  // Messages name it from the working folder, as the files given on the command line are.
  const shown = displayPath(file);
  let text: string;
  try {
    text = decodeUtf8(readFileSync(file), shown)
      .replace(/^\uFEFF/, '')
      .replace(/\r\n?/g, '\n');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${shown}: ${(error as Error).message}`);
  }
  const yaml = parseYaml(text, shown);
  const lineOf = (path: readonly PropertyKey[]): number | undefined =>
    yaml.lineOf(path.map((step) => (typeof step === 'number' ? step : String(step))));
  const result = projectSchema.safeParse(yaml.data, { reportInput: true });
  if (!result.success) {
    const problems = result.error.issues.flatMap((issue) => {
      const path = issue.path.map(String);
      if (issue.code === 'unrecognized_keys')
        return issue.keys.map((key) => {
          const at = lineOf([...issue.path, key]);
          return `${shown}${at ? `:${at}` : ''}: unknown key "${[...path, key].join('.')}"`;
        });
      const [described] = fieldIssues({ issues: [issue] });
      const at = lineOf(issue.path);
      return [`${shown}${at ? `:${at}` : ''}: ${described!.path}: ${described!.message}`];
    });
    throw new UsageError(problems[0]!, problems.length > 1 ? { details: problems.slice(1) } : {});
  }
  const value = result.data;
  const root = dirname(file);
  const lines: Record<string, number> = {};
  for (const key of Object.keys(value.defaults ?? {})) {
    const at = lineOf(['defaults', key]);
    if (at !== undefined) lines[`defaults.${key}`] = at;
  }
  if (value.defaults?.seo) {
    for (const key of Object.keys(value.defaults.seo)) {
      const at = lineOf(['defaults', 'seo', key]);
      if (at !== undefined) lines[`defaults.seo.${key}`] = at;
    }
    value.defaults.seo = checkSeo(value.defaults.seo, (field, problem) => {
      const at = lines[`defaults.seo.${field}`] ?? lines['defaults.seo'];
      throw new UsageError(`${shown}${at ? `:${at}` : ''}: defaults.seo.${field}: ${problem}`);
    }) as Record<string, unknown>;
  }
  const project: Project = {
    root,
    file,
    ...(value.site !== undefined && { site: value.site }),
    namespace: value.namespace,
    sources: (value.sources?.length ? value.sources : ['.']).map((s) =>
      resolve(root, typeof s === 'string' ? s : s.path),
    ),
    ...(value.sources?.some((s) => typeof s !== 'string') && {
      sourceTypes: value.sources.flatMap((s, i) => {
        if (typeof s === 'string') return [];
        const at = lineOf(['sources', i, 'type']);
        return [
          {
            path: resolve(root, s.path),
            type: s.type,
            at: `${shown}${at ? `:${at}` : ''}: sources[${i}].type`,
          },
        ];
      }),
    }),
    exclude: value.exclude ?? [],
    defaults: value.defaults ?? {},
    lines,
  };
  cache.set(file, project);
  return project;
}

/** One YAML mapping, read as front matter is (lib/yaml-text.ts: bounded, no custom tags). */
function parseYaml(text: string, file: string): YamlText {
  if (/^(?:---|\.\.\.)\s*$/m.test(text))
    throw new UsageError(`${file}: give one YAML document (without "---" or "..." lines)`);
  let yaml: YamlText;
  try {
    yaml = readYaml(text);
  } catch (error) {
    if (error instanceof YamlTextError) throw new UsageError(`${file}:${error.line}: ${error.reason}`);
    throw error;
  }
  const data = yaml.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new UsageError(`${file}: expected a mapping of keys to values`);
  return yaml;
}

/** A name made into a namespace: lower case, anything else than letters, digits, `._/-` as `-`. */
export function toNamespace(name: string): string {
  const ns = name
    .toLowerCase()
    .replace(/[^a-z0-9._/-]+/g, '-')
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '')
    .slice(0, 100)
    .replace(/[^a-z0-9]+$/, '');
  return ns || 'blog';
}

/** The namespace a folder gets by default: its git repository's name (from `origin`), else the folder's. */
export function derivedNamespace(dir: string): string {
  const git = findGitRoot(dir);
  return toNamespace(git ? repositoryName(git) : basename(resolve(dir)));
}
