// Bundles src/ into dist/ with code splitting: the entry holds only the parser; every command and heavy
// library lands in a chunk of its own that loads when a command actually runs.
//
// The chunks are CommonJS (dist/**/*.cjs), not ES modules: esbuild splits in ESM, then each output file is
// turned into CommonJS and its import() calls into lazy require()s. On Node 20 the same code starts faster
// as CommonJS, and only scripts can use V8's code cache, which dist/startup.cjs (src/startup/loader.ts)
// applies. Measurements: test/bench/RESULTS.md. For anything that uses the old names, dist/cli.js is an ESM
// facade of the entry and dist/sandbox-server.js still runs the sandbox.
//
//   node scripts/build.mjs            build
//   node scripts/build.mjs --report   build, and print what the start-up path (`blogctl --help`) loads
//   node scripts/build.mjs --readable build without minifying, for reading a CPU profile (`node --cpu-prof`)
import { build, transform } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { constants as http2Constants } from 'node:http2';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const report = process.argv.includes('--report');
const minify = !process.argv.includes('--readable');
const target = 'node20.18';
const define = { BLOGCTL_VERSION: JSON.stringify(pkg.version) };
/** Packages allowed on the start-up path besides our own code: the parser. */
const STARTUP_PACKAGES = new Set(['commander']);

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

/** A plugin that hands `packageName`'s modules a stand-in for `moduleName`. */
function standIn(name, packageName, moduleName, contents) {
  const from = new RegExp(`[\\\\/]node_modules[\\\\/]${packageName}[\\\\/]`);
  return {
    name,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(node:)?${moduleName}$`) }, (args) =>
        from.test(args.importer) ? { path: moduleName, namespace: name } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: name }, () => ({ contents, loader: 'js' }));
    },
  };
}

// commander requires node:child_process when it loads, for executable subcommands, which blogctl never has;
// that pulls net, dgram and the child-process internals into every start. It gets a stand-in that requires
// the real module only if spawn is ever used.
const lazyChildProcess = standIn(
  'lazy-child-process',
  'commander',
  'child_process',
  "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
);

// undici's HTTP/2 client requires node:http2 when it loads, only to read header-name constants, and http2
// brings tls, most of crypto, perf_hooks and fs/promises with it. blogctl never speaks HTTP/2 (allowH2 is
// off), so undici gets the constants, copied here at build time, and a connect() that loads the real module.
const lazyHttp2 = standIn(
  'lazy-http2',
  'undici',
  'http2',
  `module.exports = { constants: ${JSON.stringify(
    Object.fromEntries(
      Object.entries(http2Constants).filter(([, v]) => ['string', 'number'].includes(typeof v)),
    ),
  )}, connect: (...args) => require('node:http2').connect(...args) };`,
);

// gray-matter's js-yaml (3.x) requires esprima when it loads, for its `!!js/function` type, which only its
// unsafe load() accepts; gray-matter calls safeLoad(). Requiring it cost 8–10 ms of every Markdown publish
// where it is installed, and a failed lookup where it is not. The type gets a stand-in that never matches.
const noEsprima = {
  name: 'no-esprima',
  setup(b) {
    b.onLoad({ filter: /[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]type[\\/]js[\\/]function\.js$/ }, (args) => ({
      resolveDir: dirname(args.path),
      loader: 'js',
      contents: `'use strict';
        var Type = require('../../type');
        module.exports = new Type('tag:yaml.org,2002:js/function', { kind: 'scalar', resolve: function () { return false; } });`,
    }));
  },
};

// undici compiles its HTTP parser (llhttp, WebAssembly) at its first connection, and V8 then compiles the
// module again with its optimising tier on background threads, which exiting waits for: a one-request
// `blog create` spent ~120 ms of its 280 ms there. With `--liftoff-only` V8 keeps to its baseline compiler,
// with no loss of loopback throughput. The flag is set there and then, not when blogctl starts: V8 checks
// cached code against a hash of its flags, Node's embedded cache of its own modules included, and with the
// flag set from the start every built-in module (node:http: +6 ms) was compiled from source, in every
// command, `--version` included. The start-up loader is told, so that it writes its caches under the flags
// they will be read with (src/startup/loader.ts).
//
// The same moment starts a command's network part, and on V8 11.3 (Node 20) the JavaScript optimising tier
// (TurboFan) is made to wait four times longer before it compiles a hot function (`--interrupt-budget`,
// 67584 by default). A batch is over in a fraction of a second: what TurboFan compiled for it (~130
// functions, ~300 ms of compiler time on other threads per 500 posts) competed for the machine's cores
// with the work it was meant to speed up, and the loopback service. In alternating runs of a 500-post
// publish: 17–19 % more posts a second on the wire and a tenth less CPU; 2,000 posts: no difference either
// way. Code that stays hot (a long batch, a 20,000-blog list over https) is still optimised; `blogctl
// sandbox`, a server, keeps the budget for its life, which only delays its warm-up. Only on V8 11.3, whose
// default the loader sets back (an unknown flag would print an error on another), and not when node was
// started with a budget of its own.
const LLHTTP_CALL = 'llhttpInstance = lazyllhttp()';
const liftoffLlhttp = {
  name: 'liftoff-llhttp',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (source.split(LLHTTP_CALL).length !== 2)
        throw new Error(`${args.path}: expected one \`${LLHTTP_CALL}\` to compile with Liftoff alone`);
      return {
        loader: 'js',
        resolveDir: dirname(args.path),
        contents:
          source.replace(LLHTTP_CALL, 'llhttpInstance = blogctlLiftoffOnly(lazyllhttp)') +
          `
function blogctlLiftoffOnly(compile) {
  const flags = ['--liftoff-only'];
  // Not over a budget node was started with (V8 takes both spellings).
  if (/^11\\.3\\./.test(process.versions.v8) && !/interrupt[-_]budget/.test(process.execArgv.join(' ')))
    flags.push('--interrupt-budget=270336');
  const { setFlagsFromString } = require('node:v8');
  for (const flag of flags) setFlagsFromString(flag);
  const changed = globalThis[Symbol.for('blogctl.v8FlagsChanged')];
  if (typeof changed === 'function') changed(flags);
  return compile();
}
`,
      };
    });
  },
};

