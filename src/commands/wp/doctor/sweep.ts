// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'wp doctor': { args: () => ['wp', 'doctor', 's1'], words: 2, field: 'checks' } },
  fieldForms: [['s1']],
  faults: 'asks the WordPress site, not the service',
  secrets: () => [
    {
      name: 'wp doctor',
      args: ['wp', 'doctor', 'one'],
      failures: [{ name: 'unknown site', code: 5, args: ['wp', 'doctor', 'nope'] }],
    },
  ],
};
