// Start-up: loads the CLI's CommonJS chunk graph (dist/**/*.cjs) with V8's code cache, so a command pays for
// compiling its code once per installed version instead of on every run. bin/blogctl.js calls startCli();
// nothing here imports the rest of src/, and any failure of the cache falls back to plain compiling.
//
// Why: on Node 20, compiling the chunks a command needs (commander, zod, undici, the verb) is a large share
// of a short command's time, and Node 20 has no module.enableCompileCache (Node ≥ 22 has: it is used where
// present). The numbers are in test/bench/RESULTS.md.
//
// The cache lives in $XDG_CACHE_HOME/blogctl (else ~/.cache/blogctl): one directory per blogctl version, V8
// version, architecture and install, one file per chunk (chunk names carry a content hash). A file is
// written after the command ran, so it holds every function the command compiled, and atomically (temporary
// file, then rename). It is used only when its checksum matches; V8 itself rejects data from another V8 or
// made under other flags, and a missing or rejected entry is written again. NODE_DISABLE_COMPILE_CACHE=1
// (the switch Node ≥ 22 has for its own cache) turns it all off. NODE_DEBUG=blogctl lists each chunk as it
// loads (cache hit or miss, milliseconds) on stderr, since NODE_DEBUG=module does not see them.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import * as nodeModule from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

declare const BLOGCTL_VERSION: string;
/** The entry chunk's file name (content-hashed), filled in by scripts/build.mjs. */
declare const BLOGCTL_ENTRY: string;

const MAGIC = 0x31434342; // "BCC1", little-endian
const HEADER_BYTES = 8;

export interface CliModule {
  run(argv: string[]): Promise<number>;
}

/**
 * Sets the V8 flags the CLI runs with, then loads the entry chunk and returns its exports.
 *
 * `--liftoff-only`: undici parses HTTP with llhttp compiled to WebAssembly, and the first request compiles
 * that module. Liftoff alone compiles it in a fraction of the time V8's optimising tier takes, and loopback
 * throughput is no lower for it (test/bench/RESULTS.md). It is set here, before anything is compiled, and
 * not just before the first request: V8 ties cached code to the flags in force, so the same flags on every
 * run keep every cache entry valid.
 */
export function startCli(env: NodeJS.ProcessEnv = process.env, distDir: string = __dirname): CliModule {
  try {
    setFlagsFromString('--liftoff-only');
  } catch {
    // A V8 without the flag: run with its defaults.
  }
  const entry = join(distDir, BLOGCTL_ENTRY);
  const cacheDir = cacheDirFor(env, distDir);
  const enableCompileCache = (nodeModule as { enableCompileCache?: (dir: string) => unknown })
    .enableCompileCache;
  if (cacheDir && typeof enableCompileCache === 'function') {
    // Node ≥ 22: its own compile cache does the same for plain require(), checksums included.
    try {
      enableCompileCache(cacheDir);
    } catch {
      // run uncached
    }
    return nodeModule.createRequire(entry)(entry) as CliModule;
  }
  const trace = /\bblogctl\b/i.test(env['NODE_DEBUG'] ?? '')
    ? (line: string): void => void process.stderr.write(`BLOGCTL ${process.pid}: ${line}\n`)
    : undefined;
  return new ChunkLoader(cacheDir, trace).load(entry) as CliModule;
}

/**
 * $XDG_CACHE_HOME/blogctl/<version>-v8-<V8 version>-<arch>-<install>[-f<flags>], or undefined when caching
 * is off. <install> tells apart two installs of the same version (a global one and a checkout), whose
 * chunks differ: each prunes only its own entries.
 */
export function cacheDirFor(env: NodeJS.ProcessEnv, distDir: string = __dirname): string | undefined {
  const off = env['NODE_DISABLE_COMPILE_CACHE'];
  if (off && off !== '0' && off.toLowerCase() !== 'false') return undefined;
  let base: string;
  try {
    const xdg = env['XDG_CACHE_HOME'];
    base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  } catch {
    return undefined;
  }
  // Node options on the command line or in NODE_OPTIONS can change V8's flags, which V8 checks cached data
  // against: such runs get a directory of their own instead of overwriting each other's entries.
  const flags = [...process.execArgv, env['NODE_OPTIONS'] ?? ''].join(' ').trim();
  const flagTag = flags ? `-f${(crc32(flags) >>> 0).toString(36)}` : '';
  const version = typeof BLOGCTL_VERSION === 'string' ? BLOGCTL_VERSION : 'dev';
  const install = (crc32(distDir) >>> 0).toString(36);
  return join(base, 'blogctl', `${version}-v8-${process.versions.v8}-${process.arch}-${install}${flagTag}`);
}

interface LoadedModule {
  exports: unknown;
}

/**
 * CommonJS for our own chunks only: a relative require between chunks comes here, anything else (Node
 * built-ins, the optional native keyring) goes to Node's require. Each chunk is compiled by vm.Script with
 * its cached data; entries that were missing or rejected are written when the process exits.
 */
