// The command tree is the one list of commands: every verb declares its `--json` fields (or that it prints
// no data) with its declaration, and keeps its rows for the every-command sweeps in its own sweep.ts
// (test/helpers/sweeps.ts). A verb declared without them fails the suite: shown here for a throwaway verb
// declared the way src/ declares one. Each sweep checks the same in its own file, against the rows it runs.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addVerb, defineVerb, verb, type App, type JsonFields } from '../../src/commands/define.js';
import {
  commandTree,
  declaredFields,
  missingFrom,
  verbPaths,
  verbsWithoutJsonDeclaration,
} from '../helpers/command-tree.js';
import { FAULT_MATRIX_KEYS, NOT_IN_MATRIX, faultContext } from '../helpers/fault-matrix.js';
import { SWEEPS, unswept, type SecretsContext, type VerbSweep } from '../helpers/sweeps.js';

/** The suites whose tests run commands: behaviour tests, as opposed to the sweeps' rows. */
const BEHAVIOUR_SUITES = ['test/commands', 'test/process', 'test/e2e'];
const ROOT = resolve(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/**
 * Whether a test's text runs the verb: its words as consecutive elements of an argv array
 * (`['wp', 'sites', 'add', …]`), or as the start of a command line in a string (`'wp sites add …'`,
 * `` `blogctl wp sites add …` ``).
 */
function runsVerb(text: string, path: string): boolean {
  const words = path.split(' ').map((w) => w.replace(/[-_]/g, (c) => `\\${c}`));
  const q = `['"\`]`;
  const argv = new RegExp(`${q}${words.join(`${q}\\s*,\\s*${q}`)}${q}`);
  const line = new RegExp(`${q}(?:blogctl )?${words.join(' ')}(?=[\\s'"\`])`);
  return argv.test(text) || line.test(text);
}

/** Declared verbs no behaviour test runs (`blogctl wp pull` run by nothing but the sweeps). */
function verbsWithoutBehaviourTests(paths: string[], files: Record<string, string>): string[] {
  return paths.filter((path) => !Object.values(files).some((text) => runsVerb(text, path)));
}

const app: App = { deps: () => Promise.reject(new Error('nothing runs here')), stopOnSignal() {} };

/**
 * The tree with `config throwaway` added as a group's index.ts adds a verb, declaring `fields`; with no fields,
 * declared with commander's own `.command()`, which says nothing of its JSON output.
 */
function withThrowawayVerb(fields?: JsonFields | 'none') {
  const tree = commandTree();
  const config = tree.commands.find((c) => c.name() === 'config')!;
  if (fields === undefined) config.command('throwaway').description('count settings');
  else
    addVerb(
      config,
      app,
      defineVerb(
        () => verb('throwaway', { description: 'count settings', jsonFields: fields }),
        () => Promise.reject(new Error('never run')),
      ),
    );
  return tree;
}

const FULL: VerbSweep = {
  json: { 'config throwaway': { args: () => ['config', 'throwaway'], words: 2, field: 'count' } },
  fieldForms: [[]],
  faults: 'local config only',
  secrets: () => [{ name: 'config throwaway', args: ['config', 'throwaway'] }],
};

describe('the declared command tree', () => {
  it('every verb declares its --json fields, or that it prints no data', () => {
    const tree = commandTree();
    expect(verbPaths(tree).length).toBeGreaterThan(25);
    expect(verbsWithoutJsonDeclaration(tree)).toEqual([]);
  });

  it('every verb has its sweep.ts, which each sweep reads, and every sweep.ts is a declared verb', () => {
    expect(unswept(commandTree())).toEqual({ sweep: [], stale: [], json: [], fieldForms: [] });
  });

  it('every verb has behaviour tests: a test in test/commands, test/process or test/e2e runs it by name', () => {
    const files = Object.fromEntries(
      BEHAVIOUR_SUITES.flatMap(testFiles).map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]),
    );
    expect(verbsWithoutBehaviourTests(verbPaths(commandTree()), files)).toEqual([]);
  });

  it('every verb is in the fault matrix, as a row or left out with a reason', () => {
    expect(missingFrom(verbPaths(commandTree()), FAULT_MATRIX_KEYS)).toEqual([]);
    // And what it leaves out is declared.
    expect(missingFrom(Object.keys(NOT_IN_MATRIX), verbPaths(commandTree()))).toEqual([]);
  });

  it("every row in a verb's sweep.ts names that verb", () => {
    const secrets = new Proxy({} as SecretsContext, {
      get: (_t, key) => (key === 'SERVICE_FAILURES' || key === 'CREATE_FLAGS' ? [] : () => ''),
    });
    const context = faultContext(mkdtempSync(join(tmpdir(), 'blogctl-tree-')));
    for (const [path, sweep] of Object.entries(SWEEPS)) {
      const names = [
        ...Object.keys(sweep.json ?? {}),
        ...(typeof sweep.faults === 'function' ? sweep.faults(context).map((r) => r.name) : []),
        ...(typeof sweep.secrets === 'function' ? sweep.secrets(secrets).map((s) => s.name) : []),
      ];
      for (const name of names) expect(name, path).toContain(path);
    }
  });

  it('reads the fields a verb declares, from its declaration or its verb module', async () => {
    const fields = await declaredFields();
    expect(fields['auth switch']).toEqual(['profile', 'previous']);
    expect(fields['blog delete']).toEqual(['id', 'deleted', 'status', 'error']);
    expect(fields['wp publish']).toEqual(expect.arrayContaining(['link', 'action', 'source', 'fields']));
    expect(fields['completion']).toBeUndefined();
  });
});

