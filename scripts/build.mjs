// Bundles src/ into dist/ with code splitting: the entry holds only the parser, every command and heavy
// library lands in its own chunk and is loaded by `await import()` when a command actually runs.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/cli.ts', 'sandbox-server': 'src/sandbox/main.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: false,
  minify: true,
  keepNames: false,
  legalComments: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  external: ['@napi-rs/keyring'],
  define: { BLOGCTL_VERSION: JSON.stringify(pkg.version) },
  // Some CommonJS dependencies call require() on Node built-ins; give the ESM bundle a require.
  banner: {
    js: "import { createRequire as __blogctlCreateRequire } from 'node:module'; const require = __blogctlCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
