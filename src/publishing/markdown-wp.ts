// Markdown → HTML for WordPress: marked (GitHub flavour) extended so that what WordPress reads from a post's
// content reaches it as the writer wrote it. Rules that must stay true:
//
// - A shortcode (`[gallery ids="1,2"]`, `[contact-form-7 id="3" title="Contact"]`, `[/caption]`, WordPress's
//   own or a plugin's) is copied byte for byte: WordPress parses its attributes from the stored text, so an
//   escaped quote (`&quot;`) or a URL turned into a link inside it breaks it. A paragraph holding only
//   shortcodes is written without `<p>`, as the classic editor stores it (WordPress adds the paragraph, and
//   removes it around a lone shortcode, when it renders). The content of `[embed]`, `[audio]`, `[video]`,
//   `[code]`-like shortcodes, or of any whose content is one URL, is copied as well.
// - Text stays text: `&lt;script&gt;` remains an entity, an entity is never decoded into the character it
//   stands for (`&#60;` stays `&#60;`), and only `<`, `>` and an `&` that starts no entity are escaped. Quotes
//   in text are left as written (they need no escaping outside attributes, and WordPress curls them).
// - A bare URL on a line of its own at the top level (or in a quote) stays a bare URL on its own line: that is
//   how WordPress embeds a video or a post (oEmbed), and a link around it stops the embed.
// - A raw HTML block is copied as written, ending its line.
import { Marked, type MarkedExtension, type Tokens, type TokenizerAndRendererExtension } from 'marked';

