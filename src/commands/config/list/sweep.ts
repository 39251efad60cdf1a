// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'config list': { args: () => ['config', 'list'], words: 2, field: 'settings' } },
  fieldForms: [[]],
  faults: 'local config only',
  secrets: () => [{ name: 'config list', args: ['config', 'list'] }],
};
