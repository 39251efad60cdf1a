// Help text that fits the terminal: every line at most `width` cells, broken between words (never inside
// one, unless a single word is wider than the whole line), with columns kept aligned. A command's own page
// (usage, options, commands) is laid out by help-layout.ts with fillWords(); wrapText() wraps what commander
// writes as given: the text after the options (addHelpText), the examples and the help topics.
//
// On the start-up path (every `--help`): no dependency, and widths are counted in code points. Help text is
// ASCII apart from a few one-cell symbols (· … → •), so string-width's Unicode tables would buy nothing.
import { usableWidth } from './terminal-width.js';

/** What `--help` and the help topics are wrapped to when stdout is not a terminal. */
export const DEFAULT_HELP_WIDTH = 80;

/** The width help is laid out to on `stdout`: the terminal's, or 80 columns when it is not one. */
export function helpWidthOf(stdout: { isTTY?: boolean; columns?: number }): number {
  return (stdout.isTTY && usableWidth(stdout.columns)) || DEFAULT_HELP_WIDTH;
}
/** Below this many cells for a description, a term and its description are stacked rather than side by side. */
const MIN_DESCRIPTION = 24;
/** How far a continuation line (a stacked description, an example's next line) is indented past its start. */
const HANG = 4;

// eslint-disable-next-line no-control-regex
const SGR = /\u001B\[[\d;]*m/g;

export function displayWidth(text: string): number {
  return [...text.replace(SGR, '')].length;
}

/**
 * Wraps each line of `text` that is wider than `width`, keeping its meaning as laid out:
 * - `Usage: …` continues under the first word after `Usage:`;
 * - an example (`  $ blogctl …`) continues on the next line after ` \`, never inside a quoted word, so it
 *   still runs when copied;
 * - a row (`  term  description`, two spaces or more between them) continues under its description, or, when
 *   the description would have fewer than 24 cells, puts the description under the term;
 * - anything else is prose, continuing under its own indent (past a `- ` or `• ` bullet).
 * Lines that fit are left exactly as they are.
 */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => (displayWidth(line) <= width ? line : wrapLine(line, width).join('\n')))
    .join('\n');
}

function wrapLine(line: string, width: number): string[] {
  const indent = /^ */.exec(line)![0];
  const body = line.slice(indent.length);
  const usage = /^(Usage: )(.*)$/.exec(body);
  if (usage) return fill(words(usage[2]!), width, indent + usage[1]!, ' '.repeat(indent.length + 7));
  if (body.startsWith('$ ')) return exampleLines(indent, body, width);
  const row = /^(\S+(?: \S+)*)( {2,})(\S.*)$/.exec(body);
  if (row && indent.length > 0) {
    const column = indent.length + row[1]!.length + row[2]!.length;
    if (width - column >= MIN_DESCRIPTION)
      return fill(words(row[3]!), width, indent + row[1]! + row[2]!, ' '.repeat(column));
    const under = ' '.repeat(indent.length + HANG);
    return [indent + row[1]!, ...fill(words(row[3]!), width, under, under)];
  }
  const bullet = /^([-•] )/.exec(body)?.[1] ?? '';
  return fill(words(body), width, indent, ' '.repeat(indent.length + bullet.length));
}

function words(text: string): string[] {
  return text.split(/ +/).filter(Boolean);
}

/** The words of `text` filled into lines of at most `width` cells (see fill). */
export function fillWords(text: string, width: number): string[] {
  return fill(words(text), width, '', '');
}

/** Greedy fill: as many words on each line as fit; a word wider than a whole line is cut to fit. */
function fill(list: string[], width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let current = first;
  let empty = true;
  for (const word of list) {
    const sep = empty ? '' : ' ';
    if (displayWidth(current) + sep.length + displayWidth(word) <= width) {
      current += sep + word;
      empty = false;
      continue;
    }
    if (!empty) {
      lines.push(current);
      current = rest;
    }
    let piece = word;
    // Only a word wider than the line itself is broken: there is nowhere else to put it.
    while (displayWidth(current) + displayWidth(piece) > width && width - displayWidth(current) > 0) {
      const room = width - displayWidth(current);
      const chars = [...piece];
      lines.push(current + chars.slice(0, room).join(''));
      piece = chars.slice(room).join('');
      current = rest;
    }
    current += piece;
    empty = false;
  }
  lines.push(current);
  return lines;
}

