// The provider generator's pure parts: cleaning a model's Markdown, rendering it safe, the provider's
// reason with the key scrubbed out, the outline parser, the prompt files and their placeholders, and the
// provider settings.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { providerReason, scrubKey } from '../../src/sandbox/provider-chat.js';
import { providerFromEnv } from '../../src/sandbox/provider-config.js';
import { parseOutline, postValues } from '../../src/sandbox/provider-outline.js';
import { cleanSection, renderMarkdown, safeUrl, unsafeHtml } from '../../src/sandbox/provider-markdown.js';
import { PROMPTS, fillPrompt, loadPrompts } from '../../src/sandbox/provider-prompts.js';
import { blogParamsFor } from '../helpers/sandbox.js';

describe('cleanSection', () => {
  it('unwraps a fence around the whole answer and drops a preamble and a closing remark', () => {
    const md = cleanSection(
      "Sure! Here's the section:\n\n```markdown\nBody text here.\n\n- a list\n```\n\nI hope this helps!",
      'Intro',
    );
    expect(md).toBe('Body text here.\n\n- a list');
  });

  it('drops an H1 (ATX and setext) and a repeat of the heading; the model ## goes one level down', () => {
    const md = cleanSection('# Title\n\n## Intro\n\nText.\n\nOther Title\n===\n\n## Sub\n\nMore.', 'Intro');
    expect(md).not.toMatch(/^# |Title|===/m);
    expect(md).toContain('### Sub');
    expect(md.startsWith('Text.')).toBe(true);
  });

  it('keeps a code block inside the text', () => {
    const md = cleanSection('Use this:\n\n```sh\n# not a heading\nls\n```\n\nDone.', 'Intro');
    expect(md).toContain('# not a heading');
  });
});

describe('renderMarkdown', () => {
  it.each([
    ['<script>alert(1)</script>', /<script/i],
    ['<img src=x onerror=alert(1)>', /<img|onerror/i],
    ['[x](javascript:alert(1))', /href/],
    ['[x](JAVASCRIPT:alert(1))', /href/],
    ['[x](data:text/html;base64,PHNjcmlwdD4=)', /href/],
    ['<javascript:alert(1)>', /href/],
    ['![i](javascript:alert(1))', /<img/],
    ['<a href="javascript:x" onclick="y">t</a>', /<a |onclick/],
    ['<iframe src="https://evil.example"></iframe>', /<iframe/],
  ])('never lets %s through as markup', (input, forbidden) => {
    const html = renderMarkdown(`Text ${input} more.`);
    expect(html).not.toMatch(forbidden);
    expect(unsafeHtml(html)).toBeUndefined();
  });

  it('keeps http(s), mailto and relative links, and images from http(s)', () => {
    const html = renderMarkdown(
      '[a](https://e.example/x?y=1&z=2) [b](mailto:me@e.example) [c](/posts/1) ![d](https://e.example/i.png)',
    );
    expect(html).toContain('href="https://e.example/x?y=1&amp;z=2"');
    expect(html).toContain('href="mailto:me@e.example"');
    expect(html).toContain('href="/posts/1"');
    expect(html).toContain('<img src="https://e.example/i.png"');
  });

  it('safeUrl refuses schemes hidden behind case, control characters and white space', () => {
    for (const url of ['javascript:x', ' JavaScript:x', 'java\tscript:x', 'vbscript:x', 'data:,x'])
      expect(safeUrl(url), url).toBe(false);
    for (const url of ['https://a.example', 'http://a', 'mailto:a@b', '/x', '#top', 'page.html'])
      expect(safeUrl(url), url).toBe(true);
  });

  it('unsafeHtml finds what would run', () => {
    expect(unsafeHtml('<p onclick="x">t</p>')).toBe('an event handler');
    expect(unsafeHtml('<a href="javascript&#58;alert(1)">t</a>')).toBeDefined();
    expect(unsafeHtml('<p>JavaScript: the good parts</p>')).toBeUndefined();
  });
});

describe("the provider's reason", () => {
  const key = 'sk-proj-abcdef1234567890wxyz';

  it('reads OpenAI error objects, and scrubs the key whole, masked and in pieces', () => {
    const body = JSON.stringify({
      error: {
        message: `Incorrect API key provided: sk-p**************wxyz. Key ${key} or ${key.slice(0, 12)}.`,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    const reason = providerReason(body, key);
    expect(reason).toContain('Incorrect API key provided: [key]');
    expect(reason).toContain('(invalid_api_key)');
    expect(reason).not.toContain(key.slice(0, 6));
    expect(reason).not.toContain('wxyz');
  });

  it('reads a bare {"error": "…"} and plain text, on one printable line', () => {
    expect(providerReason('{"error":"model \\"x\\" not found, try pulling it first"}', undefined)).toBe(
      'model "x" not found, try pulling it first',
    );
    expect(providerReason('<html><title>502</title>\u001b[31mBad\ngateway</html>', undefined)).toBe(
      '502 [31mBad gateway',
    );
  });

  it('scrubKey leaves ordinary words alone', () => {
    expect(scrubKey('the model is busy', 'sk-abc123')).toBe('the model is busy');
  });
});

describe('parseOutline', () => {
  it('takes the JSON out of a fenced answer', () => {
    const outline = parseOutline(
      'Here you go:\n```json\n{"title":"T","slug":"t","excerpt":"E","sections":[{"heading":"A","points":"p","words":100}]}\n```',
    );
    expect(outline).toMatchObject({ title: 'T', sections: [{ heading: 'A', words: 100 }] });
  });

  it('keeps the title and excerpt plain text', () => {
    const outline = parseOutline(
      '{"title":"# Best <script>x</script> <b>beans</b>","excerpt":"A <img src=x onerror=y>start","sections":[{"heading":"A"}]}',
    );
    expect(outline).toMatchObject({ title: 'Best x beans', excerpt: 'A start' });
  });

  it.each([
    ['no JSON', 'no JSON object'],
    ['{"title": "T"', 'no JSON object'],
    ['{"title": }', 'does not parse'],
    ['{"sections": [{"heading": "A"}]}', 'no "title"'],
    ['{"title": "T", "sections": []}', 'no "sections"'],
    ['{"title": "T", "sections": [{"points": "p"}]}', 'without a "heading"'],
  ])('says what is wrong with %s', (text, problem) => {
    expect(parseOutline(text)).toContain(problem);
  });
});

describe('prompts', () => {
  it('ships every prompt, each using only its own placeholders', () => {
    const set = loadPrompts();
    expect(Object.keys(set).sort()).toEqual(Object.keys(PROMPTS).sort());
  });

  it('fills every parameter in, custom values first, "(none)" for what was not given', () => {
    const values = postValues({
      ...blogParamsFor(),
      toneStyle: { name: 'Friendly', value: 'Friendly', customValue: 'dry wit' },
      hyperlinks: ['https://a.example/'],
    });
    expect(values).toMatchObject({
      keywords: '"home espresso", "grinder"',
      tone: 'dry wit',
      language: 'English (en)',
      hyperlinks: 'https://a.example/',
      category: '(none)',
      targetWords: '300',
    });
    expect(fillPrompt('{tone} and {unknownThing}', values)).toBe('dry wit and {unknownThing}');
  });

  it('a --prompts directory replaces files by name; an unknown file or placeholder is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-prompts-'));
    writeFileSync(join(dir, 'system.md'), 'Be brief; write in {language}.');
    writeFileSync(join(dir, 'notes.txt'), 'not a prompt');
    expect(loadPrompts(dir).system).toBe('Be brief; write in {language}.');
    writeFileSync(join(dir, 'outline.md'), 'Plan {heading}.');
    expect(() => loadPrompts(dir)).toThrow(/outline\.md line 1: unknown placeholder \{heading\}/);
    const other = join(dir, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'sections.md'), 'x');
    expect(() => loadPrompts(other)).toThrow(/sections\.md is not a prompt blogctl uses/);
    expect(() => loadPrompts(join(dir, 'missing'))).toThrow(/no such directory/);
  });
});

