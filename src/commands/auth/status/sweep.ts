// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'auth status': { args: () => ['auth', 'status'], words: 2, field: 'accepted' } },
  fieldForms: [[]],
  faults: () => [{ name: 'auth status', route: 'list', idempotent: true, args: ['auth', 'status'] }],
  secrets: (c) => [
    { name: 'auth status', args: ['auth', 'status'], failures: c.SERVICE_FAILURES },
    {
      name: 'auth status (damaged credentials.json)',
      args: ['auth', 'status'],
      dir: c.damagedCredentialsDir,
      code: 2,
    },
  ],
};
