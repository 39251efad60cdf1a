import { defineVerb, option, verb, type InputOf } from '../../define.js';

function declare() {
  return (
    verb('delete', {
      description: 'delete blog posts by id, several at once (asks first on a terminal)',
      notes:
        '\nOutput: nothing on stdout unless -q (the deleted ids, one per line) or --json (one {id, deleted, status?, error?} per id). An unknown id is reported and the others are still deleted; the exit code is the worst outcome.',
      jsonFields: () => import('./action.js').then((m) => m.OUTPUT_FIELDS),
      examples: [
        'blogctl blog delete 6650c0ffee0000000000abcd',
        'blogctl blog list -q | xargs blogctl blog delete --yes --concurrency 8',
        'blogctl blog delete 6650c0ffee0000000000abcd 6650c0ffee0000000000abce --yes --json',
      ],
    })
      // Optional in commander's eyes only so that `delete --json <id> …` can recover the id (see action.ts).
      .argument('[id...]', 'blog ids (_id)')
      .option('-y, --yes', 'do not ask for confirmation (required when there is no terminal)')
      .addOption(
        option('--concurrency <n>', 'deletes in flight at once (default: the concurrency setting, 4)'),
      )
  );
}

export type Input = InputOf<typeof declare>;
export const del = defineVerb(declare, () => import('./action.js'));
