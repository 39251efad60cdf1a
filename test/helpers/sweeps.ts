/// <reference types="vite/client" />
// The every-command sweeps (the JSON-output contract, the completion fields, the fault matrix, the secrets
// sweep) run every declared verb. What they cannot derive from the declaration — the arguments that run a
// verb, its fault route, its failure modes — each verb keeps beside itself, in
// src/commands/<group>/<verb>/sweep.ts (`src/commands/wp/sites/add/sweep.ts` is `wp sites add`). Those files
// are test-only: nothing in src/ imports them (eslint), so the build never sees them. This module finds them
// all and hands each sweep its rows; a declared verb with no sweep.ts, or whose sweep.ts lacks what the
// sweep needs, fails the suite (test/unit/command-tree.test.ts and each sweep's own check).
import type { Command } from 'commander';
import type { FakeWordPress } from './fake-wordpress.js';
import type { ServiceCommand } from './fault-server.js';
import { missingFrom, verbPaths, verbsWithJsonFields } from './command-tree.js';
import type { TestSandbox } from './sandbox.js';

/** One verb's rows. Every row's name holds the verb's path: `wp publish --dry-run`, `--sandbox blog create`. */
export interface VerbSweep {
  /** test/commands/json-output.test.ts: each form to run, by name; every verb that declares JSON fields. */
  json?: Record<string, JsonCase>;
  /**
   * test/commands/completion-fields.test.ts: the arguments of each form (the fields can depend on the flags),
   * whose "unknown field" error lists the fields it accepts; or `'open'` when its output has the service's
   * fields, which it does not check. Every verb that declares JSON fields.
   */
  fieldForms?: string[][] | 'open';
  /** The fault matrix (test/helpers/fault-matrix.ts): its rows when it talks to the service, else why not. */
  faults: ((c: FaultContext) => ServiceCommand[]) | string;
  /** The secrets sweep (test/commands/secrets.test.ts): its scenarios, else why not. */
  secrets: ((c: SecretsContext) => Scenario[]) | string;
}

/** json-output's servers and config dir: there once the suite has started, so read them inside `args`. */
export interface JsonContext {
  sandbox: TestSandbox;
  wp: FakeWordPress;
  /** The config dir; a.md and b.md in it are two Markdown posts. */
  dir: string;
  /** A new blog's id. */
  newBlog(): Promise<string>;
  /** Adds site profile `id` on `wp`. */
  addSite(id: string): Promise<void>;
}

export interface JsonCase {
  /** The command's words (group and verb), then its arguments; built afresh before each run. */
  args: (c: JsonContext) => Promise<string[]> | string[];
  /** How many of the leading words are command names. */
  words: number;
  input?: (c: JsonContext) => string;
  /** A field of its output, for `--json <field>`. */
  field: string;
  /** Its output has the service's fields (a blog's), which it does not check. */
  open?: boolean;
}

/** Where the fault matrix's rows put their input files. */
export interface FaultContext {
  workDir: string;
  /** Where rows that publish with --url send the post. */
  wordpressUrl: string;
  /** Writes `text` to `name` in workDir; returns its path. */
  file(name: string, text: string): string;
}

/** The secrets sweep's known secrets, servers and helpers. Servers are there only once it has started. */
export interface SecretsContext {
  API_KEY: string;
  WRONG_API_KEY: string;
  WP_PASSWORD_1: string;
  WP_PASSWORD_2: string;
  WRONG_WP_PASSWORD: string;
  PROVIDER_KEY: string;
  USER_1: string;
  USER_2: string;
  sandbox: TestSandbox;
  /** Site "one" of the seeded config (USER_1, WP_PASSWORD_1), and the default site. */
  wp1: FakeWordPress;
  /** Site "two" (USER_2, WP_PASSWORD_2). */
  wp2: FakeWordPress;
  /** A base URL where nothing listens. */
  unreachable: string;
  /** The path of an input file (params.json, sites.json, payload.json, broken-*.json, …). */
  inputFile(name: string): string;
  /** A wrong API key (401, exit 4) and an unreachable service (exit 7). */
  SERVICE_FAILURES: Failure[];
  /** `blog create` flags that need no prompt. */
  CREATE_FLAGS: string[];
  /** A config dir not created yet. */
  freshConfigDir(): string;
  /** A seeded config dir whose credentials.json is damaged right at the API key. */
  damagedCredentialsDir(): string;
  /** A new blog's id, made on the sandbox. */
  newBlogId(): Promise<string>;
}

