// The words completion offers for `blog list --sort <field>`. The `--json <fields>` words are each command's
// own declaration (jsonFields in commands/define.ts).
/** `blog list --sort`: a field, or "-" and a field for descending. */
const SORT_FIELDS = ['title', 'createdAt', 'wordCount', 'status', 'id'];
export const SORT_VALUES = [...SORT_FIELDS, ...SORT_FIELDS.map((f) => `-${f}`)];