describe('provider settings', () => {
  it('nothing without a URL; a URL needs a model; the URL is checked', () => {
    expect(providerFromEnv({})).toBeUndefined();
    expect(() => providerFromEnv({ BLOGCTL_PROVIDER_URL: 'http://127.0.0.1:11434/v1' })).toThrow(
      /needs a model/,
    );
    expect(() => providerFromEnv({ BLOGCTL_MODEL: 'm' })).toThrow(/needs a provider/);
    expect(() => providerFromEnv({ BLOGCTL_PROVIDER_URL: 'ftp://x', BLOGCTL_MODEL: 'm' })).toThrow(/http/);
    expect(() => providerFromEnv({ BLOGCTL_PROVIDER_URL: 'http://u:p@x/v1', BLOGCTL_MODEL: 'm' })).toThrow(
      /no credentials/,
    );
    expect(
      providerFromEnv({ BLOGCTL_PROVIDER_URL: 'http://127.0.0.1:11434/v1/', BLOGCTL_MODEL: 'm' }),
    ).toMatchObject({ url: 'http://127.0.0.1:11434/v1', model: 'm' });
    expect(() =>
      providerFromEnv({
        BLOGCTL_PROVIDER_URL: 'http://x/v1',
        BLOGCTL_MODEL: 'm',
        BLOGCTL_PROVIDER_TIMEOUT: 'soon',
      }),
    ).toThrow(/BLOGCTL_PROVIDER_TIMEOUT/);
  });
});
