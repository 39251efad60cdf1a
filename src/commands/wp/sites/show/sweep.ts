// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'wp sites show': { args: () => ['wp', 'sites', 'show', 's1'], words: 3, field: 'url' } },
  fieldForms: [['s1']],
  faults: 'local site profiles',
  secrets: () => [
    {
      name: 'wp sites show',
      args: ['wp', 'sites', 'show', 'one'],
      failures: [{ name: 'unknown site', code: 5, args: ['wp', 'sites', 'show', 'nope'] }],
    },
  ],
};
