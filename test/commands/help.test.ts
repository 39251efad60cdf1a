// Help that teaches: every command, found by walking `--help` from the root down (the command tree
// in-process), has a one-line description and runnable examples; the built CLI prints the same pages from
// dist/help.json; the help topics list every environment variable the sources read and every exit code; every
// flag README.md mentions exists.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HelpTree } from '../../src/cli.js';
import { printHelp } from '../../src/help-entry.js';
import { runCli } from '../helpers/cli.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

const ROOT = resolve(import.meta.dirname, '../..');

interface HelpPage {
  path: string[];
  text: string;
  description: string;
  /** Option spellings, e.g. ['-f', '--file'], and whether each takes a value. */
  options: Map<string, boolean>;
  subcommands: string[];
  examples: string[];
}

/** A section of commander's help: the lines after `<title>:` up to the next blank line. */
function section(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === `${title}:`);
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.trim() === '');
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

function parseHelp(path: string[], text: string): HelpPage {
  const lines = text.split('\n');
  // Usage line, a blank line, then the description paragraph (commander wraps it at 80 columns).
  const paragraph: string[] = [];
  if (lines[0]?.startsWith('Usage:') && lines[1] === '') {
    for (const line of lines.slice(2)) {
      if (line.trim() === '' || /^[A-Z][\w ]*:$/.test(line)) break;
      paragraph.push(line.trim());
    }
  }
  const options = new Map<string, boolean>();
  // Every group of flags: "Options:" and any other heading ("Post flags (…):"), inherited ones too.
  const flagSections = lines.filter(
    (l) => /^[A-Z][^:]*:$/.test(l) && !['Arguments:', 'Commands:', 'Examples:', 'JSON fields:'].includes(l),
  );
  for (const line of flagSections.flatMap((title) => section(text, title.slice(0, -1)))) {
    const m = /^ {2}(?:(-\w), )?(--?[\w-]+)( [<[])?/.exec(line);
    if (!m) continue;
    for (const name of [m[1], m[2]]) if (name) options.set(name, Boolean(m[3]));
  }
  const subcommands = section(text, 'Commands')
    .map((l) => /^ {2}([\w-]+(?:\|[\w-]+)*)/.exec(l)?.[1])
    .filter((n): n is string => Boolean(n))
    .map((n) => n.split('|')[0]!)
    // Commander's implicit `help [command]` of a group says what --help says; the root's `help` is ours.
    .filter((n) => !(n === 'help' && path.length > 0));
  // An example too wide for the page goes on over lines ending in ` \`: joined again, as the shell would.
  const examples: string[] = [];
  let continues = false;
  for (const line of section(text, 'Examples')) {
    const start = /^\s+\$ (.*)$/.exec(line)?.[1];
    if (start !== undefined && !continues) examples.push(start);
    else if (continues) examples[examples.length - 1] += ` ${line.trim()}`;
    continues = / \\$/.test(line);
    if (continues) examples[examples.length - 1] = examples[examples.length - 1]!.replace(/ \\$/, '');
  }
  return { path, text, description: paragraph.join(' '), options, subcommands, examples };
}

const pages: HelpPage[] = [];

beforeAll(async () => {
  const visit = async (path: string[]): Promise<void> => {
    const result = await runInProcess([...path, '--help']);
    expect(result.code, `blogctl ${path.join(' ')} --help: ${result.stderr}`).toBe(0);
    const page = parseHelp(path, result.stdout);
    pages.push(page);
    await Promise.all(page.subcommands.map((sub) => visit([...path, sub])));
  };
  await visit([]);
  pages.sort((a, b) => a.path.join(' ').localeCompare(b.path.join(' ')));
}, 120_000);

const name = (page: HelpPage): string => ['blogctl', ...page.path].join(' ');
const pageFor = (path: string[]): HelpPage | undefined =>
  pages.find((p) => p.path.join(' ') === path.join(' '));

/**
 * Shell words of one command, quotes removed; stops at the end of the command (| ; && $( ) or a backtick)
 * or at a redirection (< >), which the examples put last.
 */
function shellWords(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
      continue;
    }
    if (/[|;)`<>]/.test(c) || text.startsWith('&&', i) || text.startsWith('$(', i)) break;
    if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    word += c;
    inWord = true;
  }
  if (inWord) words.push(word);
  return words;
}

/** Each blogctl invocation in a line of shell: the words after `blogctl`. */
function invocations(line: string): string[][] {
  const found: string[][] = [];
  const re = /(?:^|[\s(|`])blogctl(?=\s|$)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) found.push(shellWords(line.slice(m.index + m[0].length)));
  return found;
}

