import { describe, expect, it } from 'vitest';
import { parsePositiveInt, parseSort, queryBlogs, withIdAlias } from '../../src/blogs/list-query.js';
import {
  BlogParamsError,
  applyCustomValues,
  draftBlogParams,
  dryRunBody,
  finishBlogParams,
  missingFields,
  missingFlags,
  parseBlogParamsFile,
  parseKeywords,
  parseLengthFlag,
  parseMeta,
  parseOptionFlag,
  type BlogParamFlags,
} from '../../src/blogs/params.js';
import { parseMetaValue } from '../../src/lib/meta-value.js';
import { contentFromFlags } from '../../src/publishing/sources/post-payload.js';
import { firstLines, htmlToText } from '../../src/blogs/text.js';
import type { Blog } from '../../src/schemas/blog.js';

const allFlags: BlogParamFlags = {
  keyword: ['home espresso'],
  language: 'English',
  tone: 'Friendly',
  structure: 'How-to guide',
  cta: 'Subscribe',
  audience: 'Beginners',
  length: 'short',
};

const fails = (fn: () => unknown, message: string | RegExp): void => {
  expect(fn).toThrow(BlogParamsError);
  expect(fn).toThrow(message);
};

describe('option flags', () => {
  it('a bare name is both name and value', () => {
    expect(parseOptionFlag('--tone', 'Friendly')).toEqual({ name: 'Friendly', value: 'Friendly' });
  });
  it('name=value splits at the first "="', () => {
    expect(parseOptionFlag('--tone', 'Friendly=friendly')).toEqual({ name: 'Friendly', value: 'friendly' });
    expect(parseOptionFlag('--cta', 'Buy=a=b')).toEqual({ name: 'Buy', value: 'a=b' });
  });
  it('refuses an empty name or value, naming the flag', () => {
    fails(() => parseOptionFlag('--tone', '=x'), '--tone: "=x" needs a name before "="');
    fails(() => parseOptionFlag('--tone', 'x='), '--tone: "x=" needs a value after "="');
    fails(() => parseOptionFlag('--audience', '  '), '--audience: must not be empty');
  });
  it('--length takes short|medium|long in any case', () => {
    expect(parseLengthFlag('short')).toEqual({ name: 'Short', value: 'Short' });
    expect(parseLengthFlag('MEDIUM')).toEqual({ name: 'Medium', value: 'Medium' });
    expect(parseLengthFlag('Quick read=LONG')).toEqual({ name: 'Quick read', value: 'Long' });
    fails(() => parseLengthFlag('huge'), '--length: "huge" must be short, medium or long');
  });
});

describe('keywords, links and meta', () => {
  it('-k is repeatable and comma-separated', () => {
    expect(parseKeywords(['a, b', 'c', ' , '])).toEqual(['a', 'b', 'c']);
    fails(() => parseKeywords([' , ']), '--keyword: give at least one keyword');
  });
  it('--meta values are JSON when they parse, text otherwise', () => {
    expect(
      parseMeta([
        'n=800',
        'ok=true',
        'none=null',
        'o={"a":1}',
        'l=[1,2]',
        's=hello',
        'q="02134"',
        'eq=a=b',
        'empty=',
      ]),
    ).toEqual({
      n: 800,
      ok: true,
      none: null,
      o: { a: 1 },
      l: [1, 2],
      s: 'hello',
      q: '02134',
      eq: 'a=b',
      empty: '',
    });
    expect(parseMetaValue('12345678901234567890')).toBe('12345678901234567890');
    expect(parseMetaValue('0123')).toBe('0123');
    fails(() => parseMeta(['novalue']), '--meta: expected key=value');
    fails(() => parseMeta(['=1']), '--meta: expected key=value');
  });
  it('--meta means the same in blog create and wp publish', () => {
    const values = ['n=1.0', 'm=800', 'q="02134"', 'z=007', 'b=true', 's=hi there'];
    const blog = parseMeta(values);
    expect(blog).toEqual({ n: '1.0', m: 800, q: '02134', z: '007', b: true, s: 'hi there' });
    expect(contentFromFlags({ meta: values }).values['meta']).toEqual(blog);
  });
  it('--link and --linked-blog-url must be http(s) URLs', () => {
    fails(
      () => draftBlogParams({ link: ['https://ok.example', 'ftp://x'] }),
      '--link: "ftp://x" must be an http(s) URL',
    );
    fails(
      () => draftBlogParams({ linkedBlogUrl: 'not a url' }),
      '--linked-blog-url: "not a url" must be an http(s) URL',
    );
  });
});

