// Opt-in OS keyring for the secrets of credentials.json (API keys, Application Passwords), through
// @napi-rs/keyring (macOS Keychain, Windows Credential Manager, the Secret Service on Linux).
//
// Opting in: BLOGCTL_KEYRING=1 makes every secret blogctl *writes* go to the keyring; credentials.json then
// keeps only an index of the names held there (`"keyring": {"service": …, "apiKeys": ["default"]}`), never
// a value. Reads follow that index whether or not BLOGCTL_KEYRING is set, so a cron job finds what a login
// at the terminal stored. Environment variables (BLOGCTL_API_KEY, BLOGCTL_WP_PASSWORD) still win over both.
//
// Never blocking: keyring calls are synchronous native calls that can wait forever on a D-Bus that does not
// answer, and a worker thread stuck in native code cannot be stopped. So each batch of calls runs in a
// short-lived child process (spawnSync, killed after 3 s): reads stay synchronous — factory.settings() is —
// and the file path pays nothing (no index, no child). On a timeout or any error blogctl warns once on
// stderr, makes no further keyring call in this run, and writes the secret to the 0600 file instead.
//
// On Linux the entry is pinned to the Secret Service: the library's other fallback, the kernel keyring,
// forgets everything at logout or reboot, which would silently lose a key the person thinks is stored.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { CredentialsData } from './store.js';

export const KEYRING_ENV = 'BLOGCTL_KEYRING';
export const KEYRING_TIMEOUT_MS = 3_000;

type SecretKind = 'apiKeys' | 'sitePasswords';
const KINDS: readonly SecretKind[] = ['apiKeys', 'sitePasswords'];
const ACCOUNT_PREFIX: Record<SecretKind, string> = { apiKeys: 'apiKey:', sitePasswords: 'sitePassword:' };

/** Which secrets live in the keyring, by name. No values. */
export interface KeyringIndex {
  service: string;
  apiKeys?: string[];
  sitePasswords?: string[];
}

/** credentials.json as stored on disk. */
export interface StoredCredentials extends CredentialsData {
  keyring?: KeyringIndex;
}

export type KeyringOp =
  | { op: 'get'; account: string }
  | { op: 'set'; account: string; secret: string }
  | { op: 'delete'; account: string };

/** Runs a batch of operations on one service; one result per op (the secret for `get`, else null). */
export interface KeyringBackend {
  /** Throws on any failure, including the time limit. */
  run(service: string, ops: KeyringOp[]): (string | null)[];
}

export interface SecretsOptions {
  /** Store new and changed secrets in the keyring (BLOGCTL_KEYRING=1). */
  useKeyring: boolean;
  backend?: KeyringBackend;
  /** One line, shown at most once per process. */
  warn?: (message: string) => void;
}

