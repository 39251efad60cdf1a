// The pure parts of the publish pipeline: term references from flags, layers → draft (terms kept aside,
// the date planned as UTC date_gmt, WordPress's refusals caught first), Markdown front matter as a layer.
// The rules used after a lost answer are in publish-recover.test.ts.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseMarkdownPost } from '../../src/publishing/sources/markdown.js';
import {
  contentFromFlags,
  contentFromObject,
  parseTermRefs,
} from '../../src/publishing/sources/post-payload.js';
import { buildPostDraft, frontMatterLayer } from '../../src/publishing/sources/publish-draft.js';

const now = new Date('2026-06-01T12:00:00Z');
const usage = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
};

describe('parseTermRefs', () => {
  it('keeps names and slugs, turns digits into numbers (ids, or number-only names: resolved on the site)', () => {
    expect(parseTermRefs(['News, 3', 'home-espresso'], '--category')).toEqual(['News', 3, 'home-espresso']);
    expect(parseTermRefs(undefined, '--tag')).toBeUndefined();
    expect(usage(() => parseTermRefs([' , '], '--tag'))).toBe('--tag: give a name, slug or id');
  });
});

describe('buildPostDraft', () => {
  const flags = (f: Parameters<typeof contentFromFlags>[0]) => [
    contentFromFlags({ title: 'T', content: 'C', ...f }),
  ];

  it('keeps term references aside and validates the rest', () => {
    const draft = buildPostDraft(flags({ category: ['News', '3'], tag: ['x'] }), { now });
    expect(draft).toEqual({
      content: { title: 'T', content: 'C', status: 'draft' },
      categories: ['News', 3],
      tags: ['x'],
      origin: { categories: '--category', tags: '--tag', title: '--title', content: '--content' },
      requestedStatus: 'draft',
      statusStated: false,
      warnings: [],
    });
  });

  it('refuses an empty or blank title or body before anything is sent, naming where it came from', () => {
    expect(usage(() => buildPostDraft(flags({ content: '' }), { now }))).toBe(
      'invalid post: --content: the post body is empty',
    );
    expect(usage(() => buildPostDraft(flags({ title: ' \t\n', content: '  ' }), { now }))).toBe(
      'invalid post: --title: the title is empty; --content: the post body is empty',
    );
    const file = [contentFromObject({ title: '', content: '<p>x</p>' }, 'post.json')];
    expect(usage(() => buildPostDraft(file, { now }))).toBe(
      'invalid post: post.json: content.title: the title is empty',
    );
    const markdown = parseMarkdownPost('---\ntitle: Only a title\n---\n\n', { path: 'post.md' });
    expect(usage(() => buildPostDraft([frontMatterLayer(markdown, 'post.md')], { now }))).toMatch(
      /^invalid post: .*post\.md.*: the post body is empty$/,
    );
    // Markup is the person's business: it is not blank.
    expect(buildPostDraft(flags({ content: '<p></p>' }), { now }).content.content).toBe('<p></p>');
  });

  it('sends the date as UTC date_gmt only', () => {
    const draft = buildPostDraft(flags({ status: 'future', date: '2026-12-01T09:00:00+02:00' }), { now });
    expect(draft.content).toEqual({
      title: 'T',
      content: 'C',
      status: 'future',
      date_gmt: '2026-12-01T07:00:00',
    });
    expect(draft.expectedStatus).toBe('future');
    const gmt = buildPostDraft(flags({ dateGmt: '2026-12-01 07:00' }), { now });
    expect(gmt.content.date_gmt).toBe('2026-12-01T07:00:00');
    expect(gmt.content).not.toHaveProperty('date');
  });

  it('refuses both dates, future without a date (unless forced), and sticky with a password', () => {
    expect(
      usage(() => buildPostDraft(flags({ date: '2026-12-01T09:00Z', dateGmt: '2026-12-01T09:00' }), { now })),
    ).toBe('give --date or --date-gmt, not both');
    expect(usage(() => buildPostDraft(flags({ status: 'future' }), { now }))).toContain(
      '--allow-immediate sends it anyway',
    );
    const forced = buildPostDraft(flags({ status: 'future' }), { now, allowImmediate: true });
    expect(forced.expectedStatus).toBe('publish');
    expect(forced.warnings[0]).toContain('WordPress publishes the post at once');
    expect(usage(() => buildPostDraft(flags({ sticky: true, postPassword: 'pw' }), { now }))).toBe(
      '--sticky and --post-password cannot go together: WordPress refuses a sticky post with a password',
    );
    // An empty password is no password.
    expect(buildPostDraft(flags({ sticky: true, postPassword: '' }), { now }).content.sticky).toBe(true);
  });

  it('warns about dates WordPress would reinterpret', () => {
    expect(
      usage(() => buildPostDraft(flags({ status: 'future', date: '2026-05-01T00:00:00Z' }), { now })),
    ).toMatch(/is in the past: .*--allow-immediate publishes it now anyway/);
    const past = buildPostDraft(flags({ status: 'future', date: '2026-05-01T00:00:00Z' }), {
      now,
      allowImmediate: true,
    });
    expect(past.warnings[0]).toMatch(/is in the past/);
    expect(past.expectedStatus).toBe('publish');
    const later = buildPostDraft(flags({ status: 'publish', date: '2026-07-01T00:00:00Z' }), { now });
    expect(later.expectedStatus).toBe('future');
  });

  it('names a bad file value by where it came from', () => {
    const file = contentFromObject({ title: 'T', content: 'C', categories: [true] }, 'post.json');
    expect(usage(() => buildPostDraft([file], { now }))).toBe(
      'post.json: content.categories: expected names, slugs or ids, got true',
    );
    const text = contentFromObject({ title: 'T', content: 'C', tags: 'a, 7' }, 'post.json');
    expect(buildPostDraft([text], { now }).tags).toEqual(['a', 7]);
  });
});

describe('frontMatterLayer', () => {
  it('maps front matter to fields, flags win, and featured_image stays out of the content', () => {
    const md = parseMarkdownPost(
      '---\nstatus: publish\ndate: 2026-12-01T09:00:00+01:00\ncategories: [News]\nfeatured_image: a.png\n---\n# Hi\n\nBody\n',
      { path: '/posts/hi.md' },
    );
    const draft = buildPostDraft([frontMatterLayer(md, 'hi.md'), contentFromFlags({ status: 'draft' })], {
      now,
    });
    expect(draft.content).toEqual({
      title: 'Hi',
      content: '<p>Body</p>\n',
      status: 'draft',
      date_gmt: '2026-12-01T08:00:00',
    });
    expect(draft.categories).toEqual(['News']);
    expect(
      usage(() =>
        buildPostDraft(
          [frontMatterLayer({ ...md, fields: { ...md.fields, status: 'future', date: 'soon' } }, 'hi.md')],
          { now },
        ),
      ),
    ).toContain('hi.md:3: date: "soon" is not an ISO 8601 date-time');
  });
});