/**
 * An example command over several lines, each but the last ending in ` \` (the shell joins them again).
 * Words are the shell's: a quoted string with spaces in it is one word and is never split, since a break
 * inside quotes would put the continuation's indent into the quoted text; an option stays on the line of
 * its value. A trailing `# comment` has no ` \` inside it (a backslash there is part of the comment): it
 * goes on a line of its own, and if it is still too wide, on several, each starting with `#`.
 */
function exampleLines(indent: string, body: string, width: number): string[] {
  const all = body.slice(2).match(/(?:[^\s"']+|"(?:[^"\\]|\\.)*"|'[^']*')+/g) ?? [];
  const hash = all.findIndex((t) => t.startsWith('#'));
  const tokens = hash < 0 ? all : all.slice(0, hash);
  const comment = hash < 0 ? [] : all.slice(hash + 1);
  const units: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const next = tokens[i + 1];
    const pair = `${token} ${next}`;
    // Together only where the pair fits on a continuation line of its own.
    const fits = displayWidth(indent) + HANG + displayWidth(pair) + 2 <= width;
    if (token.startsWith('-') && next !== undefined && !/^[-|&;<>]/.test(next) && fits) {
      units.push(pair);
      i++;
    } else units.push(token);
  }
  const rest = indent + ' '.repeat(HANG);
  const lines: string[] = [];
  let current = `${indent}$`;
  for (const unit of units) {
    // Room for the ` \` that ends the line if another follows.
    if (current === `${indent}$` || displayWidth(`${current} ${unit}`) + 2 <= width) {
      current += current === rest ? unit : ` ${unit}`;
      continue;
    }
    lines.push(`${current} \\`);
    current = rest + unit;
  }
  if (comment.length) {
    const text = ['#', ...comment];
    if (displayWidth(`${current} ${text.join(' ')}`) <= width) current += ` ${text.join(' ')}`;
    else {
      lines.push(`${current} \\`);
      const wrapped = fill(comment, width, `${rest}# `, `${rest}# `);
      current = wrapped.pop()!;
      lines.push(...wrapped);
    }
  }
  lines.push(current);
  return lines;
}

/**
 * Rows of `term  description` aligned in two columns, each description wrapped under itself; when the
 * terms leave fewer than 24 cells, each description goes under its term instead. For the help topics, and
 * for each list of a command's help page (help-layout.ts), whose lists share one `termWidth`.
 */
export function formatRows(
  rows: readonly (readonly [string, string])[],
  width: number,
  indent = 2,
  termWidth = Math.max(...rows.map(([term]) => displayWidth(term))),
): string[] {
  const column = indent + termWidth + 2;
  const pad = ' '.repeat(indent);
  const side = width - column >= MIN_DESCRIPTION;
  // Stacked, a description starts past where the terms' text does (exit codes are right-aligned numbers).
  const lead = Math.max(...rows.map(([term]) => /^ */.exec(term)![0].length));
  return rows.flatMap(([term, description]) => {
    if (!description) return [pad + term];
    if (side) {
      const head = pad + term + ' '.repeat(column - indent - displayWidth(term));
      return fill(words(description), width, head, ' '.repeat(column));
    }
    const under = ' '.repeat(indent + lead + HANG);
    return [pad + term, ...fill(words(description), width, under, under)];
  });
}

/**
 * Help text written as it reads in the source, made into what wrapText() wraps: the lines of a paragraph
 * are joined into one (a paragraph ends at a blank line, or where the next line begins with an indent); an
 * indented line (a row, an example) stays a line of its own, and a line indented exactly to the description
 * column of the row above continues that description.
 */
export function prose(text: string): string {
  const out: string[] = [];
  let column = -1;
  for (const line of text.split('\n')) {
    const indent = /^ */.exec(line)![0].length;
    const previous = out.length ? out[out.length - 1]! : '';
    if (line.trim() === '') {
      out.push('');
      column = -1;
    } else if (indent === 0 && previous !== '' && !/^ /.test(previous)) {
      out[out.length - 1] = `${previous} ${line}`;
    } else if (indent > 0 && indent === column) {
      out[out.length - 1] = `${previous} ${line.trim()}`;
    } else {
      out.push(line);
      const row = /^( +\S+(?: \S+)*)( {2,})\S/.exec(line);
      column = row ? row[1]!.length + row[2]!.length : -1;
    }
  }
  return out.join('\n');
}
