// The post flags shared by `wp publish` and `blog create --publish`, declared once; what was given is read
// back from the declaration (givenPostFlags, postArgs), so a flag added here is covered everywhere. Only
// commander and the schema's choice lists: this file is on the start-up path of both groups.
import { Command } from 'commander';
import type { Command as TypedCommand, OptionValues } from '@commander-js/extra-typings';
import { postFormats, postStatuses } from '../../schemas/wordpress-values.js';
import { collect, option } from '../define.js';

export type PostFlagsTarget = 'wp publish' | 'blog create';

/** blog create's names for the post's category and meta: there --category and --meta are the blog's. */
export const BLOG_CREATE_NAMES: Readonly<Record<string, string>> = {
  '--category': '--wp-category',
  '--meta': '--post-meta',
};

/** The post's category flag: `blog create`'s own --category is the blog's. */
type CategoryFlag<T extends PostFlagsTarget> = T extends 'wp publish' ? '--category' : '--wp-category';
/** The post's meta flag: `blog create`'s own --meta is the blog's. */
type MetaFlag<T extends PostFlagsTarget> = T extends 'wp publish' ? '--meta' : '--post-meta';

/**
 * Adds the post flags to a command, typed as declared for its action. `blog create` already has `--category`
 * and `--meta` for the generation parameters (the blog's), so there the post's are `--wp-category` and
 * `--post-meta`.
 */
export function addPostOptions<
  A extends unknown[],
  O extends OptionValues,
  G extends OptionValues,
  T extends PostFlagsTarget,
>(command: TypedCommand<A, O, G>, target: T) {
  // blog create: the post flags are groups of their own in its help. The post's fields apply with --publish
  // or --save (they also go into a --save file's front matter); how a post is sent, only with --publish.
  const [categoryFlag, metaFlag] = ['--category', '--meta'].map((flag) =>
    target === 'wp publish' ? flag : BLOG_CREATE_NAMES[flag]!,
  ) as [CategoryFlag<T>, MetaFlag<T>];
  const sendGroup = target === 'blog create' ? 'How the post is sent (with --publish only):' : undefined;
  /** A flag of how the post is sent. */
  const send = <F extends string>(flags: F, description: string) => {
    const o = option(flags, description);
    return sendGroup ? o.helpGroup(sendGroup) : o;
  };
  if (target === 'blog create') command.optionsGroup('Post flags (with --publish or --save):');
  const declared = command
    .addOption(option('--status <status>', 'post status (default draft)').choices(postStatuses))
    .option('--date <iso>', 'publish date, ISO 8601 (no offset: site time)')
    .option('--date-gmt <iso>', 'publish date in UTC, ISO 8601')
    .option('--slug <slug>', 'URL slug')
    .option('--excerpt <text>', 'excerpt')
    .option('--author <id>', 'author user id')
    .option('--featured-image <file>', 'upload this image as the featured image')
    .option('--featured-media <id>', 'featured image by media id')
    .addOption(option('--comment-status <status>', 'comments').choices(['open', 'closed']))
    .addOption(option('--ping-status <status>', 'pings').choices(['open', 'closed']))
    .addOption(option('--format <format>', 'post format').choices(postFormats))
    .option('--sticky', 'stick the post to the front page')
    .option('--no-sticky', 'do not stick the post')
    .option('--template <name>', 'theme template by name, e.g. full-width.php')
    .option(`${categoryFlag} <name|id>`, 'category: name, slug or id; repeatable, a,b', collect)
    .option(`${metaFlag} <key=value>`, 'post meta field; repeatable (JSON values typed)', collect)
    .option('--tag <name|id>', 'tag: name, slug or id; repeatable, a,b', collect)
    .addOption(send('--create-terms', 'create missing categories and tags'))
    .addOption(send('--post-password <password>', 'password-protect the post'))
    .addOption(send('--post-password-stdin', "the post's password from stdin (first line)"))
    .option('--key <key>', "the post's identity (default: its source)")
    .addOption(send('--allow-immediate', 'a future post with no usable date: publish now'));
  // The flags declared after these (the help flag) are in the command's own group again.
  return declared.optionsGroup('');
}

/**
 * The post flags that only change how a post is sent, which a saved file does not keep: the post password
 * (the file is meant for review and git), and --create-terms and --allow-immediate (wp publish's own flags).
 */
export const SEND_ONLY_FLAGS: readonly string[] = [
  '--create-terms',
  '--post-password',
  '--post-password-stdin',
  '--allow-immediate',
];

/** A post flag given: as typed (`--wp-category`, `--no-sticky`), its attribute name, its value. */
export interface GivenPostFlag {
  flag: string;
  attribute: string;
  value: unknown;
}

/** The post flags given to `target`, in the order they are declared. */
export function givenPostFlags(opts: object, target: PostFlagsTarget = 'blog create'): GivenPostFlag[] {
  const given = new Map<string, GivenPostFlag>();
  for (const option of (
    addPostOptions(new Command() as unknown as TypedCommand, target) as unknown as Command
  ).options) {
    const attribute = option.attributeName();
    const value = (opts as Record<string, unknown>)[attribute];
    if (value === undefined || given.has(attribute)) continue;
    // A flag and its --no- form share the attribute: false was given as the --no- one.
    const flag = value === false && !option.negate ? `--no-${option.long!.slice(2)}` : option.long!;
    given.set(attribute, { flag, attribute, value });
  }
  return [...given.values()];
}

/**
 * blog create's post flags given, as `wp publish` arguments: publishing the blog later with them makes the
 * same post (the same source: the blog, or --key). A post password is not echoed into logs.
 */
export function postArgs(opts: object): string[] {
  const wpName = new Map(Object.entries(BLOG_CREATE_NAMES).map(([wp, blog]) => [blog, wp]));
  return givenPostFlags(opts, 'blog create').flatMap(({ flag, value }) => {
    const name = wpName.get(flag) ?? flag;
    if (typeof value === 'boolean') return [name];
    if (flag === '--post-password') return [name, '<the same post password>'];
    return (Array.isArray(value) ? value : [value]).flatMap((v) => [name, String(v)]);
  });
}