describe('flags → BlogParams', () => {
  it('builds every field from flags', () => {
    const draft = draftBlogParams({
      ...allFlags,
      keyword: ['a,b', 'c'],
      tone: 'Friendly=friendly',
      toneCustom: 'warm, no jargon',
      lengthCustom: 'about 300 words',
      category: 'Coffee',
      link: ['https://a.example/x'],
      linkedBlogUrl: 'https://blog.example',
      meta: ['source=cli', 'priority=2'],
    });
    expect(missingFields(draft.params)).toEqual([]);
    expect(finishBlogParams(draft)).toEqual({
      topicKeywords: ['a', 'b', 'c'],
      language: { name: 'English', value: 'English' },
      toneStyle: { name: 'Friendly', value: 'friendly', customValue: 'warm, no jargon' },
      contentStructure: { name: 'How-to guide', value: 'How-to guide' },
      callToAction: { name: 'Subscribe', value: 'Subscribe' },
      targetAudience: { name: 'Beginners', value: 'Beginners' },
      blogLength: { name: 'Short', value: 'Short', customValue: 'about 300 words' },
      category: 'Coffee',
      hyperlinks: ['https://a.example/x'],
      baseUrlForLinkedBlog: 'https://blog.example',
      metaData: { source: 'cli', priority: 2 },
    });
  });

  it('names every missing required flag, in prompt order', () => {
    const draft = draftBlogParams({
      language: 'English',
      structure: 'Listicle',
      cta: 'Subscribe',
      audience: 'Beginners',
    });
    const missing = missingFields(draft.params);
    expect(missing).toEqual(['topicKeywords', 'toneStyle', 'blogLength']);
    expect(missingFlags(missing)).toBe('--keyword, --tone, --length');
  });

  it('a --<opt>-custom flag alone does not satisfy the option, and lands once the option is chosen', () => {
    const flags: BlogParamFlags = { ...allFlags, tone: undefined, toneCustom: 'dry wit' };
    const draft = draftBlogParams(flags);
    expect(missingFields(draft.params)).toEqual(['toneStyle']);
    draft.params.toneStyle = { name: 'Humorous', value: 'Humorous' };
    applyCustomValues(draft, flags);
    expect(finishBlogParams(draft).toneStyle).toEqual({
      name: 'Humorous',
      value: 'Humorous',
      customValue: 'dry wit',
    });
  });
});

describe('-f file', () => {
  const file = {
    topicKeywords: ['from file'],
    language: { name: 'German', value: 'de' },
    toneStyle: { name: 'Formal', value: 'formal', customValue: 'Sie' },
    contentStructure: { name: 'Listicle', value: 'listicle' },
    callToAction: { name: 'Contact', value: 'contact' },
    targetAudience: { name: 'Pros', value: 'pros' },
    blogLength: { name: 'Long', value: 'Long' },
    metaData: { a: 1, b: 2 },
    hyperlinks: ['https://file.example'],
  };

  it('accepts bare BlogParams and {blogParams}', () => {
    expect(parseBlogParamsFile(JSON.stringify(file), 'p.json')).toEqual(file);
    expect(parseBlogParamsFile(JSON.stringify({ blogParams: file }), 'p.json')).toEqual(file);
  });

  it('refuses what is not a BlogParams object, naming the file', () => {
    fails(() => parseBlogParamsFile('{oops', 'p.json'), /^p\.json is not valid JSON/);
    fails(() => parseBlogParamsFile('[1]', 'p.json'), 'p.json: expected a JSON object');
    fails(() => parseBlogParamsFile('{"blogParams": 3}', 'p.json'), 'p.json: "blogParams" must be an object');
    fails(
      () => parseBlogParamsFile('{"blogParams": {}, "x": 1}', 'p.json'),
      '"blogParams" must be the only top-level field (also found x)',
    );
  });

  it("flags override the file; --meta merges key by key; --tone-custom alone keeps the file's tone", () => {
    const draft = draftBlogParams(
      { keyword: ['flag kw'], length: 'short', meta: ['b=3', 'c=x'], audienceCustom: 'new to coffee' },
      { params: structuredClone(file), label: 'p.json' },
    );
    const params = finishBlogParams(draft);
    expect(params.topicKeywords).toEqual(['flag kw']);
    expect(params.blogLength).toEqual({ name: 'Short', value: 'Short' });
    expect(params.language).toEqual(file.language);
    expect(params.toneStyle).toEqual(file.toneStyle);
    expect(params.targetAudience).toEqual({ name: 'Pros', value: 'pros', customValue: 'new to coffee' });
    expect(params.metaData).toEqual({ a: 1, b: 3, c: 'x' });
    expect(params.hyperlinks).toEqual(['https://file.example']);
  });

  it("an option flag replaces the file's whole object, customValue included", () => {
    const draft = draftBlogParams({ tone: 'Casual' }, { params: structuredClone(file), label: 'p.json' });
    expect(finishBlogParams(draft).toneStyle).toEqual({ name: 'Casual', value: 'Casual' });
  });

  it('problems in the file name the file and the field; unknown fields are refused', () => {
    const bad = { ...file, blogLength: { name: 'Huge', value: 'Huge' }, hyperlinks: ['ftp://x'] };
    fails(
      () => draftBlogParams({}, { params: bad, label: 'p.json' }),
      'p.json: blogLength.value: must be one of Short, Medium, Long; p.json: hyperlinks[0]: must be an http(s) URL',
    );
    fails(
      () => draftBlogParams({}, { params: { ...file, tone: 'x' }, label: 'p.json' }),
      'p.json: unknown field tone',
    );
    // The language option has no customValue (spec 2.4).
    fails(
      () =>
        draftBlogParams(
          {},
          { params: { ...file, language: { name: 'a', value: 'b', customValue: 'c' } }, label: 'p.json' },
        ),
      /p\.json: .*customValue/,
    );
  });

  it('a flag fixes a bad file value', () => {
    const bad = { ...file, blogLength: { name: 'Huge', value: 'Huge' } };
    expect(
      finishBlogParams(draftBlogParams({ length: 'long' }, { params: bad, label: 'p.json' })).blogLength
        .value,
    ).toBe('Long');
  });
});

