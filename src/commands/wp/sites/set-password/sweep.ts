// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'wp sites set-password': {
      args: () => ['wp', 'sites', 'set-password', 's1', '--password-stdin'],
      words: 3,
      input: (c) => `${c.wp.password}\n`,
      field: 'url',
    },
  },
  fieldForms: [['s1']],
  faults: 'local site profiles (WordPress is asked, not the service)',
  secrets: (c) => [
    {
      name: 'wp sites set-password',
      args: ['wp', 'sites', 'set-password', 'one', '--password-stdin'],
      input: `${c.WP_PASSWORD_1}\n`,
      failures: [
        {
          name: 'a password the site refuses',
          code: 4,
          args: ['wp', 'sites', 'set-password', 'one', '--password-stdin'],
          input: `${c.WRONG_WP_PASSWORD}\n`,
        },
      ],
    },
  ],
};