// `-q` or `--long-name`; a word like `-createdAt` is a value (`--sort -createdAt`), not a flag.
const isFlag = (word: string): boolean => /^(--[a-zA-Z][\w-]*|-[a-zA-Z])(=.*)?$/.test(word);
const flagName = (word: string): string => word.replace(/=.*$/, '');

describe('every command', () => {
  it('was found by walking the tree', () => {
    const names = pages.map(name);
    for (const expected of [
      'blogctl',
      'blogctl auth login',
      'blogctl blog create',
      'blogctl wp publish',
      'blogctl completion',
    ]) {
      expect(names).toContain(expected);
    }
    expect(names.some((n) => n.includes('__complete'))).toBe(false);
  });

  it('prints the same --help from dist/help.json as through the parser', async () => {
    // `blogctl <command> --help` is answered from the pages dist/ was built with (src/help-entry.ts); any other
    // flag on the line sends it through commander, which lays out the tree it has just built. The pages of the
    // built dist/help.json, for every command; the built CLI itself for two (bin/ picks the way).
    const tree = JSON.parse(readFileSync(join(ROOT, 'dist/help.json'), 'utf8')) as HelpTree;
    for (const page of pages) {
      const stdout = new PassThrough();
      let text = '';
      stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
      expect(await printHelp([...page.path, '--help'], stdout, tree), name(page)).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(text, name(page)).toBe(page.text);
    }
    for (const path of [[], ['wp', 'publish']]) {
      const [fromPages, parsed] = await Promise.all([
        runCli([...path, '--help']),
        runCli(['--no-color', ...path, '--help']),
      ]);
      expect(fromPages.code).toBe(0);
      expect(parsed.code).toBe(0);
      expect(fromPages.stdout, ['blogctl', ...path].join(' ')).toBe(pageFor(path)!.text);
      expect(parsed.stdout, ['blogctl', ...path].join(' ')).toBe(pageFor(path)!.text);
    }
  });

  it('has a one-line description', () => {
    const problems = pages.flatMap((page) => {
      if (!page.description) return [`${name(page)}: no description`];
      // A summary that fits one line of a terminal; details belong in option help and examples.
      if (page.description.length > 80)
        return [
          `${name(page)}: description is ${page.description.length} characters (keep it to one line, ≤ 80)`,
        ];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it('has an "Examples:" section with at least one `$ blogctl …` line', () => {
    const problems = pages
      .filter((page) => !page.examples.some((e) => /(^|[\s(|])blogctl(\s|$)/.test(e)))
      .map((page) => `${name(page)}: no "Examples:" section with a "$ blogctl …" line`);
    expect(problems).toEqual([]);
  });

  it('has examples that use only flags the invoked command accepts', () => {
    const problems: string[] = [];
    for (const page of pages) {
      for (const example of page.examples) {
        for (const words of invocations(example)) {
          const { target, flags } = walkExample(words);
          for (const [flag] of flags) {
            if (!target.options.has(flag) && !pageFor([])!.options.has(flag)) {
              problems.push(
                `${name(page)}: example "${example}" uses ${flag}, which ${name(target)} does not accept`,
              );
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has examples that run as written: no "…" to fill in, blog ids in full', () => {
    // A blog id is 24 hex digits (a MongoDB ObjectId); a shell variable stands for one.
    const isBlogId = (word: string): boolean => /^[0-9a-f]{24}$/.test(word) || word.startsWith('$');
    const problems: string[] = [];
    for (const page of pages) {
      for (const example of page.examples) {
        if (/…|\.\.\./.test(example.replace(/\$\(…\)/g, '')))
          problems.push(`${name(page)}: example "${example}" has a "…" to fill in`);
        for (const words of invocations(example)) {
          const { target, flags, positionals } = walkExample(words);
          const ids = [
            ...(/^blog (show|delete)$/.test(target.path.join(' ')) ? positionals : []),
            ...flags.filter(([flag]) => flag === '--from-blog').map(([, value]) => value ?? ''),
          ];
          for (const id of ids.filter((i) => !isBlogId(i)))
            problems.push(`${name(page)}: example "${example}" has "${id}" for a blog id (24 hex digits)`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

/**
 * What a `blogctl …` example runs: the command its subcommand names lead to (flags may come before them, as
 * global options do), each flag with the value it takes, and the positional arguments.
 */
function walkExample(words: string[]): {
  target: HelpPage;
  flags: [string, string | undefined][];
  positionals: string[];
} {
  const root = pageFor([])!;
  let target = root;
  let descending = true;
  let valueOf: [string, string | undefined] | undefined;
  const flags: [string, string | undefined][] = [];
  const positionals: string[] = [];
  for (const word of words) {
    if (valueOf) {
      valueOf[1] = word;
      valueOf = undefined;
      continue;
    }
    if (isFlag(word)) {
      const flag: [string, string | undefined] = [flagName(word), word.split('=')[1]];
      flags.push(flag);
      const known = target.options.get(flag[0]) ?? root.options.get(flag[0]);
      if (known && !word.includes('=')) valueOf = flag;
      continue;
    }
    const next =
      descending && target.subcommands.includes(word) ? pageFor([...target.path, word]) : undefined;
    if (next) target = next;
    else {
      descending = false; // a positional argument: flags may still follow
      positionals.push(word);
    }
  }
  return { target, flags, positionals };
}

describe('blog create --help', () => {
  it('reads in groups, one line a flag but for choice lists: the post flags and how it is sent apart', () => {
    const page = pageFor(['blog', 'create'])!;
    const lines = page.text.split('\n');
    // It was 156 lines with every flag's details; they are in docs/commands.md and docs/publishing.md.
    expect(lines.length).toBeLessThanOrEqual(115);
    const post = section(page.text, 'Post flags (with --publish or --save)');
    const send = section(page.text, 'How the post is sent (with --publish only)');
    expect(post.join('\n')).toMatch(/--wp-category <name\|id>/);
    expect(send.map((l) => l.trim().split(/\s+/)[0])).toEqual([
      '--create-terms',
      '--post-password',
      '--post-password-stdin',
      '--allow-immediate',
    ]);
    for (const title of ['Options', 'Custom values (the customValue of the option in force)'])
      expect(
        section(page.text, title).filter((l) => /^ {4}/.test(l)),
        title,
      ).toEqual([]);
  });
});

describe('help that fits', () => {
  // Off a terminal help is wrapped to 80 columns (on one, to its width: test/process/pty.test.ts).
  it('every line of every --help page and help topic is at most 80 columns', async () => {
    const topics = await Promise.all(
      ['environment', 'exit-codes'].map(async (topic) => ({
        name: `blogctl help ${topic}`,
        text: (await runInProcess(['help', topic])).stdout,
      })),
    );
    const problems = [...pages.map((p) => ({ name: name(p), text: p.text })), ...topics].flatMap((page) =>
      page.text
        .split('\n')
        .filter((line) => [...line].length > 80)
        .map((line) => `${page.name}: ${[...line].length} columns: ${line}`),
    );
    expect(problems).toEqual([]);
  });
});

describe('help topics', () => {
  it('`help environment` lists every environment variable the sources read', async () => {
    const sources = readSources(join(ROOT, 'src')) + readSources(join(ROOT, 'bin'));
    const used = new Set<string>();
    // Read by name: env['X'], env["X"], process.env.X, env.X.
    for (const m of sources.matchAll(/\benv(?:\[\s*(['"])([A-Za-z_]\w*)\1\s*\]|\.([A-Za-z_]\w*))/g))
      used.add(m[2] ?? m[3]!);
    // Read through a constant or a helper (`env[KEYRING_ENV]`, msFromEnv(env, 'BLOGCTL_RETRY_BASE_MS')): every
    // BLOGCTL_* name. Build-time constants (`declare const BLOGCTL_VERSION`) are not environment variables.
    const constants = new Set([...sources.matchAll(/declare const (BLOGCTL_\w+)/g)].map((m) => m[1]!));
    for (const m of sources.matchAll(/\bBLOGCTL_[A-Z0-9_]+\b/g)) if (!constants.has(m[0])) used.add(m[0]);
    // The ones the issue names, so the scan itself is checked.
    for (const name of ['COLUMNS', 'TERM', 'XDG_CONFIG_HOME', 'http_proxy', 'BLOGCTL_WP_PASSWORD'])
      expect(used, `the scan of src/ should find ${name}`).toContain(name);
    const help = await runInProcess(['help', 'environment']);
    expect(help.code).toBe(0);
    const missing = [...used]
      .filter((v) => !new RegExp(`(^|[^\\w])${v}([^\\w]|$)`, 'm').test(help.stdout))
      .sort();
    expect(
      missing,
      `read in src/ or bin/ but not listed by \`blogctl help environment\`: ${missing.join(', ')}`,
    ).toEqual([]);
  });

  it('`help exit-codes` lists every code docs/exit-codes.md documents, and no other', async () => {
    const help = await runInProcess(['help', 'exit-codes']);
    expect(help.code).toBe(0);
    const codes = [...help.stdout.matchAll(/^\s*(\d+)\s+\S/gm)].map((m) => Number(m[1]));
    const table = readFileSync(join(ROOT, 'docs/exit-codes.md'), 'utf8');
    const documented = [...table.matchAll(/^\|\s*(\d+)\s*\|/gm)].map((m) => Number(m[1]));
    expect(documented).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 130]);
    expect(codes).toEqual(documented);
  });
});

describe('README.md and docs/*.md', () => {
  it('mention only flags that exist', () => {
    const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    const text = ['README.md', ...docs.map((f) => `docs/${f}`)]
      .map((f) => readFileSync(join(ROOT, f), 'utf8'))
      .join('\n')
      .replace(/\\\n/g, ' ');
    const known = new Set(pages.flatMap((p) => [...p.options.keys()]));
    const mentioned = new Map<string, string>();
    for (const line of text.split('\n')) {
      // Flags of blogctl command lines, in code blocks or inline code…
      for (const words of invocations(line))
        for (const w of words.filter(isFlag)) mentioned.set(flagName(w), line.trim());
      // …and flags named on their own in inline code, like `--json [fields]` or `-q`.
      for (const m of line.matchAll(/`(-[^`]*)`/g)) {
        const first = m[1]!.split(/\s+/)[0]!;
        if (isFlag(first)) mentioned.set(flagName(first), line.trim());
      }
    }
    expect(mentioned.size).toBeGreaterThan(0);
    const unknown = [...mentioned]
      .filter(([flag]) => !known.has(flag))
      .map(([flag, line]) => `${flag} (in: ${line})`);
    expect(unknown, 'README.md or docs/ mention flags no command has').toEqual([]);
  });
});

function readSources(dir: string): string {
  return readdirSync(dir)
    .map((entry) => join(dir, entry))
    .map((path) =>
      statSync(path).isDirectory()
        ? readSources(path)
        : /\.[cm]?[jt]s$/.test(path)
          ? readFileSync(path, 'utf8')
          : '',
    )
    .join('\n');
}
