// The command tree is the one list of commands: every verb declares its `--json` fields (or that it prints
// no data) with its declaration, and the fault matrix names every verb. The sweeps that need a run of each
// verb check the same in their own files (json-output, secrets, completion-fields), against their tables.
import { describe, expect, it } from 'vitest';
import { jsonFields, lazyAction, type App } from '../../src/commands/define.js';
import {
  commandTree,
  declaredFields,
  missingFrom,
  verbPaths,
  verbsWithoutJsonDeclaration,
} from '../helpers/command-tree.js';
import { FAULT_MATRIX_KEYS, NOT_IN_MATRIX } from '../helpers/fault-matrix.js';

const app: App = { deps: () => Promise.reject(new Error('nothing runs here')), stopOnSignal() {} };

/** The tree with a verb added the way a group declares one, with or without its JSON fields. */
function withThrowawayVerb(fields?: readonly string[]) {
  const tree = commandTree();
  const blog = tree.commands.find((c) => c.name() === 'blog')!;
  const count = blog
    .command('count')
    .description('count blogs')
    .action(lazyAction(app, () => Promise.reject(new Error('never run'))));
  if (fields) jsonFields(count, fields);
  return tree;
}

describe('the declared command tree', () => {
  it('every verb declares its --json fields, or that it prints no data', () => {
    const tree = commandTree();
    expect(verbPaths(tree).length).toBeGreaterThan(25);
    expect(verbsWithoutJsonDeclaration(tree)).toEqual([]);
  });

  it('every verb is in the fault matrix, as a row or left out with a reason', () => {
    expect(missingFrom(verbPaths(commandTree()), FAULT_MATRIX_KEYS)).toEqual([]);
    // And what it leaves out is declared.
    expect(missingFrom(Object.keys(NOT_IN_MATRIX), verbPaths(commandTree()))).toEqual([]);
  });

  it('reads the fields a verb declares, from its declaration or its verb module', async () => {
    const fields = await declaredFields();
    expect(fields['auth switch']).toEqual(['profile', 'previous']);
    expect(fields['blog delete']).toEqual(['id', 'deleted', 'status', 'error']);
    expect(fields['wp publish']).toEqual(expect.arrayContaining(['link', 'action', 'source', 'fields']));
    expect(fields['completion']).toBeUndefined();
  });
});

describe('a declared verb with no JSON fields or no fault-matrix entry fails the suite', () => {
  it('a verb without JSON fields is reported', () => {
    expect(verbsWithoutJsonDeclaration(withThrowawayVerb())).toEqual(['blog count']);
    expect(verbsWithoutJsonDeclaration(withThrowawayVerb(['count']))).toEqual([]);
  });

  it('a verb without a fault-matrix entry is reported, with or without its fields', () => {
    for (const tree of [withThrowawayVerb(), withThrowawayVerb(['count'])])
      expect(missingFrom(verbPaths(tree), FAULT_MATRIX_KEYS)).toEqual(['blog count']);
    expect(missingFrom(verbPaths(withThrowawayVerb()), [...FAULT_MATRIX_KEYS, 'blog count --all'])).toEqual(
      [],
    );
  });

  it('a key names its verb whole: `blog create` does not cover `blog c`', () => {
    expect(missingFrom(['blog c', 'blog create'], ['blog create --dry-run'])).toEqual(['blog c']);
  });
});
