// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import { join } from 'node:path';
import { WP_USER } from '../../../../test/helpers/fault-server.js';
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'wp publish': {
      args: () => ['wp', 'publish', '--site', 's1', '--title', 'T', '--content', 'c'],
      words: 2,
      field: 'link',
    },
    'wp publish --dry-run': {
      args: () => ['wp', 'publish', '--site', 's1', '--title', 'T', '--content', 'c', '--dry-run'],
      words: 2,
      field: 'action',
    },
    'wp publish FILES': {
      args: (c) => ['wp', 'publish', '--site', 's1', join(c.dir, 'a.md'), join(c.dir, 'b.md')],
      words: 2,
      field: 'action',
    },
    'wp publish FILES --dry-run': {
      args: (c) => ['wp', 'publish', '--site', 's1', join(c.dir, 'a.md'), join(c.dir, 'b.md'), '--dry-run'],
      words: 2,
      field: 'source',
    },
  },
  fieldForms: [
    ['--title', 'x', '--content', 'y'],
    ['--title', 'x', '--content', 'y', '--dry-run'],
    ['a.md', 'b.md'],
  ],
  faults: (c) => [
    {
      name: 'wp publish',
      route: 'publish',
      idempotent: false,
      args: [
        'wp',
        'publish',
        '--url',
        c.wordpressUrl,
        '--username',
        WP_USER,
        '--title',
        'Hello',
        '--content',
        '<p>Hi</p>',
      ],
    },
    {
      name: 'wp publish --site',
      route: 'publish',
      idempotent: false,
      args: ['wp', 'publish', '--site', 'stored', '--title', 'Hello', '--content', '<p>Hi</p>'],
    },
    {
      name: 'wp publish --status publish',
      route: 'publish',
      idempotent: false,
      args: [
        'wp',
        'publish',
        '--url',
        c.wordpressUrl,
        '--username',
        WP_USER,
        '--title',
        'Live now',
        '--content',
        '<p>Hi</p>',
        '--status',
        'publish',
      ],
    },
    {
      name: 'wp publish --from-blog',
      route: 'publish',
      idempotent: false,
      args: ['wp', 'publish', '--site', 'stored', '--from-blog', 'blog-1'],
    },
    {
      name: 'wp publish FILE…',
      route: 'publish',
      idempotent: false,
      posts: 2,
      args: [
        'wp',
        'publish',
        '--site',
        'stored',
        c.file('post-a.md', '---\ntitle: Post A\nstatus: publish\n---\nHello from A.\n'),
        c.file('post-b.md', '---\ntitle: Post B\n---\nHello from B.\n'),
      ],
    },
    {
      name: 'wp publish -f payload.json',
      route: 'publish',
      idempotent: false,
      args: [
        'wp',
        'publish',
        '--site',
        'stored',
        '-f',
        c.file(
          'payload.json',
          JSON.stringify({ content: { title: 'From a payload', content: '<p>P</p>', status: 'publish' } }),
        ),
      ],
    },
  ],
  secrets: (c) => [
    {
      name: 'wp publish --site',
      args: ['wp', 'publish', '--site', 'one', '--title', 'Sweep', '--content', '<p>sweep</p>'],
      failures: [
        ...c.SERVICE_FAILURES,
        {
          name: 'WordPress refuses the password',
          code: 4, // authentication: the same cause, the same code as wp sites verify
          args: () =>
            Promise.resolve([
              'wp',
              'publish',
              '--url',
              c.wp1.url,
              '--username',
              c.USER_1,
              '--password-stdin',
              '--title',
              'Refused',
              '--content',
              '<p>x</p>',
            ]),
          input: `${c.WRONG_WP_PASSWORD}\n`,
        },
      ],
    },
    {
      name: 'wp publish --url --username --password-stdin',
      args: () =>
        Promise.resolve([
          'wp',
          'publish',
          '--url',
          c.wp2.url,
          '--username',
          c.USER_2,
          '--password-stdin',
          '--title',
          'Sweep 2',
          '--content',
          '<p>two</p>',
        ]),
      input: `${c.WP_PASSWORD_2}\n`,
      failures: c.SERVICE_FAILURES,
    },
    {
      name: 'wp publish --dry-run',
      args: ['wp', 'publish', '--site', 'two', '--title', 'Dry', '--content', '<p>dry</p>', '--dry-run'],
      failures: [
        { name: 'invalid status', code: 2, args: ['wp', 'publish', '--site', 'two', '--status', 'nope'] },
      ],
    },
    {
      name: 'wp publish -f with credentials',
      args: () => Promise.resolve(['wp', 'publish', '-f', c.inputFile('payload.json')]),
      // A source of its own: the payload's post is already on the site (unchanged: nothing would be sent).
      failures: c.SERVICE_FAILURES.map((f) => ({
        ...f,
        args: () =>
          Promise.resolve(['wp', 'publish', '-f', c.inputFile('payload.json'), '--key', 'never-published']),
      })),
    },
    {
      name: 'wp publish --from-blog',
      args: async () => ['wp', 'publish', '--site', 'two', '--from-blog', await c.newBlogId()],
      failures: [
        { name: 'unknown blog', code: 5, args: ['wp', 'publish', '--site', 'two', '--from-blog', 'nope'] },
      ],
    },
    // Malformed input files holding secrets: exit 2, and the error quotes none of the file.
    {
      name: 'wp publish -f (malformed, password inside)',
      args: () => Promise.resolve(['wp', 'publish', '-f', c.inputFile('broken-payload.json')]),
      code: 2,
    },
    {
      name: 'wp publish --content-file (malformed JSON front matter)',
      args: () =>
        Promise.resolve([
          'wp',
          'publish',
          '--site',
          'one',
          '--content-file',
          c.inputFile('broken-front-matter.md'),
        ]),
      code: 2,
    },
    {
      name: '--sandbox wp publish',
      args: ['--sandbox', 'wp', 'publish', '--site', 'two', '--title', 'Sandboxed', '--content', '<p>s</p>'],
    },
  ],
};
