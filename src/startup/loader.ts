// Start-up: loads the CLI's CommonJS chunk graph (dist/**/*.cjs) with V8's code cache, so a command pays for
// compiling its code once per installed version instead of on every run. bin/blogctl.js calls startCli();
// nothing here imports the rest of src/, and any failure of the cache falls back to plain compiling.
//
// Why: on Node 20, compiling the chunks a command needs (commander, zod, undici, the verb) is a large share
// of a short command's time, and Node 20 has no module.enableCompileCache (Node ≥ 22 has: it is used where
// present). The numbers are in test/bench/RESULTS.md.
//
// The entry and every small chunk come from two packs (dist/pack-*.cjs, made by scripts/build.mjs): scripts
// whose members are functions, each run when it is first required, so a command reads, checksums and
// deserialises a file and a cache per pack instead of one of each per chunk (a `blog list` needs 25). The
// first pack is the start-up path, all that `--version` reads; the second is opened by the first require
// the first cannot answer. The large libraries are files of their own, each with its own cache entry.
//
// The cache lives in $XDG_CACHE_HOME/blogctl (else ~/.cache/blogctl): one directory per blogctl version, V8
// version, architecture and install; in it one file per chunk outside the packs, and one per pack and command
// line (commandKey), since V8 reads all of a cache back and `--version` need not read what `blog list`
// compiled (file names carry a content hash). A file is written after the command ran, so it holds every
// function the command compiled, and atomically (temporary file, then rename); a pack's cache is written
// again when a run loads members it does not hold. It is used only when its checksum matches; V8 itself rejects
// data from another V8 or made under other flags, and a missing or rejected entry is written again. NODE_DISABLE_COMPILE_CACHE=1
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
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

declare const BLOGCTL_VERSION: string;
/** The entry chunk's file name (content-hashed), filled in by scripts/build.mjs. */
declare const BLOGCTL_ENTRY: string;
/**
 * The packs' file names (content-hashed), in the order they are opened: the start-up pack (the entry and
 * what it requires as it loads), then the small chunks the commands load (scripts/build.mjs).
 */
declare const BLOGCTL_PACKS: string[];

const MAGIC = 0x31434342; // "BCC1", little-endian
const HEADER_BYTES = 8;
/** A pack's cache: "BCP1", the checksum of the rest, the length of the member list, the list, V8's data. */
const PACK_MAGIC = 0x31504342;
const PACK_HEADER_BYTES = 12;

export interface CliModule {
  run(argv: string[]): Promise<number>;
}

/**
 * Loads the entry chunk and returns its exports. V8's flags are left as they are: V8 checks cached code
 * against a hash of them, Node's own cache of its built-in modules included. (undici sets `--liftoff-only`,
 * and the TurboFan budget, when it compiles its parser, and they stay set for the rest of the run:
 * scripts/build.mjs.)
 */
