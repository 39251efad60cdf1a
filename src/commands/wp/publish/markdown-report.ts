// A publish's plan (or its results) as Markdown, for a pull-request comment or a CI job summary: one table
// per action, each row linking the post, naming the fields that change; errors first. Any action renders
// the same way, and any other field a row carries (where a post moves from, what an editor changed) goes in
// its Changes column as `name: value`, so new kinds of row need nothing here.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { BlogctlError, WriteFailedError } from '../../../errors.js';
import { repoRoot } from '../../../lib/repo-root.js';
import { appendNoFollow, refuseLinkAt } from '../../../lib/write-inside.js';
import { redact } from '../../../output/redact.js';

/** What a row of the Markdown needs: a plan row or a result row; other fields are shown as they are. */
export interface ReportRow {
  source: string;
  action: string;
  id?: string | null;
  link?: string | null;
  status?: string | null;
  fields?: string[];
  error?: string;
}

/**
 * GitHub refuses a comment over 65,536 characters; the workflow adds a line of its own to find its comment
 * again, so the Markdown keeps well under.
 */
export const COMMENT_LIMIT = 60_000;
/** A group with more rows than this is folded (`<details>`), as is the unchanged group always. */
const FOLD_ROWS = 10;

/** Fields of a row that have a column of their own, or say nothing to a reviewer. */
const SHOWN_ELSEWHERE = new Set([
  'source',
  'action',
  'id',
  'link',
  'status',
  'fields',
  'error',
  'exitCode',
  'post',
  'published',
  'type',
]);

/** How a row's other fields are named for a reviewer (any other by its own name). */
const LABELS: Record<string, string> = { edited: 'edited on site', from: 'moved from' };

/** Errors first, then what changes the site, then what is left; an action not listed here comes before those left. */
const ORDER = ['failed', 'error', 'conflict', 'create', 'created', 'update', 'updated', 'move', 'moved'];
const LAST = ['changed', 'trashed', 'unchanged', 'excluded'];
const rank = (action: string): number => {
  const at = ORDER.indexOf(action);
  if (at >= 0) return at;
  const last = LAST.indexOf(action);
  return last >= 0 ? 100 + last : 50;
};

export interface MarkdownOptions {
  /** A dry run's plan, or what a run did. */
  dryRun: boolean;
  /** The site, as a person knows it (profile or URL). */
  site?: string;
  /** Errors that stopped the run before any row (input errors, a refused look-up), one per line. */
  errors?: string[];
  /** Where a source links to (the file in the repository on GitHub); undefined: not linked. */
  sourceLink?: (source: string) => string | undefined;
  /** At most this many characters (default COMMENT_LIMIT). */
  limit?: number;
}