export function keyringRequested(env: NodeJS.ProcessEnv): boolean {
  const value = env[KEYRING_ENV];
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

// Per process: after one failure the keyring is left alone (one 3 s wait at most), and warned about once.
let unavailable: string | undefined;
let warned = false;
const remembered = new Map<string, string | null>();

/** For tests: forget the failure, the warning and the values read. */
export function resetKeyringState(): void {
  unavailable = undefined;
  warned = false;
  remembered.clear();
}

/** Reads and writes credentials.json's secrets, wherever each one lives. */
export class Secrets {
  private readonly backend: KeyringBackend;
  private readonly warn: (message: string) => void;

  constructor(
    private readonly dir: string,
    private readonly options: SecretsOptions,
  ) {
    this.backend = options.backend ?? childProcessBackend();
    this.warn = options.warn ?? ((message) => void process.stderr.write(`warning: ${message}\n`));
  }

  /** The secrets, with those the index names fetched from the keyring. Without an index: as stored. */
  load(stored: StoredCredentials): CredentialsData {
    const { keyring: index, ...data } = stored;
    if (!index) return stored;
    const wanted = KINDS.flatMap((kind) => (index[kind] ?? []).map((name) => ({ kind, name })));
    const values = this.call(
      index.service,
      wanted.map(({ kind, name }) => ({ op: 'get', account: ACCOUNT_PREFIX[kind] + name })),
      (reason) =>
        `cannot read ${wanted.length === 1 ? 'a secret' : `${wanted.length} secrets`} from the OS keyring (${reason}); ` +
        `set BLOGCTL_API_KEY / BLOGCTL_WP_PASSWORD, or log in again without ${KEYRING_ENV} to use ${this.file()}`,
    );
    const out: CredentialsData = { ...data };
    wanted.forEach(({ kind, name }, i) => {
      const value = values?.[i];
      if (typeof value === 'string') out[kind] = { ...out[kind], [name]: value };
    });
    return out;
  }

  /**
   * What to write to credentials.json after a change from `before` to `after`. With the keyring requested,
   * every secret not yet in it moves there (new, changed, or until now in the file); without, changed ones
   * go to the file. A secret left unchanged in the keyring stays there, and a removed one is deleted from
   * it. If the keyring fails, whatever was meant for it is written to the file.
   */
  save(stored: StoredCredentials, before: CredentialsData, after: CredentialsData): StoredCredentials {
    const oldIndex = stored.keyring;
    if (!oldIndex && !this.options.useKeyring) return after;
    const service = oldIndex?.service ?? `blogctl:${resolve(this.dir)}`;
    const file: StoredCredentials = { ...after };
    const held = new Map<SecretKind, Set<string>>(KINDS.map((k) => [k, new Set(oldIndex?.[k] ?? [])]));
    const ops: KeyringOp[] = [];
    const moved: { kind: SecretKind; name: string; value: string }[] = [];

    for (const kind of KINDS) {
      const inFile: Record<string, string> = { ...after[kind] };
      const names = new Set([...Object.keys(before[kind] ?? {}), ...Object.keys(after[kind] ?? {})]);
      for (const name of names) {
        const value = after[kind]?.[name];
        const account = ACCOUNT_PREFIX[kind] + name;
        const inKeyring = held.get(kind)!.has(name);
        if (value === undefined) {
          if (inKeyring) ops.push({ op: 'delete', account });
          held.get(kind)!.delete(name);
        } else if (value === before[kind]?.[name] && (inKeyring || !this.options.useKeyring)) {
          if (inKeyring) delete inFile[name]; // unchanged: stays where it is
        } else if (this.options.useKeyring) {
          ops.push({ op: 'set', account, secret: value });
          moved.push({ kind, name, value });
          held.get(kind)!.add(name);
          delete inFile[name];
        } else {
          if (inKeyring) ops.push({ op: 'delete', account });
          held.get(kind)!.delete(name);
        }
      }
      if (after[kind] !== undefined || Object.keys(inFile).length) file[kind] = inFile;
    }

    if (ops.length) {
      const done = this.call(
        service,
        ops,
        (reason) =>
          `the OS keyring is not available (${reason}); secrets are stored in ${this.file()} (mode 0600)`,
      );
      if (!done) {
        // Fall back: what was meant for the keyring goes to the file. Deletions are dropped from the index
        // anyway, so blogctl stops using them even if a copy is left in the keyring.
        for (const { kind, name, value } of moved) {
          file[kind] = { ...file[kind], [name]: value };
          held.get(kind)!.delete(name);
        }
      }
    }

    const index: KeyringIndex = { service };
    for (const kind of KINDS) {
      const names = [...held.get(kind)!].sort();
      if (names.length) index[kind] = names;
    }
    delete file.keyring;
    if (index.apiKeys || index.sitePasswords) file.keyring = index;
    return file;
  }

  /** Runs ops unless the keyring already failed in this process; undefined (after one warning) on failure. */
  private call(
    service: string,
    ops: KeyringOp[],
    warning: (reason: string) => string,
  ): (string | null)[] | undefined {
    if (!ops.length) return [];
    const cachedGets = ops.every((op) => op.op === 'get' && remembered.has(`${service}\n${op.account}`));
    if (cachedGets) return ops.map((op) => remembered.get(`${service}\n${op.account}`)!);
    if (unavailable === undefined) {
      try {
        const values = this.backend.run(service, ops);
        ops.forEach((op, i) => {
          const key = `${service}\n${op.account}`;
          if (op.op === 'get') remembered.set(key, values[i] ?? null);
          else remembered.set(key, op.op === 'set' ? op.secret : null);
        });
        return values;
      } catch (error) {
        unavailable = reasonOf(error);
      }
    }
    if (!warned) {
      warned = true;
      this.warn(warning(unavailable));
    }
    return undefined;
  }

  private file(): string {
    return resolve(this.dir, 'credentials.json');
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 200);
}

// ---------------------------------------------------------------------------------------------------------
// The real backend: one child process per batch, killed at the time limit. Secrets travel on stdin and
// stdout only — never argv or the environment, which other users can read.

const CHILD_SCRIPT = `
const fs = require('node:fs');
const reply = (o) => fs.writeSync(1, JSON.stringify(o));
try {
  const request = JSON.parse(fs.readFileSync(0, 'utf8'));
  const { Entry } = require(request.modulePath);
  const options = process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined;
  const values = request.ops.map((op) => {
    const entry = new Entry(request.service, op.account, options);
    if (op.op === 'get') return entry.getPassword() ?? null;
    if (op.op === 'set') entry.setPassword(op.secret);
    else entry.deletePassword();
    return null;
  });
  reply({ ok: true, values });
} catch (error) {
  reply({ ok: false, error: String((error && error.message) || error).split('\\n')[0] });
  process.exitCode = 1;
}
`;

export interface ChildBackendOptions {
  timeoutMs?: number;
  /** The module to load instead of @napi-rs/keyring (tests). */
  modulePath?: string;
  env?: NodeJS.ProcessEnv;
}

export function childProcessBackend(options: ChildBackendOptions = {}): KeyringBackend {
  const timeoutMs = options.timeoutMs ?? KEYRING_TIMEOUT_MS;
  return {
    run(service, ops) {
      const modulePath = options.modulePath ?? keyringModulePath();
      // Fetched here, not imported: this module is on every command's path (the config store), and
      // node:child_process brings net, dgram and the child-process internals, which only the keyring needs.
      const { spawnSync } = process.getBuiltinModule('node:child_process');
      const result = spawnSync(process.execPath, ['-e', CHILD_SCRIPT], {
        input: JSON.stringify({ modulePath, service, ops }),
        env: options.env ?? process.env,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
        windowsHide: true,
        maxBuffer: 1024 * 1024,
      });
      if (result.error) {
        const code = (result.error as NodeJS.ErrnoException).code;
        throw new Error(
          code === 'ETIMEDOUT' ? `no answer within ${timeoutMs / 1000} s` : result.error.message,
        );
      }
      if (result.signal) throw new Error(`the keyring helper was killed by ${result.signal}`);
      let answer: { ok: boolean; values?: (string | null)[]; error?: string };
      try {
        answer = JSON.parse(result.stdout) as typeof answer;
      } catch {
        throw new Error(
          `the keyring helper failed: ${result.stderr.split('\n')[0] || `exit ${result.status}`}`,
        );
      }
      if (!answer.ok || !Array.isArray(answer.values) || answer.values.length !== ops.length)
        throw new Error(answer.error ?? 'the keyring helper gave no answer');
      return answer.values;
    },
  };
}

function keyringModulePath(): string {
  try {
    return createRequire(import.meta.url).resolve('@napi-rs/keyring');
  } catch {
    throw new Error('the optional package @napi-rs/keyring is not installed');
  }
}
