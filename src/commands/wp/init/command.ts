import { defineVerb, verb, type InputOf } from '../../define.js';

function declare() {
  return verb('init', {
    description: 'write the project file (blogctl.yml): site, namespace, sources',
    jsonFields: 'none',
    examples: [
      'blogctl wp init --site myblog',
      'blogctl wp init --site https://blog.example.com --username editor --namespace team-blog posts',
      'blogctl wp init --write-keys',
    ],
  })
    .argument('[dir]')
    .option('--site <id|url>', 'a site profile id, or the site URL (with --username)')
    .option('--username <user>', 'the WordPress username, with a site URL')
    .option(
      '--namespace <name>',
      "what makes the posts this project's (default: the repository's or folder's name)",
    )
    .option('--write-keys', 'write a random front matter "key" into every Markdown source without one');
}

export type Input = InputOf<typeof declare>;
export const init = defineVerb(declare, () => import('./action.js'));