/** Text for a table cell: one line, pipes escaped, HTML and Markdown's own characters made plain. */
function cell(text: string): string {
  return text
    .replace(/\r?\n|\r/g, ' ')
    .replace(/[\\`*_[\]<>|]/g, (c) => `\\${c}`)
    .trim();
}

/** A URL inside `(...)`: only http(s), with spaces and parentheses encoded. */
function linkTarget(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  return url.replace(/[ ()<>]/g, (c) => encodeURIComponent(c));
}

function showValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(showValue).join(', ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function rowCells(row: ReportRow, options: MarkdownOptions): string[] {
  const target = options.sourceLink?.(row.source);
  const source = target ? `[${cell(row.source)}](${linkTarget(target) ?? ''})` : cell(row.source);
  const url = row.link ? linkTarget(row.link) : undefined;
  const post = row.id ? (url ? `[${cell(row.id)}](${url})` : cell(row.id)) : url ? `[link](${url})` : '';
  const changes: string[] = [];
  if (row.error) changes.push(`**error:** ${cell(row.error)}`);
  if (row.fields?.length) changes.push(cell(row.fields.join(', ')));
  for (const [name, value] of Object.entries(row as object) as [string, unknown][]) {
    if (SHOWN_ELSEWHERE.has(name) || value === undefined || value === null) continue;
    if (Array.isArray(value) && !value.length) continue;
    changes.push(`${cell(LABELS[name] ?? name)}: ${cell(showValue(value))}`);
  }
  return [source, post, cell(row.status ?? ''), changes.join('; ')];
}

const HEADER = '| Source | Post | Status | Changes |\n|---|---|---|---|';

interface Group {
  action: string;
  rows: ReportRow[];
}

function groupsOf(rows: ReportRow[]): Group[] {
  const groups = new Map<string, ReportRow[]>();
  for (const row of rows) {
    const list = groups.get(row.action) ?? [];
    list.push(row);
    groups.set(row.action, list);
  }
  return [...groups]
    .map(([action, list]) => ({ action, rows: list }))
    .sort((a, b) => rank(a.action) - rank(b.action));
}

/** The heading line: what the run would do (or did), in counts. */
function headline(groups: Group[], options: MarkdownOptions): string {
  const what = options.dryRun ? 'plan' : 'publish';
  const site = options.site ? ` for ${cell(options.site)}` : '';
  const counts = groups.map((g) => `${g.rows.length} ${g.action}`).join(', ');
  const errors = options.errors?.length
    ? `${options.errors.length} error${options.errors.length === 1 ? '' : 's'}`
    : '';
  return `### blogctl ${what}${site}: ${[errors, counts].filter(Boolean).join(', ') || 'nothing to publish'}`;
}

/**
 * The Markdown. Groups over FOLD_ROWS rows, and the unchanged posts, are folded; past the limit the rows
 * that do not fit are left out, largest groups first, with a line saying how many (the log and `--json`
 * have them all).
 */
export function renderMarkdown(rows: ReportRow[], options: MarkdownOptions): string {
  const limit = options.limit ?? COMMENT_LIMIT;
  const groups = groupsOf(rows);
  const head: string[] = [headline(groups, options), ''];
  if (options.errors?.length) {
    head.push('#### Errors', '');
    for (const e of options.errors) head.push(`- ${cell(e)}`);
    head.push('');
  }
  const rendered = groups.map((g) => ({
    group: g,
    lines: g.rows.map((r) => `| ${rowCells(r, options).join(' | ')} |`),
  }));
  const section = (g: Group, lines: string[], total: number): string => {
    const left = total - lines.length;
    const table = [
      HEADER,
      ...lines,
      ...(left > 0 ? [`\n…and ${left} more not shown (see the job's log)`] : []),
    ].join('\n');
    const title = `${g.action} (${total})`;
    return g.action === 'unchanged' || g.action === 'excluded' || total > FOLD_ROWS
      ? `<details><summary>${cell(title)}</summary>\n\n${table}\n\n</details>\n`
      : `#### ${cell(title)}\n\n${table}\n`;
  };
  const build = (kept: number[]): string =>
    [...head, ...rendered.map((r, i) => section(r.group, r.lines.slice(0, kept[i]), r.lines.length))].join(
      '\n',
    );
  const kept = rendered.map((r) => r.lines.length);
  let text = build(kept);
  // Over the limit: shorten the longest table a row at a time by a share of what is too much.
  while (text.length > limit) {
    const longest = kept.indexOf(Math.max(...kept));
    if (kept[longest]! === 0) break;
    const over = text.length - limit;
    const perRow = Math.max(
      1,
      Math.ceil(rendered[longest]!.lines.slice(0, kept[longest]).join('\n').length / kept[longest]!),
    );
    kept[longest] = Math.max(0, kept[longest]! - Math.max(1, Math.ceil(over / perRow)));
    text = build(kept);
  }
  if (text.length > limit) text = `${text.slice(0, limit - 40)}\n\n…(cut short)\n`;
  return text;
}

/**
 * Where a source links to on GitHub: the file at the commit being checked, when the run is a GitHub
 * Actions job (GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_SHA) and the file is inside the repository.
 */
export function githubSourceLink(
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): ((source: string) => string | undefined) | undefined {
  const server = env['GITHUB_SERVER_URL'];
  const repo = env['GITHUB_REPOSITORY'];
  const sha = env['GITHUB_SHA'];
  if (!server || !repo || !sha) return undefined;
  const root = repoRoot(cwd);
  if (!root) return undefined;
  return (source) => {
    const path = relative(root, resolve(cwd, source));
    if (!path || path.startsWith('..') || !/\.(md|markdown|html?)$/i.test(path)) return undefined;
    const encoded = path.split(/[\\/]/).map(encodeURIComponent).join('/');
    return `${server.replace(/\/+$/, '')}/${repo}/blob/${sha}/${encoded}`;
  };
}

/** An absolute source path inside the folder blogctl runs in, as a path from it (what a reviewer reads). */
function shortPath(source: string, cwd = process.cwd()): string {
  if (!isAbsolute(source)) return source;
  const rel = relative(cwd, source);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : source;
}

/** `--markdown` (the Markdown on stdout instead of the table) and `--summary <file>` (appended to it). */
export interface MarkdownRequest {
  markdown: boolean;
  summary?: string;
}

/**
 * The Markdown of one run, written once: with the rows when the run got that far, else with the error that
 * stopped it (so a pull request's comment shows why the plan failed). Secrets are redacted as everywhere.
 */
export class MarkdownReport {
  private written = false;

  constructor(
    private readonly request: MarkdownRequest,
    private readonly io: { out(text: string): void },
    private readonly options: Omit<MarkdownOptions, 'errors'>,
  ) {
    // Before anything is sent: the summary is never appended through a link (it would land where it points).
    if (request.summary !== undefined) refuseLinkAt(request.summary, '--summary');
  }

  /** The rows printed (--markdown) or appended (--summary); errors those rows carry are in them. */
  async rows(rows: ReportRow[], site?: string): Promise<void> {
    const shown = rows.map((r) => ({ ...r, source: shortPath(r.source) }));
    await this.write(renderMarkdown(shown, { ...this.options, ...(site !== undefined && { site }) }));
  }

  /** The run failed before its rows: the error (and each problem it lists) as the Markdown. */
  async fail(error: unknown): Promise<void> {
    if (this.written) return;
    const errors =
      error instanceof BlogctlError
        ? (error.context.inputs ?? (error.context.details?.length ? error.context.details : [error.message]))
        : [
            `unexpected error: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`,
          ];
    const cwd = `${process.cwd()}${sep}`;
    const shown = errors.map((e) => (e.startsWith(cwd) ? e.slice(cwd.length).split(sep).join('/') : e));
    await this.write(renderMarkdown([], { ...this.options, errors: shown }));
  }

  private async write(text: string): Promise<void> {
    this.written = true;
    const safe = redact(text);
    if (this.request.markdown) this.io.out(safe.trimEnd());
    if (this.request.summary !== undefined) {
      try {
        await appendNoFollow(this.request.summary, `${safe.trimEnd()}\n\n`);
      } catch (error) {
        if (error instanceof BlogctlError) throw error;
        throw new WriteFailedError(
          `--summary: cannot append to ${this.request.summary}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
    }
  }
}