// undici's index loads all of undici: fetch, WebSocket, EventSource, caches, mocks, interceptors, and zlib,
// worker_threads and web streams with them. src/http uses two names; the bundle takes just those from
// undici's own modules, wired as its index wires them (Dispatcher.prototype gets the request API: the proxy
// agent opens its CONNECT tunnels with it). src/ keeps importing 'undici', so the tests run the very same
// classes unbundled. It is an ES module with named exports because src/http imports it with import(): a
// CommonJS stand-in would hand import() only `default`.
const undiciCore = {
  name: 'undici-core',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      /[\\/]src[\\/]/.test(args.importer) ? { path: 'undici', namespace: 'undici-core' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'undici-core' }, () => ({
      resolveDir: process.cwd(),
      loader: 'js',
      contents: `
        import Agent from 'undici/lib/dispatcher/agent.js';
        import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
        import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
        import api from 'undici/lib/api/index.js';
        Object.assign(Dispatcher.prototype, api);
        export { Agent, EnvHttpProxyAgent };
      `,
    }));
  },
};

const result = await build({
  entryPoints: { cli: 'src/cli.ts', 'sandbox-server': 'src/sandbox/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target,
  sourcemap: false,
  minify,
  keepNames: false,
  legalComments: 'linked',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  external: ['@napi-rs/keyring'],
  define,
  plugins: [lazyChildProcess, lazyHttp2, undiciCore, noEsprima, liftoffLlhttp],
  metafile: true,
  write: false,
  logLevel: 'warning',
});

/** The CommonJS code of every output that can join the pack (see below), by path. */
const packable = new Map();

// ESM chunks → CommonJS. With `dynamic-import: false` each import() becomes Promise.resolve().then(() =>
// require(…)): still lazy, and resolved by the same loader as the static requires. import.meta.url, dirname
// and filename become their CommonJS equivalents; any other use of import.meta stops the build.
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  if (!file.path.endsWith('.cjs')) {
    writeFileSync(file.path, file.contents);
    continue;
  }
  const { code, warnings } = await transform(file.text, {
    format: 'cjs',
    platform: 'node',
    target,
    minify,
    supported: { 'dynamic-import': false },
    define: {
      'import.meta.url': '__blogctlImportMeta.url',
      'import.meta.dirname': '__dirname',
      'import.meta.filename': '__filename',
    },
    // A getter: the config store's chunk uses import.meta.url only to find the optional keyring package, and
    // making the URL when the chunk loads cost every command half a millisecond.
    banner: file.text.includes('import.meta.url')
      ? 'var __blogctlImportMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };'
      : '',
    logLevel: 'silent',
  });
  if (warnings.length) {
    const text = warnings.map((w) => w.text).join('; ');
    throw new Error(`${relative('.', file.path)} cannot become CommonJS: ${text}`);
  }
  writeFileSync(file.path, code);
  packable.set(file.path, code);
}

const outputs = result.metafile.outputs;
const entryOf = (source) => Object.keys(outputs).find((f) => outputs[f].entryPoint === source);
const cliEntry = entryOf('src/cli.ts');
const sandboxEntry = entryOf('src/sandbox/main.ts');

// The packs: the entry and every chunk of our own code and small libraries in two scripts, each chunk as a
// function that runs when it is first required (src/startup/loader.ts). On Node 20 a command then reads,
// checksums and deserialises a file and a code cache per pack instead of one of each for every chunk it
// needs (a `blog list` needed 25). The first pack holds the start-up path, all that `--version` and `--help`
// read; the second the small chunks the commands load, opened by the first command that needs one. The large
// libraries (undici, the prompts, the Markdown parser, ora) stay files of their own, loaded only by the
// commands that use them. The chunk files stay as they are, for Node ≥ 22's own compile cache, which works
// on files that require() loads.
const PACK_MAX_BYTES = 40 * 1024;
const startupFiles = new Set([...closureOf(cliEntry)].map((f) => resolve(f)));
const packed = [...packable].filter(
  ([path, code]) =>
    path !== resolve(sandboxEntry) && (startupFiles.has(path) || code.length <= PACK_MAX_BYTES),
);
const packNames = [
  packed.filter(([path]) => startupFiles.has(path)),
  packed.filter(([path]) => !startupFiles.has(path)),
].map(writePack);

