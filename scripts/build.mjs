// Bundles src/ into dist/ with code splitting: the entry holds only the parser; every command and heavy
// library lands in a chunk of its own that loads when a command actually runs. Nothing of a dependency is
// rewritten or reached into: each is bundled as its own package.json exports it.
//
// The chunks are CommonJS (dist/**/*.cjs), not ES modules: esbuild splits in ESM, then each output file is
// turned into CommonJS and its import() calls into lazy require()s. The same code starts faster as CommonJS,
// on Node 24 as on Node 20: an ES module's import of a built-in evaluates the built-in's whole namespace, on
// top of the ES-module loader's own work (a start-up device kept by measurement: CONTRIBUTING.md,
// Performance). Node 22 and later cache the compiled code through module.enableCompileCache(), which
// bin/blogctl.js turns on. Each chunk has a source map (dist/**/*.cjs.map) that bin/blogctl.js enables under
// --debug, so a stack trace names src/ lines. dist/THIRD-PARTY-LICENSES lists every bundled library with its
// licence text. Measurements: test/bench/RESULTS.md.
//
//   node scripts/build.mjs            build
//   node scripts/build.mjs --report   build, and print what the start-up path (what every command loads) holds
//   node scripts/build.mjs --readable build without minifying, for reading a CPU profile (`node --cpu-prof`)
import { build, transform } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, sep } from 'node:path';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const report = process.argv.includes('--report');
const minify = !process.argv.includes('--readable');
// The oldest Node the package promises (package.json engines, ">=X.Y" or ">=X.Y.Z") is the syntax esbuild
// may emit.
const oldest = /^>=\s*(\d+\.\d+(?:\.\d+)?)$/.exec(pkg.engines?.node ?? '');
if (!oldest) throw new Error(`package.json engines.node must read ">=X.Y[.Z]", not "${pkg.engines?.node}"`);
const target = `node${oldest[1]}`;
// The build date `--version` prints (as gh does): SOURCE_DATE_EPOCH when set, for a reproducible build.
const built = process.env.SOURCE_DATE_EPOCH
  ? new Date(Number(process.env.SOURCE_DATE_EPOCH) * 1000)
  : new Date();
const versionLine = `${pkg.name} version ${pkg.version} (${built.toISOString().slice(0, 10)})`;
const define = {
  BLOGCTL_VERSION: JSON.stringify(pkg.version),
  BLOGCTL_VERSION_LINE: JSON.stringify(versionLine),
};
/** Packages allowed on the start-up path besides our own code: the parser. */
const STARTUP_PACKAGES = new Set(['commander']);

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

const result = await build({
  entryPoints: { cli: 'src/cli.ts', help: 'src/help-entry.ts', 'sandbox-server': 'src/sandbox/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target,
  // Inline here, for the CommonJS transform below to carry through to the chunks' own maps.
  sourcemap: 'inline',
  sourcesContent: false,
  minify,
  keepNames: false,
  // The licences are all in dist/THIRD-PARTY-LICENSES.
  legalComments: 'none',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.cjs' },
  // The keyring is native (an optional dependency, not bundled).
  external: ['@napi-rs/keyring'],
  define,
  metafile: true,
  write: false,
  logLevel: 'warning',
});

// ESM chunks → CommonJS. With `dynamic-import: false` each import() becomes Promise.resolve().then(() =>
// require(…)): still lazy, and resolved by the same loader as the static requires. import.meta.url, dirname
// and filename become their CommonJS equivalents; any other use of import.meta stops the build.
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  if (!file.path.endsWith('.cjs')) {
    writeFileSync(file.path, file.contents);
    continue;
  }
  const { code, map, warnings } = await transform(file.text, {
    format: 'cjs',
    platform: 'node',
    target,
    minify,
    sourcemap: 'external',
    sourcefile: basename(file.path),
    supported: { 'dynamic-import': false },
    define: {
      'import.meta.url': '__blogctlImportMeta.url',
      'import.meta.dirname': '__dirname',
      'import.meta.filename': '__filename',
    },
    // A getter: the config store's chunk uses import.meta.url only to find the optional keyring package, so
    // the URL is made when it is asked for, not whenever the chunk loads.
    banner: file.text.includes('import.meta.url')
      ? 'var __blogctlImportMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };'
      : '',
    logLevel: 'silent',
  });
  if (warnings.length) {
    const text = warnings.map((w) => w.text).join('; ');
    throw new Error(`${relative('.', file.path)} cannot become CommonJS: ${text}`);
  }
  writeFileSync(file.path, `${code}//# sourceMappingURL=${basename(file.path)}.map\n`);
  writeFileSync(`${file.path}.map`, map);
}

const outputs = result.metafile.outputs;
const entryOf = (source) => Object.keys(outputs).find((f) => outputs[f].entryPoint === source);
const cliEntry = entryOf('src/cli.ts');
const sandboxEntry = entryOf('src/sandbox/main.ts');
const helpEntry = entryOf('src/help-entry.ts');

