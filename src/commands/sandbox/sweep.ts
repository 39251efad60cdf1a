// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  faults: 'is the service',
  secrets: 'swept by "sandbox command" in test/commands/secrets.test.ts',
};
