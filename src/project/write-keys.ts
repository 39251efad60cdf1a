// `key:` written into a Markdown source's front matter: a short random name that stays the post's identity
// whatever the file is later called or wherever it moves. Only one line is added; every other byte of the
// file is kept (line endings, a byte-order mark, the front matter's own formatting).
import { readFrontMatter } from '../publishing/sources/front-matter.js';
import { isMarkdownPath } from '../publishing/sources/markdown-path.js';
import { randomKey } from './random-key.js';

export type KeyEdit =
  | { kind: 'added'; text: string; key: string }
  | { kind: 'has-key' }
  | { kind: 'not-markdown' }
  | { kind: 'json-front-matter' };

/** The file's text with a `key:` line added to its front matter (made when it has none), or why not. */
export function addKey(path: string, text: string, key = randomKey()): KeyEdit {
  if (!isMarkdownPath(path)) return { kind: 'not-markdown' };
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const eol = /\r\n/.test(body) ? '\r\n' : '\n';
  const open = /^---[ \t]*(\r?\n)/.exec(body);
  if (open) {
    if (/^---json\b/.test(body)) return { kind: 'json-front-matter' };
    try {
      const { data } = readFrontMatter(body.replace(/\r\n?/g, '\n'), path);
      if (data['key'] !== undefined && data['key'] !== null) return { kind: 'has-key' };
    } catch {
      // Front matter that cannot be read: the publish names its problem; the key goes in anyway.
    }
    const at = open[0].length;
    return { kind: 'added', key, text: `${bom}${body.slice(0, at)}key: ${key}${open[1]!}${body.slice(at)}` };
  }
  if (/^---json\b/.test(body)) return { kind: 'json-front-matter' };
  return { kind: 'added', key, text: `${bom}---${eol}key: ${key}${eol}---${eol}${body}` };
}
