// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: { 'blog list': { args: () => ['blog', 'list'], words: 2, field: 'title', open: true } },
  fieldForms: 'open',
  faults: () => [{ name: 'blog list', route: 'list', idempotent: true, args: ['blog', 'list'] }],
  secrets: (c) => [{ name: 'blog list', args: ['blog', 'list'], failures: c.SERVICE_FAILURES }],
};
