// Reading the files a verb is given (`-f x.json`, `--content-file`), with `-` meaning stdin. Stdin can be
// read once, so two inputs claiming it is a usage error rather than one of them silently empty.
import { UsageError } from '../errors.js';
import { parseJsonText } from './json-text.js';
import { decodeUtf8 } from './utf8.js';

/** Where stdin is read from: once per run (the commands' factory reads it on first use). */
export interface StdinReader {
  readStdin(): Promise<string>;
}

/** Fails when more than one of the named inputs wants stdin. */
export function claimStdin(claims: [name: string, wants: boolean][]): void {
  const wanting = claims.filter(([, wants]) => wants).map(([name]) => name);
  if (wanting.length > 1)
    throw new UsageError(`only one input can read stdin, but ${wanting.join(' and ')} all want it`);
}

export async function readText(path: string, flag: string, deps: StdinReader): Promise<string> {
  if (path === '-') return deps.readStdin();
  let bytes: Buffer;
  try {
    // Imported here: node:fs/promises (with Node's file streams and readline) loads only when a file is read.
    const { readFile } = await import('node:fs/promises');
    bytes = await readFile(path);
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path}: ${unreadable(error as NodeJS.ErrnoException)}`);
  }
  return decodeUtf8(bytes, `${flag} ${path}`);
}

/** Why a file could not be read, in words for the common cases. */
function unreadable(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'it is a directory';
    case 'EACCES':
      return 'permission denied';
    default:
      return error.message;
  }
}

export async function readJson(path: string, flag: string, deps: StdinReader): Promise<unknown> {
  return parseJsonText(await readText(path, flag, deps), `${flag}: ${sourceName(path)}`);
}

export function sourceName(path: string): string {
  return path === '-' ? 'stdin' : path;
}

/** Like readJson, also returning the text as read. */
export async function readJsonText(
  path: string,
  flag: string,
  deps: StdinReader,
): Promise<{ value: unknown; text: string }> {
  const text = await readText(path, flag, deps);
  return { value: parseJsonText(text, `${flag}: ${sourceName(path)}`), text };
}
