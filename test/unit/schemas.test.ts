// Every field and allowed value of the specification (service-api.md sections 2 and 4), valid and invalid,
// table by table. The allowed values are written out here from the specification, not imported from the
// schemas, so a schema that drops or loosens a value fails a test instead of agreeing with itself.
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import type { Schema } from '../../src/schemas/validate.js';
import { blog, blogList } from '../../src/schemas/blog-record.js';
import {
  blogParams,
  createBlogRequest,
  languageOption,
  optionObject,
  requiredBlogParamFields,
} from '../../src/schemas/blog.js';
import {
  credentials,
  openClosed,
  postContent,
  postContentFields,
  postFormats,
  postStatuses,
} from '../../src/schemas/wordpress.js';
import {
  partialCredentials,
  siteIntegration,
  siteIntegrationPatch,
  updateSettingsRequest,
  updateSettingsResponse,
} from '../../src/schemas/wordpress-settings.js';
import { normalisePublishResponse, publishRequest } from '../../src/schemas/wordpress-publish.js';

type Obj = Record<string, unknown>;

const accepts = (schema: Schema, input: unknown): boolean => schema.safeParse(input).success;

/** A field's cases: each valid value passes and each invalid one fails, with every other field valid. */
interface FieldCases {
  field: string;
  valid: unknown[];
  invalid: unknown[];
  /** Absent: required fields fail without it, optional ones pass. */
  required: boolean;
}

function fieldTable(name: string, schema: z.ZodMiniType, base: Obj, table: FieldCases[]): void {
  describe(name, () => {
    it('accepts the valid base object and refuses an unknown field', () => {
      expect(accepts(schema, base)).toBe(true);
      expect(accepts(schema, { ...base, notInTheSpec: 'x' })).toBe(false);
    });
    for (const { field, valid, invalid, required } of table) {
      it.each(valid.map((v) => [JSON.stringify(v), v]))(`${field}: accepts %s`, (_label, value) => {
        expect(accepts(schema, { ...base, [field]: value })).toBe(true);
      });
      it.each(invalid.map((v) => [JSON.stringify(v) ?? String(v), v]))(
        `${field}: refuses %s`,
        (_label, value) => {
          expect(accepts(schema, { ...base, [field]: value })).toBe(false);
        },
      );
      it(`${field}: is ${required ? 'required' : 'optional'}`, () => {
        const { [field]: _dropped, ...without } = base;
        expect(accepts(schema, without)).toBe(!required);
      });
    }
  });
}

const URLS_VALID = ['https://blog.example.com', 'http://localhost:8080/wp', 'https://example.com/a?b=1'];
const URLS_INVALID = ['blog.example.com', 'not a url', 'ftp://example.com', 'javascript:alert(1)', '', 42];
const STRINGS_INVALID = [42, true, null, ['x'], { x: 1 }];
const BOOLEANS_INVALID = ['true', 1, 0, null, 'yes'];

// 2.1 — the three members, required in a publish request and optional in a settings update.
const fullCredentials = {
  websiteUrl: 'https://blog.example.com',
  username: 'editor',
  password: 'abcd efgh ijkl mnop qrst uvwx',
};
const credentialCases = (required: boolean): FieldCases[] => [
  { field: 'websiteUrl', valid: URLS_VALID, invalid: URLS_INVALID, required },
  { field: 'username', valid: ['editor', 'jane.doe@example.com'], invalid: STRINGS_INVALID, required },
  { field: 'password', valid: ['abcd efgh ijkl mnop qrst uvwx'], invalid: STRINGS_INVALID, required },
];
fieldTable('2.1 credentials in a publish request: all required', credentials, fullCredentials, [
  ...credentialCases(true),
]);
fieldTable('2.1 credentials in a settings update: all optional', partialCredentials, fullCredentials, [
  ...credentialCases(false),
]);
describe('2.1 credentials, as wholes', () => {
  it('a settings update may carry none of them; a publish request needs all three', () => {
    expect(accepts(partialCredentials, {})).toBe(true);
    expect(accepts(credentials, {})).toBe(false);
  });
});