class ChunkLoader {
  private readonly modules = new Map<string, LoadedModule>();
  private readonly toWrite: { script: Script; file: string }[] = [];

  constructor(
    private readonly cacheDir: string | undefined,
    private readonly trace?: (line: string) => void,
  ) {
    if (cacheDir) process.once('exit', () => this.writeCaches());
  }

  load(file: string): unknown {
    const known = this.modules.get(file);
    if (known) return known.exports;
    const started = this.trace && performance.now();
    const wrapped = `(function (exports, require, module, __filename, __dirname) { ${readFileSync(file, 'utf8')}\n})`;
    const cachedData = this.readCache(file);
    let script: Script;
    try {
      script = new Script(wrapped, { filename: file, ...(cachedData && { cachedData }) });
    } catch (error) {
      if (!cachedData) throw error;
      script = new Script(wrapped, { filename: file });
    }
    if (this.cacheDir && (!cachedData || script.cachedDataRejected)) this.toWrite.push({ script, file });
    const module: LoadedModule = { exports: {} };
    // Registered before it runs, as Node does, so a cycle between chunks sees the exports being built.
    this.modules.set(file, module);
    const dir = dirname(file);
    const nodeRequire = nodeModule.createRequire(file);
    const require = Object.assign(
      (id: string): unknown =>
        id.startsWith('./') || id.startsWith('../') ? this.load(resolve(dir, id)) : nodeRequire(id),
      { resolve: nodeRequire.resolve, cache: nodeRequire.cache },
    );
    const compiled = script.runInThisContext() as (...args: unknown[]) => void;
    const ran = this.trace && performance.now();
    compiled.call(module.exports, module.exports, require, module, file, dir);
    if (this.trace) {
      const status = !cachedData
        ? this.cacheDir
          ? 'miss'
          : 'off'
        : script.cachedDataRejected
          ? 'rejected'
          : 'hit';
      const ms = (n: number): string => n.toFixed(1);
      // Run times include the chunks this one requires while it runs.
      this.trace(
        `${basename(file)} ${Math.ceil(wrapped.length / 1024)} KB, cache ${status}, ` +
          `compile ${ms(ran! - started!)} ms, run ${ms(performance.now() - ran!)} ms`,
      );
    }
    return module.exports;
  }

  private cacheFile(file: string): string {
    return join(this.cacheDir!, `${basename(file)}.v8`);
  }

  private readCache(file: string): Buffer | undefined {
    if (!this.cacheDir) return undefined;
    try {
      const data = readFileSync(this.cacheFile(file));
      if (data.length <= HEADER_BYTES || data.readUInt32LE(0) !== MAGIC) return undefined;
      const payload = data.subarray(HEADER_BYTES);
      // V8 trusts the bytes it is given: a checksum keeps a damaged file from ever reaching it.
      return data.readUInt32LE(4) === crc32(payload) >>> 0 ? payload : undefined;
    } catch {
      return undefined;
    }
  }

  /** At exit, after the command ran, so the data holds every function it compiled. Never throws. */
  private writeCaches(): void {
    if (!this.toWrite.length) return;
    try {
      mkdirSync(this.cacheDir!, { recursive: true, mode: 0o700 });
    } catch {
      return;
    }
    for (const { script, file } of this.toWrite) {
      const target = this.cacheFile(file);
      const temporary = `${target}.${process.pid}.tmp`;
      try {
        const payload = script.createCachedData();
        const header = Buffer.alloc(HEADER_BYTES);
        header.writeUInt32LE(MAGIC, 0);
        header.writeUInt32LE(crc32(payload) >>> 0, 4);
        writeFileSync(temporary, Buffer.concat([header, payload]), { mode: 0o600 });
        renameSync(temporary, target);
      } catch {
        try {
          unlinkSync(temporary);
        } catch {
          // nothing was written
        }
      }
    }
    this.removeStale();
  }

  /**
   * Entries for chunks this build does not have (an earlier build of this install) go, and so do the
   * directories of other installs and versions not written to for 30 days.
   */
  private removeStale(): void {
    try {
      const parent = dirname(this.cacheDir!);
      const monthAgo = Date.now() - 30 * 24 * 3600 * 1000;
      for (const name of readdirSync(parent)) {
        const other = join(parent, name);
        if (other !== this.cacheDir && /-v8-/.test(name) && statSync(other).mtimeMs < monthAgo) {
          rmSync(other, { recursive: true, force: true });
        }
      }
    } catch {
      // best effort
    }
    try {
      const entry = this.modules.keys().next().value;
      if (!entry) return;
      const dir = dirname(entry);
      const current = new Set(
        [dir, join(dir, 'chunks')]
          .flatMap((d) => readdirSync(d).filter((n) => n.endsWith('.cjs')))
          .map((n) => `${n}.v8`),
      );
      for (const name of readdirSync(this.cacheDir!)) {
        if (name.endsWith('.v8') && !current.has(name)) unlinkSync(join(this.cacheDir!, name));
      }
    } catch {
      // best effort
    }
  }
}
