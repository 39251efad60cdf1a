// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  faults: 'prints the stored key; sends nothing',
  secrets: 'prints the API key on stdout by design, and nothing else',
};