// Names for what runs the CLI and the sandbox from ES modules (dist/cli.js is what package.json names).
writeFileSync(
  'dist/cli.js',
  `// ESM facade of ${basename(cliEntry)} (bin/blogctl.js requires ${basename(cliEntry)} itself).\n` +
    `import { createRequire } from 'node:module';\n` +
    `const cli = createRequire(import.meta.url)('./${basename(cliEntry)}');\n` +
    `export const { ${outputs[cliEntry].exports.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name)).join(', ')} } = cli;\n`,
);
writeFileSync(
  'dist/sandbox-server.js',
  `// node dist/sandbox-server.js [options] runs ${basename(sandboxEntry)} (src/sandbox/main.ts).\n` +
    `import { createRequire } from 'node:module';\n` +
    `createRequire(import.meta.url)('./${basename(sandboxEntry)}');\n`,
);

/**
 * Projects compiled into a bundled package whose own licence file does not name them. jq-wasm ships only its
 * wrapper's MIT licence, but its WebAssembly is jq with Oniguruma built in.
 */
const EMBEDDED = {
  'jq-wasm': `

Compiled into jq-wasm's WebAssembly (its package does not carry their licence files):

- jq 1.8.2, https://github.com/jqlang/jq: MIT licence, "jq is copyright (C) 2012 Stephen Dolan", with the
  same permission notice and warranty disclaimer as above; it incorporates David M. Gay's dtoa.c and g_fmt.c
  (Copyright (c) 1991, 1996, 2000, 2001 by Lucent Technologies; "Permission to use, copy, modify, and
  distribute this software for any purpose without fee is hereby granted, provided that this entire notice
  is included in all copies of any software which is or includes a copy or modification of this software
  and in all copies of the supporting documentation for such software. THIS SOFTWARE IS BEING PROVIDED "AS
  IS", WITHOUT ANY EXPRESS OR IMPLIED WARRANTY.") and the decNumber library (ICU licence, Copyright (c) IBM
  Corporation). The full texts: the file COPYING in jq's source.
- Oniguruma, https://github.com/kkos/oniguruma: BSD-2-Clause, Copyright (c) K.Kosako. The full text: the
  file COPYING in Oniguruma's source.`,
};

// Every library bundled into dist/, with its licence: the package ships them (the licences of MIT, ISC and
// BSD code require their notices to travel with copies).
writeFileSync('dist/THIRD-PARTY-LICENSES', thirdPartyLicenses());

/** The bundled packages (from the metafile's inputs), each with its version, licence name and text. */
function thirdPartyLicenses() {
  const dirs = new Map();
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /^(.*node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+))[\\/]/.exec(input);
    if (m) dirs.set(m[1], m[2].split(sep).join('/'));
  }
  const sections = [...dirs]
    .map(([dir, name]) => {
      const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
      if (!file) throw new Error(`${name}: bundled into dist/, but it has no licence file to ship`);
      const text = readFileSync(join(dir, file), 'utf8').trim() + (EMBEDDED[meta.name] ?? '');
      return { key: `${meta.name ?? name}@${meta.version}`, license: meta.license ?? 'see below', text };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .filter((s, i, all) => i === 0 || all[i - 1].key !== s.key);
  return (
    `blogctl ${pkg.version} bundles the following libraries into dist/. Their licences follow.\n\n` +
    sections
      .map((s) => `${'='.repeat(78)}\n${s.key} (${s.license})\n${'='.repeat(78)}\n\n${s.text}\n`)
      .join('\n')
  );
}

// The start-up path: the entry and every chunk it requires when it loads. Only our code and the parser
// belong there; anything else is paid by every command, so say where it comes from.
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
    if (!output.entryPoint || file === cliEntry || file === sandboxEntry || file === helpEntry) continue;
    const extra = [...closureOf(file)].filter((f) => !closure.has(f));
    console.log(`  ${output.entryPoint}: +${describe(bytesByPackage(extra))}`);
  }
}
for (const name of leaked) {
  console.warn(`warning: ${name} is on the start-up path (every command loads it): ${chainTo(name)}`);
}
// dist/help.cjs prints --help from dist/help.json without the parser: nothing of a library may reach it.
const helpLeaked = [...bytesByPackage(closureOf(helpEntry)).keys()].filter((name) => name !== 'src');
if (helpLeaked.length)
  throw new Error(`dist/help.cjs must load no library, but loads: ${helpLeaked.join(', ')}`);

// dist/version.txt: what `blogctl --version` prints, read by bin/blogctl.js without loading the parser.
writeFileSync('dist/version.txt', `${versionLine}\n`);
// dist/help.json: every command's --help (src/help-entry.ts), from the command tree just built.
writeFileSync(
  'dist/help.json',
  JSON.stringify(await createRequire(import.meta.url)(`../${cliEntry}`).helpTree()),
);

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

await import('./man.mjs'); // dist/blogctl.1: the man page, from the command tree (scripts/man.mjs)
