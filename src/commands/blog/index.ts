// The `blog` group: generated blog posts. One line per verb registers it; each verb is its own folder.
import type { Command } from 'commander';
import { addVerb, examples, whenUsed, type App } from '../define.js';
import { create } from './create/command.js';
import { del } from './delete/command.js';
import { list } from './list/command.js';
import { show } from './show/command.js';

export function registerBlog(program: Command, app: App): void {
  const blog = program.command('blog').description('create, list, show and delete generated blog posts');
  examples(blog, [
    'blogctl --sandbox blog create -k "home espresso" --length short',
    'blogctl blog list --sort -createdAt --limit 5',
  ]);
  whenUsed(blog, () => {
    addVerb(blog, app, create);
    addVerb(blog, app, list);
    addVerb(blog, app, show);
    addVerb(blog, app, del);
  });
}
