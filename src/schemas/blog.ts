// BlogParams (spec 2.4), the create request (4.3), and the Blog record (2.5) from blog-record.ts.
import * as z from 'zod/mini';
import { httpUrl } from './url.js';

const nonEmpty = () => z.string().check(z.trim(), z.minLength(1));

/** `language` has only name and value (spec 2.4). */
export const languageOption = z.strictObject({ name: nonEmpty(), value: nonEmpty() });

export const optionObject = z.strictObject({
  name: nonEmpty(),
  value: nonEmpty(),
  customValue: z.optional(z.string()),
});

export const blogLengthValues = ['Short', 'Medium', 'Long'] as const;
export const blogLengthOption = z.strictObject({
  name: nonEmpty(),
  value: z.enum(blogLengthValues),
  customValue: z.optional(z.string()),
});

export { httpUrl };

export const blogParams = z.strictObject({
  topicKeywords: z.array(nonEmpty()).check(z.minLength(1)),
  language: languageOption,
  toneStyle: optionObject,
  contentStructure: optionObject,
  callToAction: optionObject,
  targetAudience: optionObject,
  blogLength: blogLengthOption,
  // Typed as required but annotated optional in the specification: optional on input.
  category: z.optional(z.string()),
  hyperlinks: z.optional(z.array(httpUrl())),
  baseUrlForLinkedBlog: z.optional(httpUrl()),
  metaData: z.optional(z.record(z.string(), z.unknown())),
  externalProviderApiKey: z.optional(z.string()),
});
export type BlogParams = z.infer<typeof blogParams>;
export type OptionObject = z.infer<typeof optionObject>;
export type BlogLength = (typeof blogLengthValues)[number];

export const createBlogRequest = z.strictObject({ blogParams });

export type { Blog } from './blog-record.js';
/**
 * The Blog record as a zod schema, for what composes it (the sandbox's stored records). The CLI checks the
 * records it receives with blog-record.ts, which answers as these do (test/unit/blog-record.test.ts).
 */
export const blog = z.looseObject({ _id: z.string(), title: z.string() });
export const blogList = z.array(blog);

/** The names of the required BlogParams fields, in the order a person is asked for them. */
export const requiredBlogParamFields = [
  'topicKeywords',
  'language',
  'toneStyle',
  'contentStructure',
  'callToAction',
  'targetAudience',
  'blogLength',
] as const;