/** A shortcode's name: what WordPress's shortcode names look like (`gallery`, `contact-form-7`, `vc_row`). */
const NAME = '[A-Za-z_][A-Za-z0-9_-]*';
/** Attributes: anything up to the closing bracket, but not a nested bracket or a code span. */
const ATTRS = '(?:\\s[^\\[\\]`]*)?';
/** `[[name …]]`: WordPress's escape for a shortcode shown as text; it prints it with one bracket pair. */
const ESCAPED = new RegExp(`^\\[\\[${NAME}${ATTRS}\\]\\]`);
/** `[name …]` not followed by `(` or `[` (a link), except `[/` (an empty enclosing shortcode). */
const OPENING = new RegExp(`^\\[(${NAME})(${ATTRS})\\](?!\\(|\\[(?!\\/))`);
const CLOSING = new RegExp(`^\\[\\/(${NAME})\\]`);
/** An enclosing shortcode whose content has no bracket: copied whole when its content is not Markdown. */
const ENCLOSING = new RegExp(`^\\[(${NAME})(${ATTRS})\\]([^\\[]*)\\[\\/\\1\\]`);
/** Shortcodes whose content is data (a URL, code, a formula), never Markdown. */
const VERBATIM_CONTENT = new Set([
  'embed',
  'audio',
  'video',
  'playlist',
  'code',
  'sourcecode',
  'source',
  'latex',
  'math',
]);
const BARE_URL = /^https?:\/\/[^\s<>"]+$/;
/** A line that is one URL (up to four spaces of indent would be code, so at most three). */
const URL_LINE = /^ {0,3}(https?:\/\/[^\s<>"]+)[ \t]*(?:\n|$)/;

interface ShortcodeToken extends Tokens.Generic {
  type: 'shortcode';
  raw: string;
}

interface EmbedToken extends Tokens.Generic {
  type: 'embedUrl';
  raw: string;
  url: string;
}

/** marked's label normalisation for reference links (`[Foo  Bar]` and `[foo bar]` are one label). */
const linkLabel = (label: string): string => label.trim().replace(/\s+/g, ' ').toLowerCase();

const shortcode: TokenizerAndRendererExtension = {
  name: 'shortcode',
  level: 'inline',
  // No `start`: marked's inline text already stops before every `[` it does not begin with, so the tokenizer
  // is tried at each one; a `start` searching the rest of the paragraph on every text token was quadratic.
  tokenizer(src: string): ShortcodeToken | undefined {
    if (src.charCodeAt(0) !== 91) return undefined;
    const escaped = ESCAPED.exec(src);
    if (escaped) return { type: 'shortcode', raw: escaped[0] };
    const closing = CLOSING.exec(src);
    if (closing) return { type: 'shortcode', raw: closing[0] };
    const enclosing = ENCLOSING.exec(src);
    if (
      enclosing &&
      (VERBATIM_CONTENT.has(enclosing[1]!.toLowerCase()) || BARE_URL.test(enclosing[3]!.trim()))
    )
      return { type: 'shortcode', raw: enclosing[0] };
    const opening = OPENING.exec(src);
    if (!opening) return undefined;
    // `[label]` with a definition `[label]: https://…` is a reference link, which marked renders.
    const links = (this as unknown as { lexer: { tokens: { links: Record<string, unknown> } } }).lexer.tokens
      .links;
    if (Object.hasOwn(links, linkLabel(opening[0].slice(1, -1)))) return undefined;
    return { type: 'shortcode', raw: opening[0] };
  },
  renderer(token) {
    return token.raw;
  },
};

/** How a line that is a bare URL starts (what ends a paragraph for `embedUrl`), 11 characters at most. */
const URL_LINE_START = /^ {0,3}https?:\/\//;

/**
 * `embedUrl`'s `start`: where the next line that may be a bare URL begins in `src` (0 when `src` opens with
 * one, else the index of the line break before it), for marked to end a paragraph there; the same answer as
 * a search of `(?:^|\n) {0,3}https?://` over all of `src`, wherever it can change what marked makes of it.
 * The search stops at the first empty line after the first: no paragraph runs past one, so a URL line
 * after it cannot end this paragraph. marked asks once per block;
 * searching the whole rest of the content each time was quadratic, this is linear.
 */
function nextUrlLine(src: string): number | undefined {
  for (let line = 0; ;) {
    if (URL_LINE_START.test(src.slice(line, line + 11))) return line === 0 ? 0 : line - 1;
    const nl = src.indexOf('\n', line);
    if (nl < 0) return undefined;
    if (line > 0 && nl === line) return undefined;
    line = nl + 1;
  }
}

const embedUrl: TokenizerAndRendererExtension = {
  name: 'embedUrl',
  level: 'block',
  start: nextUrlLine,
  tokenizer(src: string): EmbedToken | undefined {
    const lexer = (this as unknown as { lexer: { state: { top: boolean } } }).lexer;
    if (!lexer.state.top) return undefined;
    const line = URL_LINE.exec(src);
    if (!line) return undefined;
    return { type: 'embedUrl', raw: line[0], url: line[1]! };
  },
  renderer(token) {
    return `${(token as EmbedToken).url}\n`;
  },
};

/** `&` that starts no character reference, `<` and `>`: what text must escape to stay text. */
function escapeText(text: string): string {
  return text.replace(/&(?!#?\w+;)|[<>]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));
}

const wordpress: MarkedExtension = {
  extensions: [shortcode, embedUrl],
  renderer: {
    text(token: Tokens.Text | Tokens.Escape) {
      if ('tokens' in token && token.tokens) return false;
      if (token.type === 'escape') return escapeText(token.text);
      // Inside `<pre>`/`<script>` written as inline HTML, marked keeps the text raw.
      if ((token as Tokens.Text).escaped) return token.text;
      // raw, not text: marked decodes numeric references (`&#60;` → `<`) into text.
      return escapeText(token.raw);
    },
    paragraph(token: Tokens.Paragraph) {
      const onlyShortcodes =
        token.tokens.some((t) => t.type === 'shortcode') &&
        token.tokens.every(
          (t) => t.type === 'shortcode' || t.type === 'br' || (t.type === 'text' && !t.raw.trim()),
        );
      return onlyShortcodes ? `${token.text}\n` : false;
    },
    html(token: Tokens.HTML | Tokens.Tag) {
      return token.block && !token.text.endsWith('\n') ? `${token.text}\n` : false;
    },
  },
};

/** A marked instance configured for WordPress content; lexer() and parser() keep no state between calls. */
export function wordpressMarked(): Marked {
  return new Marked({ gfm: true }, wordpress);
}
