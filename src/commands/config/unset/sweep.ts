// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'config unset': { args: () => ['config', 'unset', 'timeout'], words: 2, field: 'removed' } },
  fieldForms: [['timeout']],
  faults: 'local config only',
  secrets: () => [
    {
      name: 'config unset',
      args: ['config', 'unset', 'default-site'],
      failures: [{ name: 'unknown key', code: 2, args: ['config', 'unset', 'password'] }],
    },
  ],
};
