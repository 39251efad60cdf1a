// Links between sources: `[see also](other.md)`, `[part](../x.md#part)`, a reference-style link whose
// definition names a source file, in a Markdown body. Each becomes the permalink of the target's post (`link`
// as WordPress answers it), its `#fragment` kept. Rules that must stay true:
//
// - The Markdown is read through marked's tokens (walkTokens over `link` tokens, before they are rendered),
//   never with regexes, and raw HTML in it (`<a href="other.md">`) by reading its tags' attributes: the href
//   is replaced by a token naming the target (`blogctl-link:<16 hex>`), which
//   the run replaces with the target's permalink before the content's sum is taken (sync/link-plan.ts). The
//   sum covers the permalink: a target whose permalink changes (a new slug) changes the posts linking to it,
//   and a run with nothing new sends nothing.
// - Only a relative path to a Markdown or HTML file (`.md`, `.markdown`, `.html`, `.htm`) is a link to a
//   source. A URL with a scheme (`https:`, `mailto:`), protocol-relative (`//…`), a path from the site's root
//   (`/about/`), a fragment alone (`#part`) and links to any other file are left as written.
// - The target must be a source of the run, or of the project the run belongs to (its `sources:`); anything
//   else is an input error at the link's file and line (exit 2, before anything is sent; --dry-run too).
import { realpathSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { extname, resolve } from 'node:path';
import type { Marked, Token, Tokens } from 'marked';
import type { SourceKey } from '../source-key.js';
import type { PublishJob } from './publish-job.js';
import { LINK_TOKEN_PREFIX, linksIn, type SourceLink } from './content-tokens.js';

const SOURCE_EXTENSIONS = new Set(['.md', '.markdown', '.html', '.htm']);

/** A link once its target is found: a source of the run, or (not in it) a source of the run's project. */
export interface JobLink extends SourceLink {
  to: { job: PublishJob } | { source: SourceKey };
}

/**
 * A job's links to other sources: its content as read (each link a token), the links its file holds, and,
 * once the run's sources are all read (linkJobsToSources), where each goes.
 */
export interface JobLinks {
  template: string;
  read: SourceLink[];
  links: JobLink[];
  /** Set by the plan (sync/link-plan.ts): the run's sources whose permalinks are known once they are sent. */
  waits?: PublishJob[];
  /** Set by the plan: the permalinks the site has, by link id, for the targets the run leaves as they are. */
  known?: Record<string, string>;
}

/** What to write for a link `href` at a file line; undefined: leave it as written. */
export type ResolveLink = (href: string, line: number) => string | undefined;

/** Whether an href names a Markdown or HTML file beside the source (a relative path), and which. */
function sourceLinkPath(href: string): { path: string; fragment: string } | undefined {
  const s = href.trim();
  if (!s || s.startsWith('#') || s.startsWith('/') || s.startsWith('\\')) return undefined;
  // A scheme (`https:`, `mailto:`) or a Windows drive is never a path beside the source.
  if (/^[a-z][a-z0-9+.-]*:/i.test(s)) return undefined;
  const hash = s.indexOf('#');
  const fragment = hash < 0 ? '' : s.slice(hash);
  const beforeHash = hash < 0 ? s : s.slice(0, hash);
  const query = beforeHash.indexOf('?');
  let path = query < 0 ? beforeHash : beforeHash.slice(0, query);
  try {
    path = decodeURIComponent(path);
  } catch {
    // Not percent-encoding: the name as written.
  }
  if (!SOURCE_EXTENSIONS.has(extname(path).toLowerCase())) return undefined;
  return { path, fragment };
}

/** One source's links to other sources' files, gathered as its body is read. */
export class SourceLinks {
  readonly links: SourceLink[] = [];

  constructor(
    /** The source as messages name it (`posts/a.md`). */
    private readonly label: string,
    /** The source's folder. */
    private readonly baseDir: string,
  ) {}

  /** The token (and the fragment) to write in place of a link to a source file; undefined for other links. */
  readonly resolve: ResolveLink = (href, line) => {
    const local = sourceLinkPath(href);
    if (!local) return undefined;
    const target = realOrSame(resolve(this.baseDir, local.path));
    const id = createHash('sha256').update(target).digest('hex').slice(0, 16);
    this.links.push({ id, target, at: `${this.label}:${line}`, href: href.trim() });
    return `${LINK_TOKEN_PREFIX}${id}${local.fragment}`;
  };
}

/**
 * Each job's links to source files tied to their targets: a source of the run (by its real path), else a
 * source of the project (`projectFiles`, its post files), named by the key its file gives its post
 * (`identityOf`). Returns the problems: a link to a file that is neither, at the link's file and line.
 */
export async function linkJobsToSources(
  jobs: PublishJob[],
  /** Every file of the run, those that failed their checks too (their own errors are reported). */
  runFiles: string[],
  projectFiles: () => string[] | undefined,
  identityOf: (path: string) => Promise<SourceKey | undefined>,
): Promise<string[]> {
  const inRun = new Map<string, PublishJob>();
  for (const job of jobs) inRun.set(realOrSame(resolve(job.name)), job);
  const failed = new Set(runFiles.map((f) => realOrSame(resolve(f))));
  let project: Set<string> | undefined;
  let listed: string[] | undefined;
  const outside = new Map<string, SourceKey | undefined>();
  const problems: string[] = [];
  for (const job of jobs) {
    if (!job.links) continue;
    const links: JobLink[] = [];
    for (const link of linksIn(job.links.template, job.links.read)) {
      const mate = inRun.get(link.target);
      if (mate) {
        links.push({ ...link, to: { job: mate } });
        continue;
      }
      if (failed.has(link.target)) continue;
      if (!project) {
        listed = projectFiles();
        project = new Set((listed ?? []).map((f) => realOrSame(resolve(f))));
      }
      if (!project.has(link.target)) {
        problems.push(
          `${link.at}: the link to ${link.href} names no source of this ${listed ? 'project' : 'run'}: link to a source (publish it with this one) or to a URL`,
        );
        continue;
      }
      if (!outside.has(link.target)) outside.set(link.target, await identityOf(link.target));
      const source = outside.get(link.target);
      if (source === undefined) {
        problems.push(`${link.at}: the link to ${link.href}: that source cannot be read`);
        continue;
      }
      links.push({ ...link, to: { source } });
    }
    if (links.length) job.links.links = links;
    else delete job.links;
  }
  return problems;
}

/**
 * A Markdown body's links to source files, in its tokens: each `link` token's href replaced by what
 * `resolveLink` gives. `firstLine` is the file line of the body's first character. Runs before the tokens
 * are rendered (classic HTML and blocks alike read the tokens).
 */
export function rewriteMarkdownLinks(
  marked: Marked,
  tokens: Token[],
  firstLine: number,
  resolveLink: ResolveLink,
): void {
  let line = firstLine;
  for (const top of tokens) {
    const raw = top.raw ?? '';
    // Where the last link of this token was found, and that place's line.
    let cursor = 0;
    let cursorLine = line;
    let lost = false;
    // The line of a link in this token: where its raw text is found next, from the last one on. Not found (a
    // link across lines of a quote, whose `>` the inner tokens leave out), the last line known, and no later
    // link of the token is searched for: each character is read a bounded number of times.
    const lineOf = (inner: string): number => {
      const at = lost || !inner ? -1 : raw.indexOf(inner, cursor);
      if (at < 0) {
        lost = true;
        return cursorLine;
      }
      const found = lineAt(raw, cursor, at, cursorLine);
      cursor = at + inner.length;
      cursorLine = lineAt(raw, at, cursor, found);
      return found;
    };
    marked.walkTokens([top], (token) => {
      if (token.type === 'link') {
        const link = token as Tokens.Link;
        const replaced = resolveLink(link.href, lineOf(link.raw));
        if (replaced !== undefined) link.href = replaced;
      } else if (token.type === 'html') {
        // Raw HTML (a block, or a tag in a paragraph): each `<a href>` value, the rest as written.
        const html = token as Tokens.HTML | Tokens.Tag;
        if (/<a\s/i.test(html.text)) html.text = rewriteHtmlLinks(html.text, lineOf(html.raw), resolveLink);
      }
    });
    line = lineAt(raw, 0, raw.length, line);
  }
}

/**
 * An HTML text's links to source files (`<a href="other.md">`: an HTML source, a `body: html` body), each
 * `href` value replaced by what `resolveLink` gives; `firstLine` is the file line of its first character.
 */
export function rewriteHtmlLinks(html: string, firstLine: number, resolveLink: ResolveLink): string {
  if (!/<a\s/i.test(html)) return html;
  let from = 0;
  let fromLine = firstLine;
  return rewriteAnchors(html, (href, at) => {
    fromLine = lineAt(html, from, at, fromLine);
    from = at;
    return resolveLink(href, fromLine);
  });
}

/**
 * `html` with the `href` value of each `<a …>` tag replaced by what `replace` gives (given the value and
 * where it starts), else left. One pass over the text: a tag's attributes are read as HTML reads them (a
 * quoted value runs to its closing quote, a bare one to a space or `>`).
 */
function rewriteAnchors(html: string, replace: (href: string, at: number) => string | undefined): string {
  const out: string[] = [];
  let copied = 0;
  let i = 0;
  const space = (c: string | undefined): boolean =>
    c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open < 0) break;
    i = open + 1;
    if ((html[i] !== 'a' && html[i] !== 'A') || !space(html[i + 1])) continue;
    i += 1;
    while (i < html.length && html[i] !== '>') {
      while (space(html[i]) || html[i] === '/') i++;
      const nameStart = i;
      while (i < html.length && !space(html[i]) && html[i] !== '=' && html[i] !== '>' && html[i] !== '/') i++;
      const name = html.slice(nameStart, i).toLowerCase();
      while (space(html[i])) i++;
      if (html[i] !== '=') {
        if (i === nameStart && html[i] !== '>') i++;
        continue;
      }
      i++;
      while (space(html[i])) i++;
      let start = i;
      let end: number;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        start = i + 1;
        const close = html.indexOf(quote, start);
        end = close < 0 ? html.length : close;
        i = close < 0 ? html.length : close + 1;
      } else {
        while (i < html.length && !space(html[i]) && html[i] !== '>') i++;
        end = i;
      }
      if (name !== 'href') continue;
      const replaced = replace(html.slice(start, end), start);
      if (replaced === undefined) continue;
      out.push(html.slice(copied, start), replaced);
      copied = end;
    }
  }
  out.push(html.slice(copied));
  return out.join('');
}

/** `first` + the line breaks of `text` between `from` and `end`. */
function lineAt(text: string, from: number, end: number, first: number): number {
  let line = first;
  for (let i = text.indexOf('\n', from); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
