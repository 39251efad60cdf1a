import { defineVerb, verb, type InputOf } from '../../../define.js';

function declare() {
  return verb('show', {
    description: 'show one site profile; -q: only its id',
    // Loaded only by what reads the fields (help, completion, tests), never by a run.
    jsonFields: () => import('../fields.js').then((m) => m.SITE_VIEW_FIELDS),
    examples: ['blogctl wp sites show myblog'],
  }).argument('<id>');
}

export type Input = InputOf<typeof declare>;
export const show = defineVerb(declare, () => import('./action.js'));
