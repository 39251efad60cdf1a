// Local state: config.json (profiles, settings, site profiles: no secrets) and credentials.json (API keys
// and Application Passwords: the secrets store; with BLOGCTL_KEYRING=1, only the names of those the OS
// keyring holds — see keyring.ts). Both mode 0600, written atomically (src/lib/atomic-file.ts), and changed
// only under a lock so overlapping cron runs never lose each other's writes.
import { mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { BlogctlError, UsageError } from '../errors.js';
import { parseJsonText } from '../lib/json-text.js';
import { checkTrusted } from './trust.js';
import { configShapeProblem, credentialsShapeProblem } from './shape.js';
import { keyringRequested, Secrets, type KeyringBackend, type StoredCredentials } from './keyring.js';

export interface ProfileData {
  baseUrl?: string;
}

export interface SiteProfile {
  url: string;
  username: string;
  label?: string;
  autoPublish?: boolean;
  isIntegrated?: boolean;
  isWebsiteValid?: boolean;
  verifiedAt?: string;
}

export interface ConfigData {
  currentProfile?: string;
  profiles?: Record<string, ProfileData>;
  settings?: Record<string, string | number>;
  sites?: Record<string, SiteProfile>;
}

export interface CredentialsData {
  apiKeys?: Record<string, string>;
  sitePasswords?: Record<string, string>;
}

export const DEFAULT_PROFILE = 'default';

export interface StoreOptions {
  /** BLOGCTL_KEYRING=1 stores secrets in the OS keyring (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Tests: a keyring other than @napi-rs/keyring in a child process. */
  keyring?: KeyringBackend;
  /** Where the one keyring warning goes (default: stderr). */
  warn?: (message: string) => void;
  /** The command's abort signal: Ctrl-C ends a wait for the lock. */
  signal?: AbortSignal;
  /** How long to wait for another blogctl holding the config lock (default 20 s). */
  lockWaitMs?: number;
}

export class ConfigStore {
  readonly dir: string;
  readonly configPath: string;
  readonly credentialsPath: string;
  private readonly secrets: Secrets;
  private readonly signal: AbortSignal | undefined;
  private readonly lockWaitMs: number;

  constructor(dir: string, options: StoreOptions = {}) {
    this.dir = dir;
    this.configPath = join(dir, 'config.json');
    this.credentialsPath = join(dir, 'credentials.json');
    this.signal = options.signal;
    this.lockWaitMs = options.lockWaitMs ?? 20_000;
    this.secrets = new Secrets(dir, {
      useKeyring: keyringRequested(options.env ?? process.env),
      ...(options.keyring && { backend: options.keyring }),
      ...(options.warn && { warn: options.warn }),
    });
  }

  readConfig(): ConfigData {
    checkTrusted(this.dir, 'folder');
    checkTrusted(this.configPath, 'file');
    return readJson<ConfigData>(this.configPath, configShapeProblem);
  }

  /** Secrets the OS keyring holds (see keyring.ts) are fetched from it; otherwise this is the file as is. */
  readCredentials(): CredentialsData {
    checkTrusted(this.dir, 'folder');
    checkTrusted(this.credentialsPath, 'file');
    return this.secrets.load(readJson<StoredCredentials>(this.credentialsPath, credentialsShapeProblem));
  }

  /** Applies a change to config.json under the lock, written atomically with mode 0600. */
  async updateConfig(change: (data: ConfigData) => void): Promise<ConfigData> {
    return this.locked(async () => {
      const data = this.readConfig();
      change(data);
      await writeConfigFile(this.configPath, data);
      return data;
    }, this.configPath);
  }

  async updateCredentials(change: (data: CredentialsData) => void): Promise<void> {
    await this.locked(async () => {
      checkTrusted(this.dir, 'folder');
      checkTrusted(this.credentialsPath, 'file');
      const stored = readJson<StoredCredentials>(this.credentialsPath, credentialsShapeProblem);
      const before = this.secrets.load(stored);
      const data = structuredClone(before);
      change(data);
      await writeConfigFile(this.credentialsPath, this.secrets.save(stored, before, data));
    }, this.credentialsPath);
  }

  /**
   * Runs fn holding the config dir's lock, waiting up to 20 s for another blogctl that holds it (a change takes
   * milliseconds; the lock of a holder killed on this machine is taken over at once, one from another machine
   * sharing the directory once stale, after 15 s), then exit 7. Ctrl-C ends the wait at once (exit 130).
   * This machine refusing a write (read-only, full, denied) is exit 9 naming `file`, which is left as it was.
   */
  async locked<T>(fn: () => Promise<T>, file: string = this.dir): Promise<T> {
    // The write side loads here: most commands only read the config, and the lock and atomic-write code
    // (two chunks) would cost each of them its load on Node 20, which compiles every chunk on every run.
    const [{ lockFile }, { writeFailure }] = await Promise.all([
      import('../lib/file-lock.js'),
      import('../lib/write-failure.js'),
    ]);
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const lockPath = join(this.dir, '.lock');
      const release = await lockFile(this.dir, {
        lockPath,
        waitMs: this.lockWaitMs,
        staleMs: 15_000,
        busy: (waitedMs) =>
          `another blogctl is changing the config in ${this.dir} (${lockPath} held for over ${Math.round(waitedMs / 1000)} s); nothing was changed`,
        ...(this.signal && { signal: this.signal }),
      });
      try {
        removeLeftoverTempFiles(this.dir);
        return await fn();
      } finally {
        // A lock lost while held (compromised) cannot be released; it is taken over once stale.
        await release().catch(() => undefined);
      }
    } catch (error) {
      if (error instanceof BlogctlError) throw error;
      const after = file === this.dir ? 'nothing was changed' : `${basename(file)} was left as it was`;
      throw writeFailure(error, file, after) ?? error;
    }
  }
}