describe('dry run body', () => {
  it('nests under blogParams and hides the provider key', () => {
    const params = finishBlogParams(draftBlogParams(allFlags));
    expect(dryRunBody({ ...params, externalProviderApiKey: 'sk-secret' })).toEqual({
      blogParams: { ...params, externalProviderApiKey: '***' },
    });
    expect(dryRunBody(params)).toEqual({ blogParams: params });
  });
});

describe('list query', () => {
  const blogs: Blog[] = [
    { _id: 'b', title: 'Espresso at home', createdAt: '2026-01-02T00:00:00Z', wordCount: 300 },
    {
      _id: 'a',
      title: 'Tea for two',
      createdAt: '2026-01-03T00:00:00Z',
      wordCount: 1200,
      topicKeywords: ['ESPRESSO alternatives'],
    },
    { _id: 'c', title: 'Grinders', wordCount: 80 },
  ];
  it('sorts ascending, descending (-field), numbers as numbers, missing values last', () => {
    expect(queryBlogs(blogs, { sort: parseSort('createdAt') }).map((b) => b._id)).toEqual(['b', 'a', 'c']);
    expect(queryBlogs(blogs, { sort: parseSort('-createdAt') }).map((b) => b._id)).toEqual(['a', 'b', 'c']);
    expect(queryBlogs(blogs, { sort: parseSort('-wordCount') }).map((b) => b._id)).toEqual(['a', 'b', 'c']);
    expect(queryBlogs(blogs, { sort: parseSort('id') }).map((b) => b._id)).toEqual(['a', 'b', 'c']);
  });
  it('searches id, title and keywords case-insensitively, then limits', () => {
    expect(queryBlogs(blogs, { search: 'espresso' }).map((b) => b._id)).toEqual(['b', 'a']);
    expect(
      queryBlogs(blogs, { search: 'espresso', sort: parseSort('-createdAt'), limit: 1 }).map((b) => b._id),
    ).toEqual(['a']);
  });
  it('refuses bad --limit and --sort values', () => {
    fails(() => parsePositiveInt('--limit', '0'), '--limit: expected a whole number from 1');
    fails(() => parsePositiveInt('--limit', '2.5'), '--limit');
    fails(() => parseSort('-'), '--sort: "-" is not a field name');
  });
  it('id is an alias of _id for field selection', () => {
    expect(withIdAlias(blogs[0]!)).toMatchObject({ id: 'b', _id: 'b' });
    expect(withIdAlias({ _id: 'x', title: 't', id: 'own' })['id']).toBe('own');
  });
});

describe('blog text', () => {
  it('strips HTML into lines and decodes entities', () => {
    expect(
      htmlToText(
        '<h1>Title &amp; more</h1><p>One&nbsp;two <a href="x">link</a>.</p><ul><li>a</li><li>b &#8212; c</li></ul>',
      ),
    ).toBe('Title & more\nOne two link.\na\nb — c');
    expect(firstLines({ _id: 'x', title: 't', content: '<p>1</p><p>2</p><p>3</p><p>4</p>' }, 3)).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(firstLines({ _id: 'x', title: 't' }, 3)).toEqual([]);
  });
});