// 2.2 — the site integration: `id` required in the typed shape, optional in a single-object update.
const site = {
  id: 'site-1',
  label: 'My blog',
  isIntegrated: true,
  isWebsiteValid: false,
  autoPublish: true,
  credentials: fullCredentials,
};
const siteCases = (idRequired: boolean): FieldCases[] => [
  { field: 'id', valid: ['site-1', 'a'], invalid: STRINGS_INVALID, required: idRequired },
  { field: 'label', valid: ['My blog', ''], invalid: STRINGS_INVALID, required: false },
  { field: 'isIntegrated', valid: [true, false], invalid: BOOLEANS_INVALID, required: false },
  { field: 'isWebsiteValid', valid: [true, false], invalid: BOOLEANS_INVALID, required: false },
  { field: 'autoPublish', valid: [true, false], invalid: BOOLEANS_INVALID, required: false },
  {
    field: 'credentials',
    // Any subset of the members (2.1, settings update).
    valid: [fullCredentials, {}, { password: 'new pass' }, { websiteUrl: 'https://new.example' }],
    invalid: [
      'editor:pass',
      null,
      { websiteUrl: 'not a url' },
      { username: 5 },
      { ...fullCredentials, token: 'x' },
    ],
    required: false,
  },
];
fieldTable('2.2 site integration (typed shape, list replacement)', siteIntegration, site, siteCases(true));
fieldTable('2.2 site integration (single-object update)', siteIntegrationPatch, site, siteCases(false));

// 2.3 — the 18 post fields.
const SPEC_POST_FIELDS = [
  'title',
  'content',
  'status',
  'date',
  'date_gmt',
  'slug',
  'password',
  'author',
  'excerpt',
  'featured_media',
  'comment_status',
  'ping_status',
  'format',
  'meta',
  'sticky',
  'template',
  'categories',
  'tags',
];
const SPEC_STATUSES = ['publish', 'draft', 'pending', 'private', 'future'];
const SPEC_FORMATS = [
  'standard',
  'aside',
  'chat',
  'gallery',
  'link',
  'image',
  'quote',
  'status',
  'video',
  'audio',
];
const SPEC_OPEN_CLOSED = ['open', 'closed'];
const DATES_VALID = [
  '2026-12-01T09:00:00Z',
  '2026-12-01T09:00:00+02:00',
  '2026-12-01T09:00:00.123-05:30',
  // Site-local time, as WordPress takes `date`.
  '2026-12-01T09:00:00',
];
const DATES_INVALID = [
  'tomorrow',
  '2026-12-01',
  '2026-13-01T09:00:00Z',
  '2026-12-01 09:00:00',
  '01/12/2026 09:00',
  '',
  1764579600000,
  null,
];
const IDS_VALID = [0, 1, 4711];
const IDS_INVALID = ['7', 1.5, -1, null, true, [7]];
const ID_ARRAYS_VALID = [[], [1], [3, 5, 8]];
const ID_ARRAYS_INVALID = [[1, '2'], ['news'], [1.5], 3, '3,5', null];
const post = { title: 'Hello', content: '<p>Hi</p>', status: 'draft' };
const optionalString = (field: string): FieldCases => ({
  field,
  valid: ['', 'some text'],
  invalid: STRINGS_INVALID,
  required: false,
});

describe('2.3 post content: the field list', () => {
  it('has exactly the 18 fields of the specification', () => {
    expect([...postContentFields].sort()).toEqual([...SPEC_POST_FIELDS].sort());
  });

  it('lists exactly the allowed values of the specification', () => {
    expect([...postStatuses]).toEqual(SPEC_STATUSES);
    expect([...postFormats]).toEqual(SPEC_FORMATS);
    expect([...openClosed]).toEqual(SPEC_OPEN_CLOSED);
  });

  it('accepts a post with every field set', () => {
    const full = {
      ...post,
      status: 'future',
      date: '2026-12-01T09:00:00',
      date_gmt: '2026-12-01T08:00:00Z',
      slug: 'hello',
      password: 'secret',
      author: 2,
      excerpt: 'Hi',
      featured_media: 31,
      comment_status: 'closed',
      ping_status: 'open',
      format: 'audio',
      meta: { views: 0 },
      sticky: true,
      template: 'wide.php',
      categories: [1, 4],
      tags: [9],
    };
    expect(Object.keys(full)).toHaveLength(18);
    expect(postContent.parse(full)).toEqual(full);
  });
});

