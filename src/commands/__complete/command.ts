// `blogctl __complete <kind>`, which the completion scripts call for values only the local config knows.
// Hidden from --help and from the scripts. A completion must never print an error into the person's prompt,
// so the command accepts anything and prints nothing it cannot be sure of.
import { defineVerb, verb, type InputOf } from '../define.js';

function declare() {
  return verb('__complete', {
    description: 'print site ids or profile names from the local config, one per line',
    jsonFields: 'none',
    hidden: true,
  })
    .argument('[kind]')
    .allowUnknownOption()
    .allowExcessArguments();
}

export type Input = InputOf<typeof declare>;
export const complete = defineVerb(declare, () => import('./action.js'));
