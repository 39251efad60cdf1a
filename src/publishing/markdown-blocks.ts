// Markdown → serialized core blocks (`editor: blocks`): what the block editor opens as blocks, each the exact
// HTML the block's own save function writes for its attributes, so the editor shows no "unexpected or invalid
// content" warning. Rules that must stay true:
//
// - Every top-level construct is one block: paragraph, heading, list (list-item blocks inside), quote
//   (its content as blocks), code, image (a paragraph holding one image alone), separator, table; a lone
//   shortcode paragraph is a shortcode block; a bare URL line an embed block; everything else (raw HTML, a
//   table with column alignment) an html block, its HTML as written.
// - Block markup already in the file (`<!-- wp:… -->`, as `wp pull` keeps a block that is a comment alone) is
//   copied as written, never wrapped.
// - Inline content is the same HTML as a classic post's (markdown-wp.ts): shortcodes and entities as written.
// - The forms are the ones WordPress 6.1's blocks save, which later versions open too (they migrate them).
import type { Marked, Token, Tokens } from 'marked';

/** Block comment attributes as WordPress serializes them: JSON with `--`, `<`, `>`, `&` escaped. */
function attributes(attrs: Record<string, unknown> | undefined): string {
  if (!attrs || !Object.keys(attrs).length) return '';
  const json = JSON.stringify(attrs)
    .replace(/--/g, '\\u002d\\u002d')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\\"/g, '\\u0022');
  return `${json} `;
}

function block(name: string, html: string, attrs?: Record<string, unknown>): string {
  return `<!-- wp:${name} ${attributes(attrs)}-->\n${html}\n<!-- /wp:${name} -->`;
}

/**
 * The code block's escaping (its save function's): `&`, `<`, `>` as entities, `[` as `&#91;` so no shortcode
 * runs in code, and the `//` of the first URL alone on its line as `&#47;&#47;` so WordPress does not embed it.
 */
function escapeCode(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\[/g, '&#91;')
    .replace(/^(\s*https?:)\/\/([^\s<>"]+\s*)$/m, '$1&#47;&#47;$2');
}

const BLOCK_MARKUP = /^\s*<!--\s+\/?wp:[a-z]/;

export class BlockWriter {
  constructor(private readonly marked: Marked) {}

  private inline(tokens: Token[]): string {
    return this.marked.Parser.parseInline(tokens, this.marked.defaults);
  }

  /** The serialized blocks of a document's top-level tokens, separated by blank lines. */
  blocks(tokens: Token[]): string {
    return tokens
      .map((t) => this.one(t))
      .filter((b): b is string => b !== undefined)
      .join('\n\n');
  }

  private html(html: string): string {
    const text = html.replace(/\n+$/, '');
    return BLOCK_MARKUP.test(text) ? text : block('html', text);
  }

  private one(token: Token): string | undefined {
    switch (token.type) {
      case 'space':
      case 'def':
        return undefined;
      case 'paragraph':
        return this.paragraph(token as Tokens.Paragraph);
      case 'heading': {
        const h = token as Tokens.Heading;
        return block(
          'heading',
          `<h${h.depth}>${this.inline(h.tokens)}</h${h.depth}>`,
          h.depth === 2 ? undefined : { level: h.depth },
        );
      }
      case 'list':
        return this.list(token as Tokens.List);
      case 'blockquote': {
        const q = token as Tokens.Blockquote;
        return block('quote', `<blockquote class="wp-block-quote">${this.blocks(q.tokens)}</blockquote>`);
      }
      case 'code': {
        const c = token as Tokens.Code;
        return block('code', `<pre class="wp-block-code"><code>${escapeCode(c.text)}</code></pre>`);
      }
      case 'hr':
        return block('separator', '<hr class="wp-block-separator has-alpha-channel-opacity"/>');
      case 'table':
        return this.table(token as Tokens.Table);
      case 'html':
        return this.html((token as Tokens.HTML).text);
      case 'shortcode':
      case 'embedUrl':
        return this.special(token);
      default:
        return this.html(this.marked.parser([token]));
    }
  }

  private special(token: Token): string {
    if (token.type === 'embedUrl') {
      const url = (token as Tokens.Generic)['url'] as string;
      return block(
        'embed',
        `<figure class="wp-block-embed"><div class="wp-block-embed__wrapper">\n${url}\n</div></figure>`,
        { url },
      );
    }
    return block('shortcode', token.raw.trim());
  }

  private paragraph(p: Tokens.Paragraph): string {
    const meaningful = p.tokens.filter((t) => !(t.type === 'text' && !t.raw.trim()));
    if (meaningful.length === 1 && meaningful[0]!.type === 'image') {
      const img = meaningful[0] as Tokens.Image;
      const title = img.title ? ` title="${attr(img.title)}"` : '';
      return block(
        'image',
        `<figure class="wp-block-image"><img src="${attr(img.href)}" alt="${attr(img.text)}"${title}/></figure>`,
      );
    }
    const shortcodes =
      meaningful.length > 0 && meaningful.every((t) => t.type === 'shortcode' || t.type === 'br');
    if (shortcodes) return block('shortcode', p.text.trim());
    return block('paragraph', `<p>${this.inline(p.tokens)}</p>`);
  }

  private list(list: Tokens.List): string {
    const tag = list.ordered ? 'ol' : 'ul';
    const attrs: Record<string, unknown> = {};
    if (list.ordered) attrs['ordered'] = true;
    if (list.ordered && typeof list.start === 'number' && list.start !== 1) attrs['start'] = list.start;
    const items = list.items.map((item) => this.listItem(item)).join('');
    const start = attrs['start'] === undefined ? '' : ` start="${String(attrs['start'])}"`;
    return block('list', `<${tag}${start}>${items}</${tag}>`, attrs);
  }

  private listItem(item: Tokens.ListItem): string {
    let text = '';
    const nested: string[] = [];
    for (const t of item.tokens) {
      if (t.type === 'list') nested.push(this.list(t as Tokens.List));
      else if (t.type === 'text' || t.type === 'paragraph') {
        const inner = (t as Tokens.Text).tokens;
        text += (text ? '<br>' : '') + (inner ? this.inline(inner) : escapeText(t.raw));
      } else if (t.type === 'checkbox') text += this.marked.parser([t]);
      else if (t.type !== 'space') text += this.marked.parser([t]);
    }
    return block('list-item', `<li>${text}${nested.join('')}</li>`);
  }

  private table(table: Tokens.Table): string {
    // Column alignment is a cell attribute the table block writes as classes; kept exact as HTML instead.
    if (table.align.some((a) => a !== null)) return this.html(this.marked.parser([table]));
    const row = (cells: Tokens.TableCell[], tag: 'th' | 'td'): string =>
      `<tr>${cells.map((c) => `<${tag}>${this.inline(c.tokens)}</${tag}>`).join('')}</tr>`;
    const head = `<thead>${row(table.header, 'th')}</thead>`;
    const body = table.rows.length ? `<tbody>${table.rows.map((r) => row(r, 'td')).join('')}</tbody>` : '';
    return block('table', `<figure class="wp-block-table"><table>${head}${body}</table></figure>`);
  }
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeText(text: string): string {
  return text.replace(/&(?!#?\w+;)|[<>]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));
}
