// From a model's Markdown to the post's HTML. Before: the wrapping a chat model adds (a code fence around the
// whole answer, "Sure! Here is…" before it, "I hope this helps" after it, a title of its own) is removed.
// Then marked (the Markdown library blogctl already uses) renders it with three rules that keep the HTML
// safe by construction: raw HTML in the Markdown is shown as text, never passed through; a link or image
// whose URL is not http(s), mailto or relative loses its URL; and marked itself writes no event handlers.
// A last check refuses what would still be unsafe.
import { Marked, type Tokens } from 'marked';

const FENCE_OPEN = /^\s*(```|~~~)[\w-]*[ \t]*\n/;
const PREAMBLE =
  /^(?:sure|certainly|of course|absolutely|okay|ok|great|alright|here(?:'s| is| are)|below is|as requested)\b[^\n]{0,200}$/i;
const CLOSING =
  /^(?:i hope|hope this|let me know|feel free|if you(?:'d| would) like|would you like|i can also|note: this (?:section|draft))\b/i;

/**
 * The section as the model meant it: no fence around the whole answer, no preamble or closing remark, no
 * heading of level 1 (the post's title is its own) nor a repeat of the section's heading, and the model's
 * own `##` headings one level down, under the section's.
 */
export function cleanSection(text: string, heading: string): string {
  let md = text.replace(/\r\n?/g, '\n').trim();
  // A preamble and a closing remark, inside the fence or around it.
  const trim = (): void => {
    const paragraphs = md.split(/\n{2,}/);
    while (paragraphs.length > 1 && isPreamble(paragraphs[0]!)) paragraphs.shift();
    while (paragraphs.length > 1 && CLOSING.test(paragraphs.at(-1)!.trim())) paragraphs.pop();
    md = paragraphs.join('\n\n').trim();
  };
  trim();
  const open = FENCE_OPEN.exec(md);
  if (open) {
    const fence = open[1]!;
    const close = md.lastIndexOf(fence);
    // The whole answer in one fence (the usual case), or a fence opened and never closed (cut off).
    md = close > open[0].length - 1 ? md.slice(open[0].length, close) : md.slice(open[0].length);
    md = md.trim();
    trim();
  }
  const lines = md.split('\n');
  const out: string[] = [];
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) {
      out.push(line);
      continue;
    }
    // Setext level 1: a line of = under text.
    if (/^=+\s*$/.test(line) && out.length && out.at(-1)!.trim()) {
      out.pop();
      continue;
    }
    const atx = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (atx) {
      const level = atx[1]!.length;
      const title = atx[2]!;
      if (level === 1) continue;
      if (out.every((l) => !l.trim()) && sameText(title, heading)) continue;
      if (level === 2) {
        out.push(`### ${title}`);
        continue;
      }
    } else if (out.every((l) => !l.trim()) && sameText(line.replace(/^\*\*|\*\*$/g, ''), heading)) {
      // The heading repeated as a bold line or plain line at the top.
      continue;
    }
    out.push(line);
  }
  return out.join('\n').trim();
}

function isPreamble(paragraph: string): boolean {
  const p = paragraph.trim();
  return !p.includes('\n') && PREAMBLE.test(p) && (/[:!]$/.test(p) || /\bhere(?:'s| is| are)\b/i.test(p));
}

function sameText(a: string, b: string): boolean {
  const norm = (s: string): string =>
    s
      .toLowerCase()
      .replace(/[*_`"'“”]/g, '')
      .replace(/^\d+[.)]\s*/, '')
      .replace(/[:.\s]+$/, '')
      .trim();
  return norm(a) === norm(b);
}

/** http(s), mailto, or a URL without a scheme (relative, a fragment). */
export function safeUrl(href: string): boolean {
  // Browsers ignore control characters and white space inside a scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex
  const squeezed = href.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(squeezed)?.[1];
  if (scheme === undefined) return !/^[^/?#]*&#|^[^/?#]*&colon;/i.test(squeezed);
  return scheme === 'http' || scheme === 'https' || scheme === 'mailto';
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const marked = new Marked({ gfm: true, async: false });
marked.use({
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      // Raw HTML is not passed through: script and style go with their content, other tags go, their
      // text stays (escaped).
      const text = escapeHtml(
        token.text
          .replace(/<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, ' ')
          .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
          .replace(/<\/?[A-Za-z!?][^>]*(?:>|$)/g, '')
          .replace(/[ \t]{2,}/g, ' '),
      );
      return 'block' in token && token.block ? (text.trim() ? `<p>${text.trim()}</p>\n` : '') : text;
    },
    link(token: Tokens.Link): string | false {
      if (safeUrl(token.href)) return false;
      return this.parser.parseInline(token.tokens);
    },
    image(token: Tokens.Image): string | false {
      if (/^https?:/i.test(token.href.trim())) return false;
      return escapeHtml(token.text);
    },
  },
});

/** Markdown → HTML that holds no script, no event handler and no unsafe URL. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown) as string;
  const problem = unsafeHtml(html);
  if (problem) throw new Error(`the rendered post still holds ${problem}`);
  return html.trim();
}

/** What makes HTML unsafe to publish, if anything: a tag that runs code, an event handler, a script URL. */
export function unsafeHtml(html: string): string | undefined {
  if (/<\s*(script|iframe|object|embed|style|link|meta|base|form|svg|math)\b/i.test(html))
    return 'an active tag';
  if (/<[^>]*\son[a-z]+\s*=/i.test(html)) return 'an event handler';
  const urls = html.matchAll(/\s(?:href|src|action|formaction|xlink:href)\s*=\s*"([^"]*)"/gi);
  for (const [, url] of urls) {
    const decoded = url!
      .replace(/&amp;/g, '&')
      .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)));
    if (!safeUrl(decoded)) return 'a link with an unsafe URL';
  }
  return undefined;
}

/** The URLs of the links in rendered HTML, as written in the Markdown. */
export function linkTargets(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*href="([^"]*)"/gi)].map(([, h]) =>
    h!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&#39;/g, "'"),
  );
}
