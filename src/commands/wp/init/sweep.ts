// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  faults: 'writes the local project file',
  secrets: 'writes the project file (site id, namespace); asks nothing and sends nothing',
};
