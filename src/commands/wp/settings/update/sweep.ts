// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'wp settings update': {
      args: () => ['wp', 'settings', 'update', '--site', 's1', '--label', 'Main'],
      words: 3,
      field: 'success',
    },
    'wp settings update --dry-run': {
      args: () => ['wp', 'settings', 'update', '--site', 's1', '--label', 'Main', '--dry-run'],
      words: 3,
      field: 'settings',
    },
  },
  fieldForms: [
    ['--label', 'x'],
    ['--label', 'x', '--dry-run'],
  ],
  faults: () => [
    {
      name: 'wp settings update',
      route: 'settings',
      idempotent: true,
      args: ['wp', 'settings', 'update', '--site', 'main', '--label', 'Main', '--auto-publish'],
    },
  ],
  secrets: (c) => [
    {
      name: 'wp settings update --password-stdin',
      args: () =>
        Promise.resolve([
          'wp',
          'settings',
          'update',
          '--site',
          'one',
          '--label',
          'Sweep',
          '--url',
          c.wp1.url,
          '--username',
          c.USER_1,
          '--password-stdin',
        ]),
      input: `${c.WP_PASSWORD_1}\n`,
      failures: c.SERVICE_FAILURES,
    },
    {
      name: 'wp settings update --with-credentials',
      args: ['wp', 'settings', 'update', '--site', 'one', '--with-credentials', '--auto-publish'],
      failures: c.SERVICE_FAILURES,
    },
    {
      name: 'wp settings update --with-credentials --dry-run',
      args: ['wp', 'settings', 'update', '--site', 'two', '--with-credentials', '--dry-run'],
      failures: [
        {
          name: 'unknown site',
          code: 5,
          args: ['wp', 'settings', 'update', '--site', 'nope', '--with-credentials'],
        },
      ],
    },
    {
      name: 'wp settings update -f (malformed)',
      args: () => Promise.resolve(['wp', 'settings', 'update', '-f', c.inputFile('broken-settings.json')]),
      code: 2,
    },
    {
      name: '--sandbox wp settings update --with-credentials',
      args: ['--sandbox', 'wp', 'settings', 'update', '--site', 'one', '--with-credentials', '--integrated'],
    },
  ],
};