fieldTable('2.3 post content', postContent, post, [
  { field: 'title', valid: ['Hello', ''], invalid: STRINGS_INVALID, required: true },
  { field: 'content', valid: ['<p>Hi</p>', ''], invalid: STRINGS_INVALID, required: true },
  {
    field: 'status',
    valid: SPEC_STATUSES,
    invalid: ['published', 'Publish', 'scheduled', 'trash', '', 1, null],
    required: true,
  },
  { field: 'date', valid: DATES_VALID, invalid: DATES_INVALID, required: false },
  { field: 'date_gmt', valid: DATES_VALID, invalid: DATES_INVALID, required: false },
  optionalString('slug'),
  optionalString('password'),
  { field: 'author', valid: IDS_VALID, invalid: IDS_INVALID, required: false },
  optionalString('excerpt'),
  { field: 'featured_media', valid: IDS_VALID, invalid: IDS_INVALID, required: false },
  {
    field: 'comment_status',
    valid: SPEC_OPEN_CLOSED,
    invalid: ['Open', 'closed ', 'moderated', '', true, null],
    required: false,
  },
  {
    field: 'ping_status',
    valid: SPEC_OPEN_CLOSED,
    invalid: ['Open', 'closed ', 'moderated', '', true, null],
    required: false,
  },
  {
    field: 'format',
    valid: SPEC_FORMATS,
    invalid: ['Standard', 'post', 'audio-video', '', 0, null],
    required: false,
  },
  {
    field: 'meta',
    valid: [{}, { views: 3, note: 'x', nested: { a: [1] } }],
    invalid: ['views=3', [], ['x'], null, 3],
    required: false,
  },
  { field: 'sticky', valid: [true, false], invalid: BOOLEANS_INVALID, required: false },
  optionalString('template'),
  { field: 'categories', valid: ID_ARRAYS_VALID, invalid: ID_ARRAYS_INVALID, required: false },
  { field: 'tags', valid: ID_ARRAYS_VALID, invalid: ID_ARRAYS_INVALID, required: false },
]);

// 2.4 — BlogParams and its option objects.
const option = { name: 'Friendly', value: 'friendly' };
const optionCases = (customValue: boolean): FieldCases[] => [
  { field: 'name', valid: ['Friendly'], invalid: ['', '   ', ...STRINGS_INVALID], required: true },
  { field: 'value', valid: ['friendly'], invalid: ['', '   ', ...STRINGS_INVALID], required: true },
  ...(customValue
    ? [
        {
          field: 'customValue',
          valid: ['Warm but to the point', ''],
          invalid: STRINGS_INVALID,
          required: false,
        },
      ]
    : []),
];
fieldTable('2.4 option object', optionObject, option, optionCases(true));
fieldTable('2.4 language: name and value only', languageOption, { name: 'English', value: 'en' }, [
  ...optionCases(false),
]);

const params = {
  topicKeywords: ['home espresso', 'grinder'],
  language: { name: 'English', value: 'en' },
  toneStyle: { name: 'Friendly', value: 'Friendly' },
  contentStructure: { name: 'How-to guide', value: 'How-to guide' },
  callToAction: { name: 'Subscribe', value: 'Subscribe to our newsletter' },
  targetAudience: { name: 'Beginners', value: 'coffee beginners' },
  blogLength: { name: 'Short', value: 'Short' },
};
const optionField = (field: string, extraInvalid: unknown[] = []): FieldCases => ({
  field,
  valid: [option, { ...option, customValue: 'my own words' }],
  invalid: [
    'Friendly',
    { name: 'Friendly' },
    { value: 'friendly' },
    { ...option, customValue: 5 },
    { ...option, extra: 'x' },
    null,
    ...extraInvalid,
  ],
  required: true,
});

describe('2.4 BlogParams: the field list', () => {
  it('has the fields of the specification, the seven required ones in order', () => {
    expect(Object.keys(blogParams.shape).sort()).toEqual(
      [
        ...Object.keys(params),
        'category',
        'hyperlinks',
        'baseUrlForLinkedBlog',
        'metaData',
        'externalProviderApiKey',
      ].sort(),
    );
    expect([...requiredBlogParamFields]).toEqual(Object.keys(params));
  });
});

