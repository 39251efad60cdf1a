import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseMetaPair, parseMetaValue } from '../../src/lib/meta-value.js';

const metaPair = (pair: string, flag: string) => parseMetaPair(pair, flag, UsageError);
import {
  buildPostContent,
  contentFromFlags,
  contentFromObject,
  parsePublishFile,
  parseTermIds,
  publishSummary,
} from '../../src/publishing/sources/post-payload.js';
import { redactCredentials, stripPasswords } from '../../src/sites/profiles.js';
import { normalisePublishResponse } from '../../src/schemas/wordpress-publish.js';

const usage = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
};

describe('--meta key=value', () => {
  it('types JSON numbers, booleans, null, objects and arrays; keeps everything else as text', () => {
    expect(metaPair('views=5', '--meta')).toEqual(['views', 5]);
    expect(metaPair('ratio=0.25', '--meta')).toEqual(['ratio', 0.25]);
    expect(metaPair('on=true', '--meta')).toEqual(['on', true]);
    expect(metaPair('none=null', '--meta')).toEqual(['none', null]);
    expect(metaPair('obj={"a":[1,2]}', '--meta')).toEqual(['obj', { a: [1, 2] }]);
    expect(metaPair('list=[1,"x"]', '--meta')).toEqual(['list', [1, 'x']]);
    expect(metaPair('name=hello world', '--meta')).toEqual(['name', 'hello world']);
    expect(metaPair('quoted="x"', '--meta')).toEqual(['quoted', 'x']);
    expect(metaPair('eq=a=b', '--meta')).toEqual(['eq', 'a=b']);
    expect(metaPair('empty=', '--meta')).toEqual(['empty', '']);
  });

  it('never alters a number JSON would change', () => {
    expect(parseMetaValue('007')).toBe('007');
    expect(parseMetaValue('1.0')).toBe('1.0');
    expect(parseMetaValue('1e400')).toBe('1e400');
    expect(parseMetaValue('12345678901234567890')).toBe('12345678901234567890');
    expect(parseMetaValue(' 5')).toBe(' 5');
  });

  it('rejects pairs without a key or "=" naming the flag', () => {
    expect(usage(() => metaPair('novalue', '--meta'))).toContain('--meta: expected key=value');
    expect(usage(() => metaPair('=x', '--meta'))).toContain('--meta');
  });

  it('never crashes: any text is a pair or a UsageError', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          const [key] = metaPair(text, '--meta');
          expect(key.length).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(UsageError);
        }
      }),
    );
  });
});

describe('term ids', () => {
  it('accepts repeated and comma-separated ids', () => {
    expect(parseTermIds(['3', '4, 5'], '--category')).toEqual([3, 4, 5]);
    expect(parseTermIds(undefined, '--tag')).toBeUndefined();
  });
  it('names the flag for a non-numeric id (payload ids; flags take names through parseTermRefs)', () => {
    expect(usage(() => parseTermIds(['news'], '--category'))).toBe(
      '--category: expected a numeric id, got "news"',
    );
    expect(usage(() => parseTermIds([','], '--tag'))).toContain('--tag');
  });
});

