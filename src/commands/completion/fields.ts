// The words completion offers for `--json <fields>` (per command) and `blog list --sort <field>`. A command
// whose output depends on its flags (`--dry-run`, `--publish`) offers the fields of every form. Kept apart
// from the verb files, which completion never loads; test/commands/completion-fields.test.ts checks every
// fixed list against the fields the command itself accepts (its "unknown field … (available: …)" error).
import { OUTPUT_FIELDS as DELETE_FIELDS } from '../blog/delete.js';
import { OUTPUT_FIELDS as BATCH_FIELDS, PLAN_FIELDS, SINGLE_FIELDS } from '../wp/publish-output.js';
import { SITE_VIEW_FIELDS } from '../wp/sites/fields.js';

import { BLOG_FIELDS } from '../../blogs/fields.js';

export { BLOG_FIELDS };

const union = (...lists: (readonly string[])[]): string[] => [...new Set(lists.flat())];
const SETTINGS_FIELDS = ['settings', 'success', 'integration'];

/** `--json` fields by command path (the canonical names joined by spaces). */
export const JSON_FIELDS: Record<string, string[]> = {
  'auth login': ['profile', 'baseUrl', 'key', 'verified'],
  'auth status': [
    'profile',
    'baseUrl',
    'baseUrlSource',
    'apiKey',
    'apiKeySource',
    'accepted',
    'problem',
    'profiles',
  ],
  'auth switch': ['profile', 'previous'],
  'auth logout': ['profile', 'removed', 'activeUnset'],
  'config get': ['key', 'value', 'default'],
  'config set': ['key', 'value'],
  'config unset': ['key', 'removed'],
  'config list': ['profile', 'settings', 'defaults'],
  'config path': ['dir', 'config', 'credentials'],
  'blog create': union(BLOG_FIELDS, ['blogParams', 'blog', 'publish']),
  'blog list': [...BLOG_FIELDS],
  'blog show': [...BLOG_FIELDS],
  'blog delete': [...DELETE_FIELDS],
  'wp sites add': [...SITE_VIEW_FIELDS],
  'wp sites list': [...SITE_VIEW_FIELDS],
  'wp sites show': [...SITE_VIEW_FIELDS],
  'wp sites verify': [
    'id',
    'url',
    'valid',
    'verifiedAt',
    'restRoot',
    'permalinks',
    'applicationPasswords',
    'siteName',
    'user',
    'can',
  ],
  'wp sites remove': ['id', 'removed', 'defaultUnset'],
  'wp settings update': SETTINGS_FIELDS,
  'wp settings replace': SETTINGS_FIELDS,
  'wp publish': union(SINGLE_FIELDS, BATCH_FIELDS, PLAN_FIELDS),
};

/** `blog list --sort`: a field, or "-" and a field for descending. */
const SORT_FIELDS = ['title', 'createdAt', 'wordCount', 'status', 'id'];
export const SORT_VALUES = [...SORT_FIELDS, ...SORT_FIELDS.map((f) => `-${f}`)];