export function startCli(env: NodeJS.ProcessEnv = process.env, distDir: string = __dirname): CliModule {
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
  const packs = typeof BLOGCTL_PACKS === 'object' ? BLOGCTL_PACKS.map((name) => join(distDir, name)) : [];
  return new ChunkLoader(cacheDir, trace, packs, commandKey(process.argv.slice(2))).load(entry) as CliModule;
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

/**
 * Which of a pack's caches a command line uses: its first words, at most two (`blog list`, `wp sites`), or
 * `root` (`--version`, `--help`). A cache holds the code of every function the commands that wrote it ran,
 * and V8 reads all of it back, so `--version` does not read `blog list`'s. Options before the first word are
 * passed over (`--json blog list` is `blog.list`; the value of `--profile work` counts as a word, which only
 * makes a key of its own). A word is lower-case letters and dashes, so an argument such as a file name or an
 * id (rarely letters only) ends the key, and so does an option after the first word.
 */
export function commandKey(args: readonly string[]): string {
  const words: string[] = [];
  for (const arg of args) {
    if (words.length === 2) break;
    if (arg.startsWith('-') && !words.length) continue;
    if (!/^[a-z][a-z-]{0,23}$/.test(arg)) break;
    words.push(arg);
  }
  return words.length ? words.join('.') : 'root';
}

/**
 * The global through which code that changes V8's flags tells the loader, naming them (undici's first
 * connection: scripts/build.mjs).
 */
const V8_FLAGS_CHANGED = Symbol.for('blogctl.v8FlagsChanged');

/**
 * Sets back the flags undici's first connection changes (`--liftoff-only` and what it implies, and the
 * TurboFan budget: scripts/build.mjs): V8 11.3 (Node 20) hashes the flags that differ from their defaults,
 * and this gives back the hash every cache entry is read with; the defaults are V8 11.3's, measured. False,
 * and nothing done, on another V8 (Node 21's 11.8 then writes no cache in such a run), or when
 * node was started with flags of its own for these.
 */
function restoreV8Flags(): boolean {
  if (!/^11\.3\./.test(process.versions.v8)) return false;
  // Started with flags of its own for these (node --no-wasm-tier-up …): their defaults are not the hash.
  const own = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join(' ');
  if (/liftoff|wasm|interrupt[-_]budget/i.test(own)) return false;
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  for (const flag of [
    '--no-liftoff-only',
    '--wasm-tier-up',
    '--wasm-dynamic-tiering',
    // V8 11.3's default.
    '--interrupt-budget=67584',
  ])
    setFlagsFromString(flag);
  return true;
}

/** Caches kept of each pack, the most recently written: one per command line key, and a bound on odd ones. */
const MAX_PACK_CACHES = 32;

interface LoadedModule {
  exports: unknown;
}

type ChunkFactory = (
  exports: unknown,
  require: (id: string) => unknown,
  module: LoadedModule,
  filename: string,
  dirname: string,
) => void;

/** The pack, compiled: each member's function by its path under dist/ ("chunks/x.cjs"). */
interface Pack {
  file: string;
  dir: string;
  script: Script;
  members: Record<string, ChunkFactory | undefined>;
  /** Members whose code the cache holds (they ran in a run that wrote it); undefined when it must be written. */
  covered: Set<string> | undefined;
  /** Members this run loaded. */
  loaded: Set<string>;
  /** Opened after V8's flags changed: its cache is not written. */
  afterFlags: boolean;
}

/**
 * CommonJS for our own chunks only: a relative require between chunks comes here, anything else (Node
 * built-ins, the optional native keyring) goes to Node's require. Chunks in a pack run from it; the others
 * are compiled by vm.Script, each with its cached data. Entries that were missing or rejected are written when
 * the process exits, and so is a pack's when this run loaded members whose code its cache did not hold.
 */
class ChunkLoader {
  private readonly modules = new Map<string, LoadedModule>();
  private readonly toWrite: { script: Script; file: string }[] = [];
  /** One require per directory, for what is not ours. */
  private readonly nodeRequires = new Map<string, NodeJS.Require>();
  /** The packs opened so far (those that could not be read are left out). */
  private readonly packs: Pack[] = [];
  /** The packs not opened yet: each is opened when a chunk is not in the ones before it. */
  private readonly unopened: string[];
  /** V8's flags changed during the run (V8_FLAGS_CHANGED): what is compiled from then on gets no cache. */
  private flagsChanged = false;

  constructor(
    private readonly cacheDir: string | undefined,
    private readonly trace?: (line: string) => void,
    packFiles: readonly string[] = [],
    /** The command line's key (commandKey): each has a cache of each pack of its own. */
    private readonly packKey = 'root',
  ) {
    if (cacheDir) {
      process.once('exit', () => this.writeCaches());
      (globalThis as Record<symbol, unknown>)[V8_FLAGS_CHANGED] = (flags?: string[]): void => {
        this.flagsChanged = true;
        this.trace?.(`V8 flags set: ${flags?.join(' ') ?? '(not named)'}`);
      };
    }
    this.unopened = [...packFiles];
  }

  load(file: string): unknown {
    const known = this.modules.get(file);
    if (known) return known.exports;
    const started = this.trace && performance.now();
    const member = this.memberOf(file);
    let factory: ChunkFactory;
    let status: string;
    let kb: number;
    if (member) {
      factory = member.factory;
      member.pack.loaded.add(member.key);
      status = `in ${basename(member.pack.file)}`;
      // Its text is made only for the trace.
      kb = this.trace ? Math.ceil(member.factory.toString().length / 1024) : 0;
    } else {
      const source = readFileSync(file, 'utf8');
      const compiled = this.compile(
        file,
        `(function (exports, require, module, __filename, __dirname) { ${source}\n})`,
      );
      factory = compiled.script.runInThisContext() as ChunkFactory;
      status = `cache ${compiled.status}`;
      kb = Math.ceil(source.length / 1024);
      if (this.cacheDir && compiled.status !== 'hit' && !this.flagsChanged)
        this.toWrite.push({ script: compiled.script, file });
    }
    const module: LoadedModule = { exports: {} };
    // Registered before it runs, as Node does, so a cycle between chunks sees the exports being built.
    this.modules.set(file, module);
    const dir = dirname(file);
    const nodeRequire = this.nodeRequireFor(file, dir);
    const require = Object.assign(
      (id: string): unknown =>
        id.startsWith('./') || id.startsWith('../') ? this.load(resolve(dir, id)) : nodeRequire(id),
      { resolve: nodeRequire.resolve, cache: nodeRequire.cache },
    );
    const ran = this.trace && performance.now();
    factory.call(module.exports, module.exports, require, module, file, dir);
    if (this.trace) {
      const ms = (n: number): string => n.toFixed(1);
      // Run times include the chunks this one requires while it runs.
      this.trace(
        `${basename(file)} ${kb} KB, ${status}, ` +
          `compile ${ms(ran! - started!)} ms, run ${ms(performance.now() - ran!)} ms`,
      );
    }
    return module.exports;
  }

  /** A script with its cached data, when there is valid data for it; 'off' when caching is. */
  private compile(
    file: string,
    source: string,
  ): { script: Script; status: 'hit' | 'miss' | 'rejected' | 'off' } {
    const cachedData = this.readCache(file);
    let script: Script;
    try {
      script = new Script(source, { filename: file, ...(cachedData && { cachedData }) });
    } catch (error) {
      if (!cachedData) throw error;
      script = new Script(source, { filename: file });
      return { script, status: 'rejected' };
    }
    const status = !cachedData
      ? this.cacheDir
        ? 'miss'
        : 'off'
      : script.cachedDataRejected
        ? 'rejected'
        : 'hit';
    return { script, status };
  }

  /** Node's require for what a chunk in `dir` asks of it; chunks of one directory share one. */
  private nodeRequireFor(file: string, dir: string): NodeJS.Require {
    let nodeRequire = this.nodeRequires.get(dir);
    if (!nodeRequire) {
      nodeRequire = nodeModule.createRequire(file);
      this.nodeRequires.set(dir, nodeRequire);
    }
    return nodeRequire;
  }

  /** The pack, compiled with its cache; undefined (every chunk from its own file) when it cannot be read. */
  private openPack(file: string): Pack | undefined {
    const started = this.trace && performance.now();
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    const cached = this.readPackCache(file);
    let script: Script;
    let covered = cached?.covered;
    let members: Pack['members'];
    try {
      try {
        script = new Script(source, { filename: file, ...(cached && { cachedData: cached.data }) });
        if (script.cachedDataRejected) covered = undefined;
      } catch (error) {
        if (!cached) throw error;
        script = new Script(source, { filename: file });
        covered = undefined;
      }
      members = script.runInThisContext() as Pack['members'];
    } catch {
      // Damaged (an install cut short): every chunk is in its own file too.
      return undefined;
    }
    if (this.trace) {
      const status = !cached ? (this.cacheDir ? 'miss' : 'off') : covered ? 'hit' : 'rejected';
      this.trace(
        `${basename(file)} ${Math.ceil(source.length / 1024)} KB, cache ${status}` +
          `${covered ? ` (${covered.size} members)` : ''}, compile ${(performance.now() - started!).toFixed(1)} ms`,
      );
    }
    return {
      file,
      dir: dirname(file),
      script,
      members,
      covered,
      loaded: new Set(),
      afterFlags: this.flagsChanged,
    };
  }

  /** The pack function for `file`, from the packs opened so far, then from the next ones, in order. */
  private memberOf(file: string): { pack: Pack; key: string; factory: ChunkFactory } | undefined {
    for (let i = 0; ; i++) {
      if (i === this.packs.length) {
        const next = this.unopened.shift();
        if (next === undefined) return undefined;
        const opened = this.openPack(next);
        if (opened) this.packs.push(opened);
        i--;
        continue;
      }
      const pack = this.packs[i]!;
      if (!file.startsWith(pack.dir)) continue;
      const rest = file.slice(pack.dir.length + 1);
      const key = sep === '/' ? rest : rest.split(sep).join('/');
      const factory = Object.hasOwn(pack.members, key) ? pack.members[key] : undefined;
      if (factory) return { pack, key, factory };
    }
  }

  /** The pack's cached data and the members it covers, when the file is there and intact. */
  private readPackCache(file: string): { data: Buffer; covered: Set<string> } | undefined {
    if (!this.cacheDir) return undefined;
    try {
      const data = readFileSync(this.packCacheFile(file));
      if (data.length <= PACK_HEADER_BYTES || data.readUInt32LE(0) !== PACK_MAGIC) return undefined;
      if (data.readUInt32LE(4) !== crc32(data.subarray(8)) >>> 0) return undefined;
      const listEnd = PACK_HEADER_BYTES + data.readUInt32LE(8);
      if (listEnd >= data.length) return undefined;
      const list = data.toString('utf8', PACK_HEADER_BYTES, listEnd);
      return { data: data.subarray(listEnd), covered: new Set(list ? list.split('\n') : []) };
    } catch {
      return undefined;
    }
  }

  private packCacheFile(file: string): string {
    return join(this.cacheDir!, `${basename(file)}.${this.packKey}.v8`);
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
    // A pack's cache is written when it is missing or rejected, or when this run loaded members it does not hold.
    const stalePacks = this.packs.filter(
      (pack) =>
        !pack.afterFlags && (!pack.covered || [...pack.loaded].some((member) => !pack.covered!.has(member))),
    );
    if (!this.toWrite.length && !stalePacks.length) return;
    // Data is stamped with the flags in force when it is made; it must carry those it is read with.
    if (this.flagsChanged && !restoreV8Flags()) return;
    try {
      mkdirSync(this.cacheDir!, { recursive: true, mode: 0o700 });
    } catch {
      return;
    }
    for (const { script, file } of this.toWrite) {
      const header = Buffer.alloc(HEADER_BYTES);
      header.writeUInt32LE(MAGIC, 0);
      this.writeCache(this.cacheFile(file), () => {
        const payload = script.createCachedData();
        header.writeUInt32LE(crc32(payload) >>> 0, 4);
        return [header, payload];
      });
    }
    for (const pack of stalePacks) {
      // The data holds every function compiled so far: the members the old data held and this run's.
      const list = Buffer.from([...new Set([...(pack.covered ?? []), ...pack.loaded])].sort().join('\n'));
      this.writeCache(this.packCacheFile(pack.file), () => {
        const payload = pack.script.createCachedData();
        const header = Buffer.alloc(PACK_HEADER_BYTES);
        header.writeUInt32LE(PACK_MAGIC, 0);
        header.writeUInt32LE(list.length, 8);
        header.writeUInt32LE(crc32(payload, crc32(list, crc32(header.subarray(8)))) >>> 0, 4);
        return [header, list, payload];
      });
    }
    this.removeStale();
  }

  /** Writes a cache file atomically: a temporary file, then a rename. Never throws. */
  private writeCache(target: string, parts: () => Buffer[]): void {
    const temporary = `${target}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, Buffer.concat(parts()), { mode: 0o600 });
      renameSync(temporary, target);
    } catch {
      try {
        unlinkSync(temporary);
      } catch {
        // nothing was written
      }
    }
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
        [dir, join(dir, 'chunks')].flatMap((d) => readdirSync(d).filter((n) => n.endsWith('.cjs'))),
      );
      const packCaches = new Map<string, { name: string; mtimeMs: number }[]>();
      const hourAgo = Date.now() - 3600 * 1000;
      for (const name of readdirSync(this.cacheDir!)) {
        const path = join(this.cacheDir!, name);
        // <chunk>.cjs.v8, or <pack>.cjs.<key>.v8; or a temporary file a killed run left behind
        const m = /^(.+?\.cjs)(\.[a-z.-]+)?\.v8$/.exec(name);
        if (!m) {
          if (/\.v8\.\d+\.tmp$/.test(name) && mtimeOf(path) < hourAgo) unlinkQuietly(path);
          continue;
        }
        if (!current.has(m[1]!)) unlinkQuietly(path);
        else if (m[2]) {
          const caches = packCaches.get(m[1]!) ?? [];
          caches.push({ name, mtimeMs: mtimeOf(path) });
          packCaches.set(m[1]!, caches);
        }
      }
      for (const caches of packCaches.values()) {
        caches.sort((a, b) => b.mtimeMs - a.mtimeMs);
        for (const { name } of caches.slice(MAX_PACK_CACHES)) unlinkQuietly(join(this.cacheDir!, name));
      }
    } catch {
      // best effort
    }
  }
}

/** An entry another process may be removing, or one in use (EBUSY on Windows): the rest is still pruned. */
function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // best effort
  }
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}