describe('a declared verb without its JSON fields or its sweep rows fails the suite', () => {
  it('a verb without a JSON declaration is reported', () => {
    expect(verbsWithoutJsonDeclaration(withThrowawayVerb())).toEqual(['config throwaway']);
    expect(verbsWithoutJsonDeclaration(withThrowawayVerb(['count']))).toEqual([]);
  });

  it('a verb that no behaviour test runs by name is reported (its sweep rows do not count)', () => {
    const paths = verbPaths(withThrowawayVerb('none'));
    const tests = { 'test/commands/c.test.ts': "await cli(['config', 'list', '--json'])" };
    expect(verbsWithoutBehaviourTests(paths, tests)).toContain('config throwaway');
    for (const text of ["cli(['config', 'throwaway', '--json'])", '`blogctl config throwaway --json`'])
      expect(verbsWithoutBehaviourTests(['config throwaway'], { t: text })).toEqual([]);
    // Whole words: `blog create` does not run `blog c`.
    expect(verbsWithoutBehaviourTests(['blog c'], { t: "cli(['blog', 'create'])" })).toEqual(['blog c']);
  });

  it('a verb with no sweep.ts is reported, and is in no sweep', () => {
    const tree = withThrowawayVerb(['count']);
    expect(unswept(tree)).toEqual({
      sweep: ['config throwaway'],
      stale: [],
      json: ['config throwaway'],
      fieldForms: ['config throwaway'],
    });
    expect(missingFrom(verbPaths(tree), FAULT_MATRIX_KEYS)).toEqual(['config throwaway']);
  });

  it('a sweep.ts without JSON-output cases or field forms is reported, when the verb has JSON fields', () => {
    const partial: VerbSweep = { faults: 'local config only', secrets: 'prints a count' };
    const sweeps = { ...SWEEPS, 'config throwaway': partial };
    expect(unswept(withThrowawayVerb(['count']), sweeps)).toEqual({
      sweep: [],
      stale: [],
      json: ['config throwaway'],
      fieldForms: ['config throwaway'],
    });
    // A verb that prints no data needs neither.
    expect(unswept(withThrowawayVerb('none'), sweeps)).toEqual({
      sweep: [],
      stale: [],
      json: [],
      fieldForms: [],
    });
  });

  it('a full sweep.ts covers it', () => {
    expect(unswept(withThrowawayVerb(['count']), { ...SWEEPS, 'config throwaway': FULL })).toEqual({
      sweep: [],
      stale: [],
      json: [],
      fieldForms: [],
    });
  });

  it('a sweep.ts whose verb is not declared is reported', () => {
    expect(unswept(commandTree(), { ...SWEEPS, 'config throwaway': FULL }).stale).toEqual([
      'config throwaway',
    ]);
  });

  it('a key names its verb whole: `blog create` does not cover `blog c`', () => {
    expect(missingFrom(['blog c', 'blog create'], ['blog create --dry-run'])).toEqual(['blog c']);
  });
});
