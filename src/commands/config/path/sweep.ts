// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'config path': { args: () => ['config', 'path'], words: 2, field: 'dir' } },
  fieldForms: [[]],
  faults: 'local config only',
  secrets: () => [{ name: 'config path', args: ['config', 'path'] }],
};