fieldTable('2.4 BlogParams', blogParams, params, [
  {
    field: 'topicKeywords',
    valid: [['espresso'], ['home espresso', 'grinder', 'milk']],
    invalid: [[], 'espresso', [''], ['espresso', 5], null],
    required: true,
  },
  {
    field: 'language',
    valid: [
      { name: 'English', value: 'en' },
      { name: 'German', value: 'de' },
    ],
    // `language` has no customValue (2.4).
    invalid: [{ name: 'English', value: 'en', customValue: 'British English' }, 'en', { name: 'English' }],
    required: true,
  },
  optionField('toneStyle'),
  optionField('contentStructure'),
  optionField('callToAction'),
  optionField('targetAudience'),
  {
    field: 'blogLength',
    valid: [
      { name: 'Short', value: 'Short' },
      { name: 'Medium', value: 'Medium' },
      { name: 'Long', value: 'Long' },
      { name: 'About 800 words', value: 'Medium', customValue: 'a bit longer' },
    ],
    invalid: [
      { name: 'Short', value: 'short' },
      { name: 'Huge', value: 'Huge' },
      { name: 'x', value: 'LONG' },
      { name: 'x', value: '' },
      { name: 'x', value: 300 },
      { name: 'Short', value: 'Short', customValue: 5 },
      'Short',
    ],
    required: true,
  },
  { field: 'category', valid: ['Coffee', ''], invalid: STRINGS_INVALID, required: false },
  {
    field: 'hyperlinks',
    valid: [[], ['https://example.com/a'], URLS_VALID],
    invalid: [['not a url'], ['https://ok.example', 'ftp://no.example'], 'https://example.com', [42]],
    required: false,
  },
  { field: 'baseUrlForLinkedBlog', valid: URLS_VALID, invalid: URLS_INVALID, required: false },
  {
    field: 'metaData',
    valid: [{}, { campaign: 'spring', priority: 2, tags: ['a'] }],
    invalid: ['campaign=spring', [], null, 1],
    required: false,
  },
  {
    field: 'externalProviderApiKey',
    valid: ['sk-provider-123'],
    invalid: STRINGS_INVALID,
    required: false,
  },
]);

describe('4.3 create-blog request', () => {
  it('takes the parameters nested under blogParams, and nothing else', () => {
    expect(accepts(createBlogRequest, { blogParams: params })).toBe(true);
    expect(accepts(createBlogRequest, params)).toBe(false);
    expect(accepts(createBlogRequest, { blogParams: params, topicKeywords: ['x'] })).toBe(false);
    expect(accepts(createBlogRequest, {})).toBe(false);
    expect(accepts(createBlogRequest, { blogParams: [params] })).toBe(false);
  });
});

// 2.5 — the Blog: `_id` and `title` required, every other field kept.
describe('2.5 Blog', () => {
  it('needs _id and title as strings', () => {
    expect(accepts(blog, { _id: '65f1c0ffee', title: 'Hello' })).toBe(true);
    expect(accepts(blog, { title: 'Hello' })).toBe(false);
    expect(accepts(blog, { _id: '65f1c0ffee' })).toBe(false);
    expect(accepts(blog, { _id: 65, title: 'Hello' })).toBe(false);
    expect(accepts(blog, { _id: '65f1c0ffee', title: null })).toBe(false);
    expect(accepts(blog, 'Hello')).toBe(false);
  });

  it('keeps the fields the specification does not show', () => {
    const record = {
      _id: '65f1c0ffee',
      title: 'Hello',
      content: '<p>x</p>',
      createdAt: '2026-01-01T00:00:00Z',
      nested: { a: 1 },
    };
    expect(blog.safeParse(record)).toEqual({ success: true, data: record });
    expect(blogList.safeParse([record, { _id: 'b', title: 'B' }])).toEqual({
      success: true,
      data: [record, { _id: 'b', title: 'B' }],
    });
    expect(accepts(blogList, [record, { title: 'no id' }])).toBe(false);
  });
});

// 4.1 — update settings.
describe('4.1 update-settings request', () => {
  it('takes a single partial object: every field optional, id included', () => {
    for (const settings of [
      {},
      { label: 'Renamed' },
      { id: 'site-1', autoPublish: false },
      { credentials: { password: 'new pass' } },
      site,
    ]) {
      expect(accepts(updateSettingsRequest, { settings })).toBe(true);
    }
  });

  it('takes an array replacing the list, each element with an id', () => {
    expect(accepts(updateSettingsRequest, { settings: [] })).toBe(true);
    expect(accepts(updateSettingsRequest, { settings: [site, { id: 'site-2' }] })).toBe(true);
    expect(accepts(updateSettingsRequest, { settings: [site, { label: 'no id' }] })).toBe(false);
  });

  it('refuses a missing or malformed settings value and fields of the wrong type', () => {
    for (const body of [
      {},
      { settings: 'site-1' },
      { settings: null },
      { settings: { isIntegrated: 'yes' } },
      { settings: [{ id: 'a', autoPublish: 1 }] },
      { settings: { credentials: { websiteUrl: 'nope' } } },
      { settings: {}, extra: true },
      site,
    ]) {
      expect(accepts(updateSettingsRequest, body), JSON.stringify(body)).toBe(false);
    }
  });
});

