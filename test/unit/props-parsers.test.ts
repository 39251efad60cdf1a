// Property-based tests of every input parser: flags, key=value pairs, dates, option objects, JSON files and
// schemas. For any input, each either returns a value or fails with a usage error (exit 2) and a message —
// never a TypeError, a RangeError, a stack overflow or a hang.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../src/errors.js';
import { parseMetaPair, parseMetaValue } from '../../src/lib/meta-value.js';
import { jsonFields, pick } from '../../src/output/json.js';
import { parsePositiveInt, parseSort } from '../../src/blogs/list-query.js';
import {
  BlogParamsError,
  draftBlogParams,
  finishBlogParams,
  missingFields,
  parseBlogParamsFile,
  parseKeywords,
  parseLengthFlag,
  parseMeta,
  parseOptionFlag,
  parseUrlFlag,
  type BlogParamFlags,
} from '../../src/blogs/params.js';
import {
  buildPostContent,
  contentFromFlags,
  contentFromObject,
  parseId,
  parsePublishFile,
  parseTermIds,
  type PostFlags,
} from '../../src/publishing/sources/post-payload.js';
import { checkSiteId, checkSiteUrl } from '../../src/sites/profiles.js';
import { blog, blogList, blogParams, createBlogRequest } from '../../src/schemas/blog.js';
import { check, formatIssues } from '../../src/schemas/validate.js';
import { postContent } from '../../src/schemas/wordpress.js';
import {
  siteIntegration,
  updateSettingsRequest,
  updateSettingsResponse,
} from '../../src/schemas/wordpress-settings.js';
import { normalisePublishResponse, publishRequest } from '../../src/schemas/wordpress-publish.js';

/** Runs a parser: a value, or a usage error (BlogParamsError is what the blog verbs turn into one) with a message. */
function outcome(run: () => unknown): 'value' | 'usage' {
  try {
    run();
    return 'value';
  } catch (error) {
    const usage = error instanceof UsageError || error instanceof BlogParamsError;
    if (!usage) throw new Error(`not a usage error: ${String(error)}`, { cause: error });
    expect((error as Error).message.trim().length).toBeGreaterThan(0);
    if (error instanceof UsageError) expect(error.exitCode).toBe(ExitCode.usage);
    return 'usage';
  }
}

