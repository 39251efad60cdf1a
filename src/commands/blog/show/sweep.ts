// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'blog show': {
      args: async (c) => ['blog', 'show', await c.newBlog()],
      words: 2,
      field: 'title',
      open: true,
    },
  },
  fieldForms: 'open',
  faults: () => [{ name: 'blog show', route: 'list', idempotent: true, args: ['blog', 'show', 'blog-1'] }],
  secrets: (c) => [
    {
      name: 'blog show',
      args: async () => ['blog', 'show', await c.newBlogId()],
      failures: [
        ...c.SERVICE_FAILURES.map((f) => ({ ...f, args: async () => ['blog', 'show', await c.newBlogId()] })),
        { name: 'unknown id', code: 5, args: ['blog', 'show', 'no-such-blog'] },
      ],
    },
  ],
};
