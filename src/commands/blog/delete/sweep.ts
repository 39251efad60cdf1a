// This verb's rows in the every-command sweeps (test/helpers/sweeps.ts). Test-only: src/ never imports it.
import type { VerbSweep } from '../../../../test/helpers/sweeps.js';

export const sweep: VerbSweep = {
  json: {
    'blog delete': {
      args: async (c) => ['blog', 'delete', await c.newBlog(), '--yes'],
      words: 2,
      field: 'deleted',
    },
  },
  fieldForms: [['x', '--yes']],
  faults: () => [
    { name: 'blog delete', route: 'delete', idempotent: true, args: ['blog', 'delete', 'blog-1', '--yes'] },
  ],
  secrets: (c) => [
    {
      name: 'blog delete',
      args: async () => ['blog', 'delete', '--yes', await c.newBlogId()],
      failures: [
        ...c.SERVICE_FAILURES.map((f) => ({
          ...f,
          args: async () => ['blog', 'delete', '--yes', await c.newBlogId()],
        })),
        { name: 'unknown id', code: 5, args: ['blog', 'delete', '--yes', 'no-such-blog'] },
      ],
    },
  ],
};
