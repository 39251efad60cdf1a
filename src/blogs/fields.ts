// The `--json` fields of a blog (`blog list`, `blog show`, `blog create`): what the service documents
// (spec 2.5: `_id` and `title` at least), what it and the sandbox send, and `id` (the same as `_id`). A
// field outside this list is refused before anything is read or sent (exit 2), as every command's unknown
// field is; `a.b` reaches into a known field; bare `--json` prints every field the service sent, and `--jq`
// reaches any of them.
export const BLOG_FIELDS: readonly string[] = [
  'id',
  '_id',
  'title',
  'slug',
  'excerpt',
  'content',
  'wordCount',
  'createdAt',
  'status',
  'language',
  'category',
  'topicKeywords',
  'targetAudience',
  'toneStyle',
  'contentStructure',
  'blogLength',
  'metaData',
];
