// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'auth switch': { args: () => ['auth', 'switch', 'default'], words: 2, field: 'profile' } },
  fieldForms: [['default']],
  faults: 'changes the local config only',
  secrets: () => [
    {
      name: 'auth switch',
      args: ['auth', 'switch', 'default'],
      failures: [{ name: 'no such profile', code: 5, args: ['auth', 'switch', 'nobody'] }],
    },
  ],
};
