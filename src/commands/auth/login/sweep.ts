// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import { SECRETS } from '../../../../test/helpers/fault-server.js';
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'auth login': {
      args: () => ['auth', 'login', '--with-key'],
      words: 2,
      input: (c) => `${c.sandbox.apiKey}\n`,
      field: 'profile',
    },
  },
  fieldForms: [['--with-key']],
  faults: () => [
    {
      name: 'auth login',
      route: 'list',
      idempotent: true,
      args: ['auth', 'login', '--with-key'],
      input: `${SECRETS.BLOGCTL_API_KEY}\n`,
    },
  ],
  secrets: (c) => [
    {
      name: 'auth login --with-key',
      args: () => Promise.resolve(['--base-url', c.sandbox.url, 'auth', 'login', '--with-key']),
      input: `${c.API_KEY}\n`,
      dir: c.freshConfigDir,
      failures: [
        { name: 'wrong API key (401)', code: 4, input: `${c.WRONG_API_KEY}\n` },
        {
          name: 'unreachable service',
          code: 7, // nothing stored: --no-verify is how to store a key unchecked
          args: () => Promise.resolve(['--base-url', c.unreachable, 'auth', 'login', '--with-key']),
        },
      ],
    },
  ],
};