/** Writes a pack of these chunks; returns its content-hashed file name. */
function writePack(members) {
  const source =
    '({\n' +
    members
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(
        ([path, code]) =>
          `${JSON.stringify(relative('dist', path).split(sep).join('/'))}: function (exports, require, module, __filename, __dirname) {\n${code}\n},\n`,
      )
      .join('') +
    '})\n';
  const name = `pack-${createHash('sha256').update(source).digest('hex').slice(0, 8).toUpperCase()}.cjs`;
  writeFileSync(join('dist', name), source);
  return name;
}

// What bin/blogctl.js starts: it knows the content-hashed names of the entry and the pack.
await build({
  entryPoints: ['src/startup/loader.ts'],
  outfile: 'dist/startup.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target,
  minify,
  define: {
    ...define,
    BLOGCTL_ENTRY: JSON.stringify(basename(cliEntry)),
    BLOGCTL_PACKS: JSON.stringify(packNames),
  },
  logLevel: 'warning',
});

const names = outputs[cliEntry].exports.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
writeFileSync(
  'dist/cli.js',
  `// ESM facade of ${basename(cliEntry)} (bin/blogctl.js loads it through dist/startup.cjs instead).\n` +
    `import { createRequire } from 'node:module';\n` +
    `const cli = createRequire(import.meta.url)('./${basename(cliEntry)}');\n` +
    `export const { ${names.join(', ')} } = cli;\n`,
);
writeFileSync(
  'dist/sandbox-server.js',
  `// node dist/sandbox-server.js [options] runs ${basename(sandboxEntry)} (src/sandbox/main.ts).\n` +
    `import { createRequire } from 'node:module';\n` +
    `createRequire(import.meta.url)('./${basename(sandboxEntry)}');\n`,
);

// The start-up path: the entry and every chunk it requires when it loads. Only our code and the parser
// belong there; anything else is paid by every invocation, --help included, so say where it comes from.
/** An output and every chunk it requires when it loads. */
function closureOf(file, into = new Set()) {
  if (into.has(file)) return into;
  into.add(file);
  for (const i of outputs[file].imports)
    if (i.kind === 'import-statement' && outputs[i.path]) closureOf(i.path, into);
  return into;
}
/** Bytes per package (our code is "src") in a set of outputs, largest first. */
function bytesByPackage(files) {
  const bytes = new Map();
  for (const file of files) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[file].inputs)) {
      const name = packageOf(input) ?? 'src';
      bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
    }
  }
  return new Map([...bytes].sort((a, b) => b[1] - a[1]));
}
const describe = (bytes) => [...bytes].map(([name, n]) => `${name} ${(n / 1024).toFixed(1)} KB`).join(', ');

const closure = closureOf(cliEntry);
const bytesBy = bytesByPackage(closure);
const leaked = [...bytesBy.keys()].filter((name) => name !== 'src' && !STARTUP_PACKAGES.has(name));
if (report || leaked.length) {
  console.log(
    `start-up path: ${[...closure].map((f) => relative('dist', f)).join(' + ')}\n  ${describe(bytesBy)}`,
  );
}
if (report) {
  // What each lazily loaded chunk adds when a command loads it, beyond the start-up path.
  for (const [file, output] of Object.entries(outputs)) {
    if (!output.entryPoint || file === cliEntry || file === sandboxEntry) continue;
    const extra = [...closureOf(file)].filter((f) => !closure.has(f));
    console.log(`  ${output.entryPoint}: +${describe(bytesByPackage(extra))}`);
  }
}
for (const name of leaked) {
  console.warn(
    `warning: ${name} is on the start-up path (every command, --help included, loads it): ${chainTo(name)}`,
  );
}

function packageOf(input) {
  return /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(input)?.[1];
}

/** The static-import chain from src/cli.ts to the first module of package `name`. */
function chainTo(name) {
  const inputs = result.metafile.inputs;
  const previous = new Map([['src/cli.ts', undefined]]);
  const queue = ['src/cli.ts'];
  while (queue.length) {
    const current = queue.shift();
    if (packageOf(current) === name) {
      const chain = [];
      for (let at = current; at; at = previous.get(at)) chain.unshift(packageOf(at) ?? at);
      return chain.join(' → ');
    }
    for (const i of inputs[current]?.imports ?? []) {
      if (i.kind !== 'import-statement' || previous.has(i.path)) continue;
      previous.set(i.path, current);
      queue.push(i.path);
    }
  }
  return '(chain not found)';
}