describe('contentFromFlags + buildPostContent', () => {
  it('maps every flag to its field and defaults status to draft', () => {
    const content = buildPostContent([
      contentFromFlags({
        title: 'Hello',
        content: '<p>Hi</p>',
        date: '2026-12-01T09:00:00',
        dateGmt: '2026-12-01T08:00:00Z',
        slug: 'hello',
        excerpt: 'short',
        author: '2',
        featuredMedia: '0',
        commentStatus: 'closed',
        pingStatus: 'open',
        format: 'aside',
        meta: ['a=1', 'b=text'],
        sticky: false,
        template: 'single.php',
        category: ['3,4'],
        tag: ['7'],
        postPassword: 'letmein',
      }),
    ]);
    expect(content).toEqual({
      title: 'Hello',
      content: '<p>Hi</p>',
      status: 'draft',
      date: '2026-12-01T09:00:00',
      date_gmt: '2026-12-01T08:00:00Z',
      slug: 'hello',
      excerpt: 'short',
      author: 2,
      featured_media: 0,
      comment_status: 'closed',
      ping_status: 'open',
      format: 'aside',
      meta: { a: 1, b: 'text' },
      sticky: false,
      template: 'single.php',
      categories: [3, 4],
      tags: [7],
      password: 'letmein',
    });
  });

  it('leaves unset flags out entirely (sticky undefined is not false)', () => {
    expect(buildPostContent([contentFromFlags({ title: 'T', content: 'C' })])).toEqual({
      title: 'T',
      content: 'C',
      status: 'draft',
    });
  });

  it('lets flags override a file, merging meta key by key', () => {
    const file = contentFromObject(
      { title: 'From file', content: '<p>file</p>', status: 'publish', meta: { a: 1, b: 2 } },
      'post.json',
    );
    const content = buildPostContent([file, contentFromFlags({ title: 'From flag', meta: ['b=3'] })]);
    expect(content).toEqual({
      title: 'From flag',
      content: '<p>file</p>',
      status: 'publish',
      meta: { a: 1, b: 3 },
    });
  });

  it('names the flag that supplied a bad value', () => {
    expect(
      usage(() => buildPostContent([contentFromFlags({ title: 'T', content: 'C', status: 'live' })])),
    ).toContain('--status: must be one of publish');
    expect(
      usage(() => buildPostContent([contentFromFlags({ title: 'T', content: 'C', date: 'tomorrow' })])),
    ).toContain('--date: must be a valid ISO 8601');
    expect(
      usage(() => buildPostContent([contentFromFlags({ title: 'T', content: 'C', format: 'poem' })])),
    ).toContain('--format: must be one of standard');
    expect(
      usage(() => buildPostContent([contentFromFlags({ title: 'T', content: 'C', author: 'me' })])),
    ).toContain('--author: expected a numeric id');
  });

  it('names the file field that supplied a bad value, and unknown fields', () => {
    const bad = contentFromObject({ title: 'T', content: 'C', comment_status: 'maybe' }, 'post.json');
    expect(usage(() => buildPostContent([bad]))).toContain(
      'post.json: content.comment_status: must be one of open, closed',
    );
    const unknown = contentFromObject({ title: 'T', content: 'C', colour: 'red' }, 'post.json');
    expect(usage(() => buildPostContent([unknown]))).toContain('unknown field post.json: content.colour');
    const badItem = contentFromObject({ title: 'T', content: 'C', tags: [1, 'x'] }, 'post.json');
    expect(usage(() => buildPostContent([badItem]))).toContain('post.json: content.tags (tags[1])');
  });

  it('names the flags for missing required fields', () => {
    const message = usage(() => buildPostContent([contentFromFlags({})]));
    expect(message).toContain('--title is required');
    expect(message).toContain('--content is required');
  });

  it('never crashes on arbitrary flag values: content or a UsageError', () => {
    fc.assert(
      fc.property(
        fc.record(
          {
            title: fc.string(),
            content: fc.string(),
            status: fc.oneof(fc.constantFrom('publish', 'draft', 'future'), fc.string()),
            date: fc.oneof(
              fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
              fc.string(),
            ),
            author: fc.string(),
            meta: fc.array(fc.string()),
            category: fc.array(fc.string()),
            sticky: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        (flags) => {
          try {
            const content = buildPostContent([contentFromFlags(flags)]);
            expect(typeof content.title).toBe('string');
          } catch (error) {
            expect(error).toBeInstanceOf(UsageError);
          }
        },
      ),
    );
  });
});

describe('parsePublishFile', () => {
  it('accepts {content}, {credentials, content} and a bare content object', () => {
    expect(parsePublishFile({ content: { title: 'T' } }, 'p.json')).toEqual({ content: { title: 'T' } });
    const creds = { websiteUrl: 'https://x.test', username: 'u', password: 'pw-1234' };
    expect(parsePublishFile({ credentials: creds, content: { title: 'T' } }, 'p.json')).toEqual({
      credentials: creds,
      content: { title: 'T' },
    });
    expect(parsePublishFile({ title: 'T', content: '<p>x</p>' }, 'p.json')).toEqual({
      content: { title: 'T', content: '<p>x</p>' },
    });
  });
  it('rejects other shapes naming the file', () => {
    expect(usage(() => parsePublishFile([1], 'p.json'))).toContain('p.json');
    expect(usage(() => parsePublishFile({ content: {}, extra: 1 }, 'p.json'))).toContain(
      'unknown field extra',
    );
    expect(usage(() => parsePublishFile({ credentials: 'x', content: {} }, 'p.json'))).toContain(
      'credentials must be an object',
    );
  });
});

describe('publish answers', () => {
  it('summarises both response shapes the same way', () => {
    const typed = normalisePublishResponse({
      isPublished: true,
      link: 'https://x.test/p/',
      id: '12',
      status: 'publish',
      type: 'post',
    })!;
    const alt = normalisePublishResponse({
      success: true,
      postUrl: 'https://x.test/p/',
      postId: 12,
      status: 'publish',
      type: 'post',
    })!;
    const expected = {
      published: true,
      id: '12',
      link: 'https://x.test/p/',
      status: 'publish',
      type: 'post',
    };
    expect(publishSummary(typed)).toEqual(expected);
    expect(publishSummary(alt)).toEqual(expected);
    expect(publishSummary(normalisePublishResponse({ success: true, postId: 3 })!)).toEqual({
      published: true,
      id: '3',
      link: null,
      status: null,
      type: null,
    });
  });
});

describe('password hygiene', () => {
  it('redactCredentials masks every credentials.password, deep', () => {
    const body = {
      settings: [{ id: 'a', credentials: { username: 'u', password: 'secret-1' } }, { id: 'b' }],
      content: { password: 'post-pw' },
    };
    expect(redactCredentials(body)).toEqual({
      settings: [{ id: 'a', credentials: { username: 'u', password: '***' } }, { id: 'b' }],
      content: { password: 'post-pw' },
    });
    expect(body.settings[0]!.credentials!.password).toBe('secret-1');
  });
  it('stripPasswords removes every password field', () => {
    expect(
      stripPasswords({ success: true, integration: [{ credentials: { password: 'x', username: 'u' } }] }),
    ).toEqual({
      success: true,
      integration: [{ credentials: { username: 'u' } }],
    });
  });
});
