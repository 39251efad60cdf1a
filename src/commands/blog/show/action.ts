// `blog show <id>`: one blog from the list (the service has no get-one endpoint); --field prints one raw.
import { NotFoundError, UsageError } from '../../../errors.js';
import type { Deps } from '../../../factory.js';
import { BLOG_FIELDS } from '../../../blogs/fields.js';
import { jsonOutput, wantsJson } from '../../../output/json.js';
import { fieldValue, withIdAlias } from '../../../blogs/list-query.js';
import { blogText, htmlToText } from '../../../blogs/text.js';
import { fillWords } from '../../../output/wrap.js';
import type { Blog } from '../../../schemas/blog.js';
import type { Input } from './command.js';

export async function action({ args, opts, globals, deps }: Input): Promise<void> {
  let id = args[0];
  let json = globals.json;
  // The global `--json [fields]` takes an optional value, so `blog show --json 65f0…` hands the id to --json.
  // An id is required, so with no positional id the --json value can only have been the id.
  if (id === undefined && typeof json === 'string') {
    id = json;
    json = true;
  }
  if (!id?.trim()) throw new UsageError('blog show: give a blog id (see `blogctl blog list`)');
  if (opts.field !== undefined && wantsJson(json)) {
    throw new UsageError(
      '--field and --json do not mix: use --field <name> for one raw value, or --json <a,b> for JSON',
    );
  }
  if (opts.markdown && (opts.field !== undefined || wantsJson(json)))
    throw new UsageError(
      '--markdown prints the whole post as Markdown: it does not mix with --field or --json',
    );
  const output = jsonOutput(json, BLOG_FIELDS);
  const blog = await showRun({ id: id.trim() }, deps);
  const io = deps.io;
  if (opts.markdown) {
    const { blogToMarkdown } = await import('../../../blogs/markdown-export.js');
    return io.outRaw(blogToMarkdown(blog));
  }
  if (opts.field !== undefined) {
    const raw = rawField(blog, opts.field, io.stdoutIsTTY);
    // On a terminal the value is all the server's: none of its escape sequences is obeyed, colours included.
    if (!io.stdoutIsTTY) return io.outRaw(raw);
    const { visible } = await import('../../../output/terminal-text.js');
    return io.outRaw(visible(raw));
  }
  if (output.enabled) return output.print(io, output.fields ? withIdAlias(blog) : blog);
  // -q: only the id, as `blog list -q` prints ids (the exit code says whether the blog exists).
  if (io.quiet) return io.out(blog._id);
  if (!io.stdoutIsTTY) return io.out(describeBlog(blog));
  // A person at a terminal: the post laid out to read, through the pager. The server's text is made visible
  // before blogctl paints its own colours: a colour code in a title is shown (^[[31m), not taken for one of
  // blogctl's, which are the only escape sequences the terminal is given.
  const [{ readWidth, renderPost }, { page }, { visible }] = await Promise.all([
    import('../../../blogs/render.js'),
    import('../../../output/pager.js'),
    import('../../../output/terminal-text.js'),
  ]);
  const render = (html: string): string => renderPost(html, io.columns, io.paint.bind(io));
  const shown = Object.fromEntries(
    Object.entries(blog).map(([k, v]) => [k, typeof v === 'string' ? visible(v) : v]),
  ) as Blog;
  await page(io, deps.env, describeBlog(shown, { render, width: readWidth(io.columns) }));
}

export async function showRun(options: { id: string }, deps: Pick<Deps, 'blogApi'>): Promise<Blog> {
  const { blog, total } = await (await deps.blogApi()).findBlog(options.id);
  if (!blog) {
    throw new NotFoundError(
      `blog "${options.id}" not found: it is not among the ${total} blog${total === 1 ? '' : 's'} this API key can list`,
    );
  }
  return blog;
}

/**
 * `--field content > post.html` must give the file exactly what the service stored, so text is printed as it is
 * with no newline added — except on a terminal, where a missing final newline is added so the shell prompt
 * does not run into the text. Numbers and booleans print as text; objects, arrays and null as JSON.
 */
export function rawField(blog: Blog, name: string, terminal: boolean): string {
  const value = fieldValue(withIdAlias(blog), name);
  if (value === undefined) {
    throw new UsageError(
      `--field: blog "${blog._id}" has no field "${name}" (it has: ${Object.keys(blog).join(', ')})`,
    );
  }
  if (typeof value === 'string') return terminal && !value.endsWith('\n') ? `${value}\n` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return `${String(value)}\n`;
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * `key: value` lines for every field but the text, then the text: with its HTML stripped, or, for a
 * terminal, as `render` lays it out, with each value wrapped under itself at `width`. Ends with a newline.
 */
export function describeBlog(
  blog: Blog,
  terminal?: { render: (html: string) => string; width: number },
): string {
  const text = blogText(blog);
  const entries = Object.entries(blog).filter(([, v]) => v !== text);
  const width = Math.max(...entries.map(([k]) => k.length)) + 1;
  const lines = entries.flatMap(([k, v]) => {
    const key = `${k}:`.padEnd(width);
    if (!terminal) return [`${key} ${inline(v)}`];
    return fillWords(inline(v), Math.max(1, terminal.width - width - 1)).map((line, i) =>
      `${i ? ' '.repeat(width) : key} ${line}`.trimEnd(),
    );
  });
  if (text !== undefined)
    lines.push('', terminal ? terminal.render(text).replace(/\n$/, '') : htmlToText(text));
  return `${lines.join('\n')}\n`;
}

function inline(value: unknown): string {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ');
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null))
    return value.map(String).join(', ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
