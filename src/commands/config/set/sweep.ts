// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'config set': { args: () => ['config', 'set', 'timeout', '30'], words: 2, field: 'value' } },
  fieldForms: [['timeout', '3']],
  faults: 'local config only',
  secrets: (c) => [
    {
      name: 'config set',
      args: ['config', 'set', 'timeout', '30'],
      dir: c.freshConfigDir,
      failures: [{ name: 'bad value', code: 2, args: ['config', 'set', 'timeout', 'soon'] }],
    },
  ],
};
