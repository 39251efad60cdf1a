// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'config get': { args: () => ['config', 'get', 'timeout'], words: 2, field: 'value' } },
  fieldForms: [['timeout']],
  faults: 'local config only',
  secrets: () => [
    {
      name: 'config get',
      args: ['config', 'get', 'base-url'],
      failures: [{ name: 'unknown key', code: 2, args: ['config', 'get', 'api-key'] }],
    },
  ],
};