describe('4.1 update-settings response', () => {
  it('takes success with one integration, a list, or none, keeping unknown fields', () => {
    const { credentials: _c, ...shown } = site;
    for (const body of [
      { success: true },
      { success: false },
      { success: true, integration: shown },
      { success: true, integration: [shown, { id: 'site-2' }] },
      { success: true, integration: { ...shown, credentials: { websiteUrl: 'https://x.example' } } },
    ]) {
      expect(accepts(updateSettingsResponse, body), JSON.stringify(body)).toBe(true);
    }
    const extra = { success: true, updatedAt: '2026-01-01T00:00:00Z' };
    expect(updateSettingsResponse.parse(extra)).toEqual(extra);
  });

  it('refuses a body without a boolean success or with a malformed integration', () => {
    for (const body of [
      {},
      { success: 'true' },
      { integration: site },
      { success: true, integration: 'site-1' },
      { success: true, integration: { isIntegrated: 'yes' } },
      { success: true, integration: [{ id: 5 }] },
    ]) {
      expect(accepts(updateSettingsResponse, body), JSON.stringify(body)).toBe(false);
    }
  });
});

// 4.2 — publish.
describe('4.2 publish request', () => {
  it('needs all three credentials and the post content', () => {
    expect(accepts(publishRequest, { credentials: fullCredentials, content: post })).toBe(true);
    for (const member of Object.keys(fullCredentials)) {
      const { [member]: _dropped, ...partial } = fullCredentials as Obj;
      expect(accepts(publishRequest, { credentials: partial, content: post }), member).toBe(false);
    }
    for (const field of ['title', 'content', 'status']) {
      const { [field]: _dropped, ...partial } = post as Obj;
      expect(accepts(publishRequest, { credentials: fullCredentials, content: partial }), field).toBe(false);
    }
    expect(accepts(publishRequest, { content: post })).toBe(false);
    expect(accepts(publishRequest, { credentials: fullCredentials })).toBe(false);
    expect(
      accepts(publishRequest, { credentials: fullCredentials, content: { ...post, status: 'live' } }),
    ).toBe(false);
  });
});

describe('4.2 publish response: both shapes normalised into one result', () => {
  it.each([
    [
      'typed, published',
      { isPublished: true, link: 'https://b.example/?p=7', id: '7', status: 'publish', type: 'post' },
      {
        published: true,
        shape: 'typed',
        id: '7',
        link: 'https://b.example/?p=7',
        status: 'publish',
        type: 'post',
      },
    ],
    [
      'typed, a numeric id and a draft',
      { isPublished: true, link: 'https://b.example/?p=8', id: 8, status: 'draft', type: 'post' },
      {
        published: true,
        shape: 'typed',
        id: '8',
        link: 'https://b.example/?p=8',
        status: 'draft',
        type: 'post',
      },
    ],
    [
      'typed, not published: the reason is in status (rule 3)',
      {
        isPublished: false,
        link: '',
        id: '',
        status: 'Sorry, you are not allowed to create posts',
        type: '',
      },
      { published: false, shape: 'typed', reason: 'Sorry, you are not allowed to create posts' },
    ],
    [
      'typed, not published: status wins over a message',
      { isPublished: false, status: 'rest_cannot_create: not allowed', message: 'Publishing failed' },
      { published: false, shape: 'typed', reason: 'rest_cannot_create: not allowed' },
    ],
    [
      'typed, not published, reason only in message',
      { isPublished: false, message: 'site unreachable' },
      { published: false, shape: 'typed', reason: 'site unreachable' },
    ],
    [
      'alt, published',
      { success: true, postUrl: 'https://b.example/hello/', postId: 12 },
      { published: true, shape: 'alt', id: '12', link: 'https://b.example/hello/' },
    ],
    [
      'alt, not published',
      { success: false, message: 'invalid credentials' },
      { published: false, shape: 'alt', reason: 'invalid credentials' },
    ],
  ])('%s', (_label, body, expected) => {
    expect(normalisePublishResponse(body)).toEqual(expected);
  });

  it('answers undefined for a body in neither shape', () => {
    for (const body of [
      {},
      { isPublished: 'yes' },
      { success: 'true', postUrl: 'x' },
      { link: 'https://b.example' },
      [],
      'published',
      null,
    ]) {
      expect(normalisePublishResponse(body), JSON.stringify(body)).toBeUndefined();
    }
  });

  it('refuses fields of the wrong type in either shape', () => {
    expect(normalisePublishResponse({ isPublished: true, link: 5, id: '1' })).toBeUndefined();
    expect(normalisePublishResponse({ isPublished: true, id: { n: 1 } })).toBeUndefined();
    expect(normalisePublishResponse({ success: true, postId: [1] })).toBeUndefined();
  });
});
