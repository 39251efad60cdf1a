// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'wp sites list': { args: () => ['wp', 'sites', 'list'], words: 3, field: 'id' } },
  fieldForms: [[]],
  faults: 'local site profiles',
  secrets: () => [{ name: 'wp sites list', args: ['wp', 'sites', 'list'] }],
};
