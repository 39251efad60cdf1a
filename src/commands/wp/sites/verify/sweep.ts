// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'wp sites verify': { args: () => ['wp', 'sites', 'verify', 's1'], words: 3, field: 'can' } },
  fieldForms: [['s1']],
  faults: 'asks the WordPress site, not the service',
  secrets: () => [
    {
      name: 'wp sites verify',
      args: ['wp', 'sites', 'verify', 'one'],
      failures: [{ name: 'unknown site', code: 5, args: ['wp', 'sites', 'verify', 'nope'] }],
    },
  ],
};
