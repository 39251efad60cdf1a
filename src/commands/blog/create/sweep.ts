// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import { createFlags } from '../../../../test/helpers/cli.js';
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'blog create': { args: () => ['blog', 'create', ...createFlags()], words: 2, field: 'title', open: true },
    'blog create --dry-run': {
      args: () => ['blog', 'create', ...createFlags(), '--dry-run'],
      words: 2,
      field: 'blogParams',
    },
    'blog create --publish': {
      args: () => ['blog', 'create', ...createFlags(), '--publish', 's1'],
      words: 2,
      field: 'publish',
    },
  },
  fieldForms: [
    ['--dry-run', '-k', 'x'],
    ['--publish', 's1', '-k', 'x'],
  ],
  faults: () => [
    {
      name: 'blog create',
      route: 'create',
      idempotent: false,
      args: ['blog', 'create', ...createFlags('home espresso')],
    },
    {
      name: 'blog create --publish',
      route: 'publish',
      idempotent: false,
      args: ['blog', 'create', ...createFlags('home espresso'), '--publish', 'stored', '--status', 'publish'],
    },
  ],
  secrets: (c) => [
    {
      name: 'blog create (flags, BLOGCTL_PROVIDER_API_KEY)',
      args: ['blog', 'create', ...c.CREATE_FLAGS],
      env: { BLOGCTL_PROVIDER_API_KEY: c.PROVIDER_KEY },
      failures: c.SERVICE_FAILURES,
    },
    {
      name: 'blog create -f --provider-key-stdin',
      args: () =>
        Promise.resolve(['blog', 'create', '-f', c.inputFile('params.json'), '--provider-key-stdin']),
      input: `${c.PROVIDER_KEY}\n`,
      failures: c.SERVICE_FAILURES,
    },
    {
      name: 'blog create --dry-run',
      args: ['blog', 'create', ...c.CREATE_FLAGS, '--dry-run'],
      env: { BLOGCTL_PROVIDER_API_KEY: c.PROVIDER_KEY },
      failures: [
        { name: 'invalid length', code: 2, args: ['blog', 'create', '-k', 'x', '--length', 'huge'] },
      ],
    },
    {
      name: 'blog create -f (malformed, provider key inside)',
      args: () => Promise.resolve(['blog', 'create', '-f', c.inputFile('broken-params.json')]),
      code: 2,
    },
    // --sandbox: the in-process sandbox keeps its state (sealed passwords included) in the config dir.
    {
      name: '--sandbox blog create',
      args: ['--sandbox', 'blog', 'create', ...c.CREATE_FLAGS],
      env: { BLOGCTL_PROVIDER_API_KEY: c.PROVIDER_KEY },
    },
  ],
};
