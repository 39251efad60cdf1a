// The post flags are declared once (src/commands/common/post-flags.ts): what blog create was given is read
// back from that declaration, and handed on as the `wp publish` command that publishes the blog later.
import { Command } from 'commander';
import type { Command as TypedCommand } from '@commander-js/extra-typings';
import { describe, expect, it } from 'vitest';
import { addPostOptions, givenPostFlags, postArgs } from '../../src/commands/common/post-flags.js';

/** The options a target declares, as commander holds them. */
function declared(target: 'wp publish' | 'blog create'): Command['options'] {
  return (addPostOptions(new Command() as unknown as TypedCommand, target) as unknown as Command).options;
}

/** A value for every post flag of blog create, as commander would give it. */
function everyFlag(): Record<string, unknown> {
  const opts: Record<string, unknown> = {};
  for (const option of declared('blog create')) {
    if (option.negate) continue;
    opts[option.attributeName()] = option.required
      ? option.variadic || option.parseArg
        ? ['v']
        : 'v'
      : true;
  }
  return opts;
}

describe('post flags', () => {
  it('postArgs names, for every post flag blog create was given, a flag wp publish declares', () => {
    const wpFlags = new Set(declared('wp publish').map((o) => o.long));
    const args = postArgs(everyFlag());
    const flags = args.filter((a) => a.startsWith('--'));
    // One per declared flag but --no-sticky (sticky is one attribute).
    expect(flags).toHaveLength(declared('blog create').length - 1);
    expect(flags.filter((f) => !wpFlags.has(f))).toEqual([]);
    expect(flags).toContain('--category');
    expect(flags).toContain('--meta');
  });

  it('postArgs: in declaration order, --no-sticky as typed, the post password never echoed', () => {
    expect(
      postArgs({
        wpCategory: ['News', 'Coffee'],
        postMeta: ['rating=5'],
        sticky: false,
        postPassword: 'secret',
        key: 'weekly',
        category: 'the blog category',
        keyword: ['espresso'],
      }),
    ).toEqual([
      '--no-sticky',
      '--category',
      'News',
      '--category',
      'Coffee',
      '--meta',
      'rating=5',
      '--post-password',
      '<the same post password>',
      '--key',
      'weekly',
    ]);
  });

  it("givenPostFlags names blog create's flags as typed, and none of the blog's own", () => {
    expect(
      givenPostFlags({ wpCategory: ['News'], category: 'blog', meta: ['a=1'], sticky: true }).map(
        (g) => g.flag,
      ),
    ).toEqual(['--sticky', '--wp-category']);
  });
});
