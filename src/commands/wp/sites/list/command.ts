import { defineVerb, verb, type InputOf } from '../../../define.js';

function declare() {
  return verb('list', {
    description: 'list site profiles (passwords are never shown); -q: only the ids',
    // Loaded only by what reads the fields (help, completion, tests), never by a run.
    jsonFields: () => import('../fields.js').then((m) => m.SITE_VIEW_FIELDS),
    examples: ['blogctl wp sites list', 'blogctl wp sites list --json id,url', 'blogctl wp sites list -q'],
  });
}

export type Input = InputOf<typeof declare>;
export const list = defineVerb(declare, () => import('./action.js'));
