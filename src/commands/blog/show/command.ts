import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return (
    verb('show', {
      description: 'show one blog post; --field prints one field raw (e.g. the HTML content)',
      jsonFields: () => import('../../../blogs/fields.js').then((m) => m.BLOG_FIELDS),
      examples: [
        'blogctl blog show 6650c0ffee0000000000abcd',
        'blogctl blog show 6650c0ffee0000000000abcd --markdown > posts/espresso.md   # then: wp publish posts/',
        'blogctl blog show 6650c0ffee0000000000abcd --field content > post.html',
        'blogctl blog show 6650c0ffee0000000000abcd --json title,createdAt',
      ],
    })
      // Optional in commander's eyes only so that `show --json <id>` can recover the id (see action.ts).
      .argument('[id]', 'the blog id (_id)')
      .option(
        '--field <name>',
        'print only this field: text exactly as stored (no newline added when piped), other values as JSON',
      )
      .option(
        '--markdown',
        "print the post as Markdown that wp publish reads back (title, slug, excerpt, blog_id): the file's post is the blog's, the same as wp publish --from-blog <id>",
      )
  );
}

export type Input = InputOf<typeof declare>;
export const show = defineVerb(declare, () => import('./action.js'));