export interface Scenario {
  name: string;
  /** Arguments after the global flags. A function runs per invocation (for ids that must be fresh). */
  args: string[] | (() => Promise<string[]>);
  input?: string;
  env?: Record<string, string>;
  /** Default: a seeded config dir. */
  dir?: () => string;
  /** Expected exit code of the successful run (default 0). */
  code?: number;
  /**
   * A project folder made beside the config dir for each run, holding this blogctl.yml: the run's working
   * directory, and every file written in it is searched too.
   */
  project?: string;
  /** Failure runs: wrong API key (401 → 4) and unreachable service (7), unless the command is local. */
  failures?: Failure[];
}

export interface Failure {
  name: string;
  code: number;
  args?: string[] | (() => Promise<string[]>);
  env?: Record<string, string>;
  input?: string;
}

const files = import.meta.glob<{ sweep: VerbSweep }>('../../src/commands/**/sweep.ts', { eager: true });

/** Every verb's sweep, by the verb's path (its folder under src/commands/, words spaced). */
export const SWEEPS: Record<string, VerbSweep> = Object.fromEntries(
  Object.entries(files).map(([file, module]) => [
    /src\/commands\/(.+)\/sweep\.ts$/.exec(file)![1]!.split('/').join(' '),
    module.sweep,
  ]),
);

/** What each sweep misses of the declared verbs of `root` (each list empty for a tree fully swept). */
export function unswept(root: Command, sweeps: Record<string, VerbSweep> = SWEEPS) {
  const verbs = verbPaths(root);
  const withFields = verbsWithJsonFields(root);
  const swept = (has: (s: VerbSweep) => boolean): string[] =>
    Object.keys(sweeps).filter((path) => has(sweeps[path]!));
  return {
    /** Declared verbs with no sweep.ts. */
    sweep: missingFrom(verbs, Object.keys(sweeps)),
    /** sweep.ts files of no declared verb. */
    stale: Object.keys(sweeps).filter((path) => !verbs.includes(path)),
    json: missingFrom(
      withFields,
      swept((s) => Object.keys(s.json ?? {}).length > 0),
    ),
    fieldForms: missingFrom(
      withFields,
      swept((s) => s.fieldForms !== undefined),
    ),
  };
}

/** Each row of a kind, with the verb it belongs to. */
export function rowsOf<T>(pick: (sweep: VerbSweep) => T[] | undefined): { verb: string; row: T }[] {
  return Object.entries(SWEEPS).flatMap(([verb, sweep]) => (pick(sweep) ?? []).map((row) => ({ verb, row })));
}

/** json-output's cases, by name. */
export function jsonCases(): Record<string, JsonCase> {
  return Object.assign({}, ...Object.values(SWEEPS).map((s) => s.json ?? {})) as Record<string, JsonCase>;
}

/** The fault matrix's rows. */
export function faultRows(c: FaultContext): ServiceCommand[] {
  return rowsOf((s) => (typeof s.faults === 'function' ? s.faults(c) : undefined)).map((r) => r.row);
}

/** The verbs the fault matrix leaves out, and why. */
export function notInFaultMatrix(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(SWEEPS).flatMap(([path, s]) => (typeof s.faults === 'string' ? [[path, s.faults]] : [])),
  );
}

/** The secrets sweep's scenarios. */
export function secretScenarios(c: SecretsContext): Scenario[] {
  return rowsOf((s) => (typeof s.secrets === 'function' ? s.secrets(c) : undefined)).map((r) => r.row);
}

/** The verbs the secrets sweep leaves out, and why. */
export function notSecretSwept(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(SWEEPS).flatMap(([path, s]) => (typeof s.secrets === 'string' ? [[path, s.secrets]] : [])),
  );
}
