// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'wp sites add': {
      args: (c) => [
        ...[
          'wp',
          'sites',
          'add',
          's2',
          '--url',
          c.wp.url,
          '--username',
          'editor',
          '--password-stdin',
          '--force',
        ],
        '--no-verify',
      ],
      words: 3,
      input: (c) => `${c.wp.password}\n`,
      field: 'url',
    },
  },
  fieldForms: [['s1', '--url', 'https://example.com', '--username', 'u']],
  faults: 'local site profiles (WordPress is asked, not the service)',
  secrets: (c) => [
    {
      name: 'wp sites add --password-stdin',
      args: () =>
        Promise.resolve([
          'wp',
          'sites',
          'add',
          'three',
          '--url',
          c.wp1.url,
          '--username',
          c.USER_1,
          '--password-stdin',
        ]),
      input: `${c.WP_PASSWORD_1}\n`,
      dir: c.freshConfigDir,
      failures: [
        {
          name: 'password in the URL',
          code: 2,
          args: () =>
            Promise.resolve([
              'wp',
              'sites',
              'add',
              'bad',
              '--url',
              c.wp1.url.replace('//', `//${c.USER_1}:${encodeURIComponent(c.WP_PASSWORD_1)}@`),
              '--username',
              c.USER_1,
              '--password-stdin',
            ]),
          input: `${c.WP_PASSWORD_1}\n`,
        },
      ],
    },
    {
      name: 'wp sites add (BLOGCTL_WP_PASSWORD)',
      args: () => Promise.resolve(['wp', 'sites', 'add', 'four', '--url', c.wp2.url, '--username', c.USER_2]),
      env: { BLOGCTL_WP_PASSWORD: c.WP_PASSWORD_2 },
      failures: [
        {
          name: 'existing id',
          code: 2,
          args: () =>
            Promise.resolve(['wp', 'sites', 'add', 'one', '--url', c.wp2.url, '--username', c.USER_2]),
          env: { BLOGCTL_WP_PASSWORD: c.WP_PASSWORD_2 },
        },
      ],
    },
  ],
};
