// GitHub Actions annotations: with GITHUB_ACTIONS=true an input error is also printed as a workflow command,
// `::error file=posts/x.md,line=3::…`, so the pull request shows it on the file's line. Written to stderr
// (the runner reads workflow commands from both streams; stdout stays data). The file is given relative to
// the root of the git work tree, as GitHub expects; its line is the one the message names, else the line of
// the front matter field it names. The caller redacts the text like any other output.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { repoRoot } from '../lib/repo-root.js';

/** A workflow command's message: `%`, CR and LF escaped, as the runner decodes them. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value: as data, and `:` and `,` too (they end a property). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export interface Annotation {
  /** Relative to the repository root, with `/`. */
  file?: string;
  line?: number;
  message: string;
}

export function formatAnnotation(a: Annotation): string {
  const props = [
    ...(a.file !== undefined ? [`file=${escapeProperty(a.file)}`] : []),
    ...(a.line !== undefined ? [`line=${a.line}`] : []),
    'title=blogctl',
  ];
  return `::error ${props.join(',')}::${escapeData(a.message)}`;
}

const isFile = (path: string): boolean => {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The file a message is about: the longest `…: ` prefix that names a file (messages lead with the file, and
 * a batch's lines with the source as well).
 */
function fileOf(line: string, cwd: string): { path: string; line?: number; rest: string } | undefined {
  let best: { path: string; line?: number; rest: string } | undefined;
  for (let at = line.indexOf(': '); at > 0; at = line.indexOf(': ', at + 1)) {
    const candidate = line.slice(0, at).trim();
    if (candidate.length > 4096) break;
    const rest = line.slice(at + 2);
    // `blogctl.yml:3: …`: the file, then its line.
    const numbered = /^(.*):(\d+)$/.exec(candidate);
    if (numbered && isFile(resolve(cwd, numbered[1]!)))
      best = { path: numbered[1]!, line: Number(numbered[2]), rest };
    else if (isFile(resolve(cwd, candidate))) best = { path: candidate, rest };
  }
  return best;
}

/** The line a message names (`at line 4`), else the line of the front matter field it names. */
function lineOf(message: string, path: string): number | undefined {
  const stated = /\bat line (\d+)\b|\bline (\d+)\b/.exec(message);
  if (stated) return Number(stated[1] ?? stated[2]);
  const field = /front matter "([^"]+)"/.exec(message)?.[1];
  if (field === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (!/^---/.test(lines[0] ?? '')) return undefined;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^(---|\.\.\.)\s*$/.test(l)) return undefined;
    const name = /^["']?([^"':\s]+)["']?\s*:/.exec(l)?.[1];
    if (name === field) return i + 1;
  }
  return undefined;
}

/** The annotations for an error's lines (each problem it lists, else its message). */
export function annotationsFor(lines: string[], cwd = process.cwd()): Annotation[] {
  const root = repoRoot(cwd);
  return lines.map((line) => {
    const found = fileOf(line, cwd);
    if (!found) return { message: line };
    const absolute = resolve(cwd, found.path);
    const fromRoot = root ? relative(root, absolute) : undefined;
    const file =
      fromRoot !== undefined && !fromRoot.startsWith('..')
        ? fromRoot.split(sep).join('/')
        : found.path.split(sep).join('/');
    const at = found.line ?? lineOf(found.rest, absolute);
    return { file, ...(at !== undefined && { line: at }), message: line };
  });
}
