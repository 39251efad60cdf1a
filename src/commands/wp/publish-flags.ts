// The post flags shared by `wp publish` and `blog create --publish`, declared once. Only commander and the
// schema's choice lists: this file is on the start-up path of both groups.
import { Option, type Command } from 'commander';
import { postFormats, postStatuses } from '../../schemas/wordpress-values.js';
import { collect } from '../define.js';

/**
 * Adds the post flags to a command. `blog create` already has `--category` and `--meta` for the generation
 * parameters, so they are declared only for `wp publish` (with `--publish`, blog create's `--category` is
 * also the post's WordPress category).
 */
export function addPostOptions(command: Command, target: 'wp publish' | 'blog create'): Command {
  const when = target === 'blog create' ? ' (with --publish)' : '';
  command
    .addOption(new Option('--status <status>', `post status (default draft)${when}`).choices(postStatuses))
    .option(
      '--date <iso>',
      `publish date: ISO 8601 with an offset, or local time; sent as UTC date_gmt${when}`,
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
  if (target === 'wp publish') {
    command
      .option('--category <name|id>', 'category by name, slug or id (repeatable or comma-separated)', collect)
      .option(
        '--meta <key=value>',
        'custom meta field (repeatable; JSON values like 5, true, [1] are typed)',
        collect,
      );
  }
  return command
    .option('--tag <name|id>', `tag by name, slug or id (repeatable or comma-separated)${when}`, collect)
    .option('--create-terms', `create categories and tags that do not exist yet${when}`)
    .option('--post-password <password>', `password-protect the post${when}`)
    .option(
      '--key <key>',
      `journal key: a publish with the same key and site is done once (default: the source's identity)${when}`,
    )
    .option(
      '--force',
      `publish even if the journal says it was already published, and send --status future without a usable date (none, past or under 60 s ahead: WordPress publishes it at once)${when}`,
    );
}
