// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'wp sites remove': {
      args: async (c) => {
        await c.addSite('gone');
        return ['wp', 'sites', 'remove', 'gone', '--yes'];
      },
      words: 3,
      field: 'removed',
    },
  },
  fieldForms: [['s1', '--yes']],
  faults: 'local site profiles',
  secrets: () => [
    {
      name: 'wp sites remove',
      args: ['wp', 'sites', 'remove', 'two', '--yes'],
      failures: [
        { name: 'unknown site', code: 5, args: ['wp', 'sites', 'remove', 'nope', '--yes'] },
        { name: 'no --yes without a terminal', code: 2, args: ['wp', 'sites', 'remove', 'two'] },
      ],
    },
  ],
};