// Text that looks like what people type, plus the awkward characters parsers trip on.
const word = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    ' ',
    '=',
    '==',
    'a=',
    '=b',
    'a=b=c',
    ',',
    ' , ',
    'short',
    'MEDIUM',
    'Long=long',
    'x=long',
    '\u0000',
  ),
  fc.constantFrom(
    'https://example.com',
    'http://[::1]:8080/a',
    'ftp://x',
    'https://',
    'javascript:alert(1)',
    'http://a b',
  ),
  fc.constantFrom(
    '1',
    '-1',
    '1e400',
    '9007199254740993',
    '00',
    '1.0',
    'NaN',
    'Infinity',
    'true',
    'null',
    '"q"',
    '{"a":1}',
    '[',
  ),
  fc.constantFrom('__proto__', 'constructor', 'toString', '__proto__=1', 'constructor=x', 'hasOwnProperty=1'),
  fc.constantFrom(
    '2026-12-01T09:00:00Z',
    '2026-12-01T09:00:00',
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    'tomorrow',
  ),
);
const words = fc.array(word, { maxLength: 5 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

describe('blog create flags and files', () => {
  it('single-flag parsers', () => {
    fc.assert(
      fc.property(word, word, (flag, raw) => {
        outcome(() => parseOptionFlag(`--${flag}`, raw));
        outcome(() => parseLengthFlag(raw));
        outcome(() => parseUrlFlag('--link', raw));
        outcome(() => parseMetaValue(raw));
      }),
      { numRuns: 500 },
    );
  });

  it('repeatable flags', () => {
    fc.assert(
      fc.property(words, (values) => {
        outcome(() => parseKeywords(values));
        outcome(() => parseMeta(values));
      }),
      { numRuns: 500 },
    );
  });

  it('parses `Friendly` and `name=value` option syntax as documented', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && !s.includes('=')),
        (name) => {
          expect(parseOptionFlag('--tone', name)).toEqual({ name: name.trim(), value: name.trim() });
        },
      ),
    );
  });

  it('--meta never lets a key reach the prototype', () => {
    fc.assert(
      fc.property(words, (values) => {
        try {
          const meta = parseMeta(values);
          expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
          expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
        } catch (error) {
          expect(error).toBeInstanceOf(BlogParamsError);
        }
      }),
    );
    parseMeta(['__proto__={"polluted":1}']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  const flags: fc.Arbitrary<BlogParamFlags> = fc.record(
    {
      keyword: words,
      language: word,
      tone: word,
      toneCustom: word,
      structure: word,
      structureCustom: word,
      cta: word,
      ctaCustom: word,
      audience: word,
      audienceCustom: word,
      length: word,
      lengthCustom: word,
      category: word,
      link: words,
      linkedBlogUrl: word,
      meta: words,
    },
    { requiredKeys: [] },
  );
  const fileText = fc.oneof(
    fc.string(),
    fc.json(),
    fc.anything().map((v) => JSON.stringify({ blogParams: v }) ?? '{}'),
    fc
      .dictionary(
        fc.constantFrom(
          'topicKeywords',
          'language',
          'toneStyle',
          'blogLength',
          'metaData',
          'hyperlinks',
          'x',
        ),
        fc.jsonValue(),
      )
      .map((o) => JSON.stringify(o)),
  );

  it('flags over a -f file, then the full schema', () => {
    fc.assert(
      fc.property(flags, maybe(fileText), (f, text) => {
        outcome(() => {
          const file =
            text === undefined
              ? undefined
              : { params: parseBlogParamsFile(text, 'params.json'), label: 'params.json' };
          const draft = draftBlogParams(f, file);
          missingFields(draft.params);
          if (!missingFields(draft.params).length) finishBlogParams(draft);
        });
      }),
      { numRuns: 500 },
    );
  });
});

describe('wp publish flags and payload files', () => {
  it('key=value, ids and term lists', () => {
    fc.assert(
      fc.property(word, word, words, (pair, id, list) => {
        outcome(() => parseMetaPair(pair, '--meta', UsageError));
        outcome(() => parseMetaValue(pair));
        outcome(() => parseId(id, '--author'));
        outcome(() => parseTermIds(list, '--tag'));
      }),
      { numRuns: 500 },
    );
  });

  it('parseId accepts exactly the whole numbers it can represent', () => {
    fc.assert(
      fc.property(fc.nat({ max: 999_999_999_999_999 }), (n) => {
        expect(parseId(String(n), '--author')).toBe(n);
      }),
    );
  });

  it('parseMetaValue keeps any text it would change, and round-trips what it parses', () => {
    fc.assert(
      fc.property(word, (text) => {
        const value = parseMetaValue(text);
        // Kept as typed, or read as JSON (a quoted string included) exactly as JSON reads it.
        if (value !== text) expect(JSON.parse(text)).toEqual(value);
        else expect(typeof value).toBe('string');
      }),
    );
  });

  const postFlags: fc.Arbitrary<PostFlags> = fc.record(
    {
      title: word,
      content: word,
      status: fc.oneof(word, fc.constantFrom('draft', 'publish', 'future')),
      date: word,
      dateGmt: word,
      slug: word,
      excerpt: word,
      author: word,
      featuredMedia: word,
      commentStatus: fc.oneof(word, fc.constantFrom('open', 'closed')),
      pingStatus: word,
      format: fc.oneof(word, fc.constantFrom('standard', 'aside')),
      meta: words,
      sticky: fc.boolean(),
      template: word,
      category: words,
      tag: words,
      postPassword: word,
    },
    { requiredKeys: [] },
  );

  it('flags and a payload file into validated content', () => {
    fc.assert(
      fc.property(
        postFlags,
        maybe(fc.oneof(fc.anything(), fc.record({ content: fc.anything(), credentials: fc.anything() }))),
        (f, raw) => {
          outcome(() => {
            const layers = [contentFromFlags(f)];
            if (raw !== undefined) {
              const file = parsePublishFile(raw, 'payload.json');
              if (file.content) layers.unshift(contentFromObject(file.content, 'payload.json'));
            }
            buildPostContent(layers);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('site ids and URLs', () => {
    fc.assert(
      fc.property(word, (raw) => {
        outcome(() => checkSiteId(raw));
        outcome(() => checkSiteUrl(raw));
      }),
      { numRuns: 500 },
    );
  });
});

describe('list flags and --json', () => {
  it('--json fields, --sort and --limit', () => {
    fc.assert(
      fc.property(fc.oneof(word, fc.boolean(), fc.constant(undefined)), word, (json, raw) => {
        const kind = outcome(() => jsonFields(json));
        if (typeof json !== 'string') expect(kind).toBe('value');
        outcome(() => parseSort(raw));
        outcome(() => parsePositiveInt('--limit', raw));
      }),
      { numRuns: 500 },
    );
  });

  it('picks fields from any value without throwing', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        fc.array(fc.oneof(word, fc.constantFrom('a.b', 'title', '_id', '__proto__'))),
        (value, fields) => {
          pick(value, fields.length ? fields : undefined);
        },
      ),
    );
  });
});

describe('schemas', () => {
  const schemas = {
    blogParams,
    createBlogRequest,
    blog,
    blogList,
    postContent,
    publishRequest,
    siteIntegration,
    updateSettingsRequest,
    updateSettingsResponse,
  };
  const input = fc.oneof(
    fc.anything(),
    fc.object(),
    fc.dictionary(
      fc.constantFrom('_id', 'title', 'blogParams', 'settings', 'credentials', 'content', 'status', 'date'),
      fc.anything(),
    ),
  );

  it('check() returns a value or field issues, never throws', () => {
    fc.assert(
      fc.property(input, (value) => {
        for (const [name, schema] of Object.entries(schemas)) {
          const result = check(schema, value);
          if (!result.ok) {
            expect(result.issues.length, name).toBeGreaterThan(0);
            for (const issue of result.issues) {
              expect(typeof issue.path).toBe('string');
              expect(issue.message.length).toBeGreaterThan(0);
            }
            expect(typeof formatIssues(result.issues)).toBe('string');
          }
        }
        const normalised = normalisePublishResponse(value);
        if (normalised) expect(typeof normalised.published).toBe('boolean');
      }),
      { numRuns: 1_000 },
    );
  });
});
