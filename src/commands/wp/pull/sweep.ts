// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeWordPress } from '../../../../test/helpers/fake-wordpress.js';
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'wp pull': {
      args: () => {
        const project = mkdtempSync(join(tmpdir(), 'blogctl-json-pull-'));
        writeFileSync(join(project, 'blogctl.yml'), 'site: s1\nnamespace: json-output\n');
        return ['wp', 'pull', project];
      },
      words: 2,
      field: 'file',
    },
  },
  fieldForms: [[]],
  faults: 'reads the WordPress site, not the service',
  // It reads the site with the profile's Application Password and writes the posts as files.
  secrets: (c) => [
    {
      name: 'wp pull',
      project: 'site: one\nnamespace: sweep-pull\nsources: [posts]\n',
      args: () => {
        seedPost(c.wp1, 'Pulled in the sweep');
        return Promise.resolve(['wp', 'pull']);
      },
      failures: [
        {
          name: 'WordPress refuses the password',
          code: 4,
          args: () =>
            Promise.resolve(['wp', 'pull', '--url', c.wp1.url, '--username', c.USER_1, '--password-stdin']),
          input: `${c.WRONG_WP_PASSWORD}\n`,
        },
      ],
    },
  ],
};

/** A published post on `site`, as an editor would have written it in WordPress. */
function seedPost(site: FakeWordPress, title: string): void {
  const id = Math.max(0, ...site.posts.map((p) => p.id)) + 1;
  site.posts.push({
    id,
    status: 'publish',
    slug: `sweep-${id}`,
    title,
    content: `<p>${title}.</p>`,
    date: '2025-05-01T10:00:00',
    date_gmt: '2025-05-01T10:00:00',
    modified: '2025-05-01T10:00:00',
    categories: [1],
    author: 1,
  });
}
