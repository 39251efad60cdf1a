// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'wp pull': {
      args: () => {
        const project = mkdtempSync(join(tmpdir(), 'blogctl-json-pull-'));
        writeFileSync(join(project, 'blogctl.yml'), 'site: s1\nnamespace: json-output\n');
        return ['wp', 'pull', project];
      },
      words: 2,
      field: 'file',
    },
  },
  fieldForms: [[]],
  faults: 'reads the WordPress site, not the service',
  secrets:
    'not swept yet: it needs a project folder per run; its requests are the look-up wp publish makes, which is swept',
};