/**
 * The file's content, {} when it does not exist or is empty. One that cannot be parsed or has the wrong shape
 * is a usage error (exit 2, like any other bad input: nothing was sent) naming the file and the field.
 */
function readJson<T extends object>(
  path: string,
  shapeProblem: (data: Record<string, unknown>) => string | undefined,
): T {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {} as T;
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (!text.trim()) return {} as T;
  // Never "repair" it by overwriting: the person may want what is in it.
  const unusable = (why: string) => new UsageError(`config file ${path} ${why}; fix or remove it`);
  const parsed = parseJsonText(text, `config file ${path}`, {
    error: (message) => new UsageError(`${message}; fix or remove it`),
  });
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw unusable('is not a JSON object');
  const problem = shapeProblem(parsed as Record<string, unknown>);
  if (problem) throw unusable(`cannot be used: ${problem}`);
  return parsed as T;
}

/** Tab-indented, as conf (which wrote them before) did: a file diffs as one line per changed value. */
async function writeConfigFile(path: string, data: object): Promise<void> {
  const { atomicWriteFile } = await import('../lib/atomic-file.js');
  await atomicWriteFile(path, JSON.stringify(data, undefined, '\t'), 0o600);
}

const LEFTOVER_TEMP =
  /^(?:(?:config|credentials)\.json\.tmp-|\.(?:config|credentials)\.json\.\d+\.[0-9a-f]+\.tmp$)/;

/**
 * Temporary files left by a blogctl killed mid-write: a copy of the file, so credentials.json's hold every
 * password. `.config.json.<pid>.<hex>.tmp` (atomicWriteFile), and `config.json.tmp-<digits><hex>` of the
 * versions that wrote through conf. Every write happens under the lock, so whatever is there when the lock is
 * taken is a dead process's.
 */
function removeLeftoverTempFiles(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!LEFTOVER_TEMP.test(name)) continue;
    try {
      unlinkSync(join(dir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
