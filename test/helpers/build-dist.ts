// vitest globalSetup: builds dist/ once per run, before any test file starts, so a bare `npx vitest run` never
// tests a stale build (the process tests spawn bin/blogctl.js, which loads dist/).
//
// The build is skipped only when dist/ is exactly what the last build here made from exactly these inputs: a
// stamp in dist/ records a hash of every input (src/, scripts/, the package and lock files, the installed
// tree's lock, the Node version) and a hash of every file the build wrote. Any other build empties dist/
// first (scripts/build.mjs), which removes the stamp; a changed input or a touched output fails its hash.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-stamp.json');
const INPUTS = [
  'src',
  'scripts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'node_modules/.package-lock.json',
];

interface Stamp {
  inputs: string;
  outputs: string;
}

/** One hash over the paths and bytes of every file under `paths` (files or directories), in a fixed order. */
function hashFiles(paths: string[], skip: (path: string) => boolean = () => false): string {
  const hash = createHash('sha256');
  const visit = (path: string): void => {
    if (!existsSync(path) || skip(path)) return;
    const entries = readdirSync(path, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) visit(child);
      else if (!skip(child)) hash.update(`${relative(ROOT, child)}\0`).update(readFileSync(child));
    }
  };
  for (const path of paths.map((p) => join(ROOT, p))) {
    if (!existsSync(path)) hash.update(`${relative(ROOT, path)}\0missing\0`);
    else if (statSync(path).isDirectory()) visit(path);
    else hash.update(`${relative(ROOT, path)}\0`).update(readFileSync(path));
  }
  return hash.digest('hex');
}

// A verb's sweep.ts and *.test.ts are tests, which the build never reads (CONTRIBUTING.md, "Layout").
const inputsHash = (): string =>
  `${process.version} ${hashFiles(INPUTS, (path) => path.startsWith(join(ROOT, 'src')) && /(^|[/\\])sweep\.ts$|\.test\.ts$/.test(path))}`;
const outputsHash = (): string => hashFiles(['dist'], (path) => path === STAMP);

function readStamp(): Stamp | undefined {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

export default function setup(): void {
  const inputs = inputsHash();
  const stamp = readStamp();
  if (stamp?.inputs === inputs && stamp.outputs === outputsHash()) return;
  try {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`npm run build failed:\n${String(stdout ?? '')}${String(stderr ?? '')}`);
  }
  // Hashed again: an input edited during the build must not be recorded as built.
  if (inputsHash() === inputs) writeFileSync(STAMP, JSON.stringify({ inputs, outputs: outputsHash() }));
}
