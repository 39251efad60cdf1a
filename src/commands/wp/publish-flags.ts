// The post flags shared by `wp publish` and `blog create --publish`, declared once. Only commander and the
// schema's choice lists: this file is on the start-up path of both groups.
import { Option, type Command } from 'commander';
import { postFormats, postStatuses } from '../../schemas/wordpress-values.js';
import { collect } from '../define.js';

/**
 * Adds the post flags to a command. `blog create` already has `--category` and `--meta` for the generation
 * parameters (the blog's), so there the post's are `--wp-category` and `--post-meta`.
 */
export function addPostOptions(command: Command, target: 'wp publish' | 'blog create'): Command {
  // blog create: the post's own fields also go into a --save file's front matter; how it is sent does not.
  const when = target === 'blog create' ? ' (with --publish or --save)' : '';
  const sending = target === 'blog create' ? ' (with --publish)' : '';
  command
    .addOption(new Option('--status <status>', `post status (default draft)${when}`).choices(postStatuses))
    .option(
      '--date <iso>',
      `publish date, ISO 8601: with an offset or Z that instant, without one the site's local time${when}`,
    )
    .option('--date-gmt <iso>', `publish date in UTC, ISO 8601${when}`)
    .option('--slug <slug>', `URL slug${when}`)
    .option('--excerpt <text>', `excerpt${when}`)
    .option('--author <id>', `author user id${when}`)
    .option('--featured-image <file>', `upload this image and make it the featured image${when}`)
    .option('--featured-media <id>', `featured image by media id${when}`)
    .addOption(
      new Option('--comment-status <status>', `comments open or closed${when}`).choices(['open', 'closed']),
    )
    .addOption(
      new Option('--ping-status <status>', `pings open or closed${when}`).choices(['open', 'closed']),
    )
    .addOption(new Option('--format <format>', `post format${when}`).choices(postFormats))
    .option('--sticky', `stick the post to the front page${when}`)
    .option('--no-sticky', `do not stick the post${when}`)
    .option('--template <name>', `theme template by name, e.g. full-width.php${when}`);
  const [categoryFlag, metaFlag] =
    target === 'wp publish' ? ['--category', '--meta'] : ['--wp-category', '--post-meta'];
  command
    .option(
      `${categoryFlag} <name|id>`,
      `WordPress category by name, slug or id (repeatable or comma-separated)${when}`,
      collect,
    )
    .option(
      `${metaFlag} <key=value>`,
      `post meta field (repeatable; JSON values like 5, true, [1] are typed)${when}`,
      collect,
    );
  command
    .option('--tag <name|id>', `tag by name, slug or id (repeatable or comma-separated)${when}`, collect)
    .option('--create-terms', `create categories and tags that do not exist yet${sending}`)
    .option('--post-password <password>', `password-protect the post${sending}`)
    .option(
      '--key <key>',
      `the post's identity on the site, instead of its source (file path, front matter key or slug, blog id)${when}`,
    )
    .option(
      '--allow-immediate',
      `send --status future without a usable date (none, past or under 60 s ahead): WordPress publishes it at once${sending}`,
    );
  return command;
}
