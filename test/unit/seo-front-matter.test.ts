// Front matter `seo: {title, description, focus_keyword, canonical, noindex}` and blogctl.yml's
// `defaults.seo`: each field checked as the SEO plugins store it, a problem named at its own line
// (`posts/a.md:4: seo.canonical: …`), the project's defaults under the file's own, and kept out of the post's
// WordPress fields (they go to the SEO plugin).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { loadProject } from '../../src/project/project-file.js';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import { projectLayer } from '../../src/publishing/sources/project-defaults.js';
import { buildPostDraft, frontMatterLayer } from '../../src/publishing/sources/publish-draft.js';

const post = (front: string) =>
  parseMarkdownPost(`---\ntitle: Hello\n${front}---\nBody\n`, { path: 'posts/a.md', cwd: '/x' });

const problemOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('no error');
};

describe('front matter seo:', () => {
  it('reads the five fields, trimmed', () => {
    const parsed = post(
      'seo:\n  title: " Short title "\n  description: A description\n  focus_keyword: keyword\n  canonical: https://example.com/a\n  noindex: true\n',
    );
    expect(parsed.fields.seo).toEqual({
      title: 'Short title',
      description: 'A description',
      focus_keyword: 'keyword',
      canonical: 'https://example.com/a',
      noindex: true,
    });
    expect(parsed.ignoredKeys).not.toContain('seo');
  });

  it('names each bad field at its own line', () => {
    expect(problemOf(() => post('seo:\n  title: T\n  canonical: /relative\n'))).toBe(
      'posts/a.md:5: seo.canonical: expected an absolute http(s) URL, got "/relative"',
    );
    expect(problemOf(() => post('seo:\n  noindex: "yes"\n'))).toBe(
      'posts/a.md:4: seo.noindex: expected true or false, got "yes"',
    );
    expect(problemOf(() => post('seo:\n  titel: T\n'))).toBe(
      'posts/a.md:4: seo.titel: unknown SEO field (known: title, description, focus_keyword, canonical, noindex)',
    );
    expect(problemOf(() => post('seo: My title\n'))).toBe(
      'posts/a.md:3: seo: expected a mapping of title, description, focus_keyword, canonical, noindex, got string "My title"',
    );
  });

  it("takes '' as a clear of the field on the site", () => {
    const draft = buildPostDraft([frontMatterLayer(post('seo:\n  description: ""\n'), 'posts/a.md')], {
      now: new Date(),
    });
    expect(draft.seo).toEqual({ description: '' });
  });

  it('goes to the draft, not to the post fields', () => {
    const parsed = post('seo:\n  title: T\n');
    const draft = buildPostDraft([frontMatterLayer(parsed, 'posts/a.md')], { now: new Date() });
    expect(draft.seo).toEqual({ title: 'T' });
    expect(draft.content).not.toHaveProperty('seo');
    const none = buildPostDraft([frontMatterLayer(post(''), 'posts/a.md')], { now: new Date() });
    expect(none.seo).toBeUndefined();
  });
});

describe('blogctl.yml defaults.seo', () => {
  const project = (yml: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'blogctl-seo-defaults-'));
    writeFileSync(join(dir, 'blogctl.yml'), yml);
    return loadProject(join(dir, 'blogctl.yml'));
  };

  it('under the front matter, field by field', () => {
    const p = project(
      'namespace: seo-defaults\ndefaults:\n  seo:\n    noindex: true\n    description: Site-wide\n',
    );
    expect(p.defaults.seo).toEqual({ description: 'Site-wide', noindex: true });
    const layers = [
      ...projectLayer({ namespace: p.namespace, root: p.root, project: p, kind: 'project' }),
      frontMatterLayer(post('seo:\n  description: Own\n'), 'posts/a.md'),
    ];
    expect(buildPostDraft(layers, { now: new Date() }).seo).toEqual({ description: 'Own', noindex: true });
  });

  it('a bad default is named at its line in blogctl.yml', () => {
    expect(
      problemOf(() => project('namespace: seo-defaults\ndefaults:\n  seo:\n    canonical: nowhere\n')),
    ).toMatch(/blogctl\.yml:4: defaults\.seo\.canonical: expected an absolute http\(s\) URL/);
  });
});
