// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'auth logout': { args: () => ['auth', 'logout', '--yes'], words: 2, field: 'removed' } },
  fieldForms: [[]],
  faults: 'changes the local config only',
  secrets: () => [
    {
      name: 'auth logout',
      args: ['auth', 'logout', '--yes'],
      failures: [
        { name: 'no such profile', code: 5, args: ['--profile', 'nobody', 'auth', 'logout', '--yes'] },
        { name: 'no --yes without a terminal', code: 2, args: ['auth', 'logout'] },
      ],
    },
  ],
};
