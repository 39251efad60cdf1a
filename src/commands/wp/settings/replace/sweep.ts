// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'wp settings replace': {
      args: () => ['wp', 'settings', 'replace', '--from-sites', '--yes'],
      words: 3,
      field: 'success',
    },
    'wp settings replace --dry-run': {
      args: () => ['wp', 'settings', 'replace', '--from-sites', '--dry-run'],
      words: 3,
      field: 'settings',
    },
  },
  fieldForms: [['--from-sites', '--yes']],
  faults: (c) => [
    {
      name: 'wp settings replace',
      route: 'settings',
      idempotent: true,
      args: [
        'wp',
        'settings',
        'replace',
        '-f',
        c.file(
          'sites.json',
          JSON.stringify([
            { id: 'main', label: 'Main', isIntegrated: true, autoPublish: false },
            { id: 'second', label: 'Second' },
          ]),
        ),
        '--yes',
      ],
    },
  ],
  secrets: (c) => [
    {
      name: 'wp settings replace --from-sites',
      args: ['wp', 'settings', 'replace', '--from-sites', '--yes'],
      failures: [
        ...c.SERVICE_FAILURES,
        { name: 'no --yes without a terminal', code: 2, args: ['wp', 'settings', 'replace', '--from-sites'] },
      ],
    },
    {
      name: 'wp settings replace -f',
      args: () => Promise.resolve(['wp', 'settings', 'replace', '-f', c.inputFile('sites.json'), '--yes']),
      failures: c.SERVICE_FAILURES.map((f) => ({
        ...f,
        args: () => Promise.resolve(['wp', 'settings', 'replace', '-f', c.inputFile('sites.json'), '--yes']),
      })),
    },
    {
      name: 'wp settings replace --dry-run',
      args: ['wp', 'settings', 'replace', '--from-sites', '--dry-run'],
    },
    {
      name: 'wp settings replace -f (malformed)',
      args: () =>
        Promise.resolve(['wp', 'settings', 'replace', '-f', c.inputFile('broken-sites.json'), '--yes']),
      code: 2,
    },
  ],
};
