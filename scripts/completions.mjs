// Writes the committed completion scripts from the built CLI (`npm run completions` builds first):
// completions/blogctl.bash, completions/_blogctl (zsh) and completions/blogctl.fish.
// With --check (CI) nothing is written: it fails, naming each stale file, when the committed scripts no
// longer match the command tree.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/blogctl.js', import.meta.url));
const targets = [
  ['bash', 'completions/blogctl.bash'],
  ['zsh', 'completions/_blogctl'],
  ['fish', 'completions/blogctl.fish'],
];

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--check');
if (unknown.length) {
  console.error(
    `completions: unknown argument ${unknown.join(' ')} (usage: node scripts/completions.mjs [--check])`,
  );
  process.exit(2);
}
const check = args.includes('--check');

// The scripts depend on the command tree alone: run the CLI without the caller's BLOGCTL_* settings.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('BLOGCTL_')));

const stale = [];
let written = 0;
for (const [shell, file] of targets) {
  let script;
  try {
    script = execFileSync(process.execPath, [bin, 'completion', shell], { cwd: root, env, encoding: 'utf8' });
  } catch (error) {
    console.error(
      `completions: \`blogctl completion ${shell}\` failed; is the CLI built (npm run build)?\n${error.stderr ?? error.message}`,
    );
    process.exit(1);
  }
  const path = `${root}${file}`;
  let committed;
  try {
    committed = readFileSync(path, 'utf8');
  } catch {
    committed = undefined;
  }
  if (committed === script) continue;
  if (check) {
    stale.push(committed === undefined ? `${file} is missing` : `${file} does not match the command tree`);
  } else {
    mkdirSync(`${root}completions`, { recursive: true });
    writeFileSync(path, script);
    written += 1;
    console.log(`wrote ${file}`);
  }
}

if (check) {
  if (stale.length) {
    console.error(
      `completions are stale:\n${stale.map((s) => `  - ${s}`).join('\n')}\n` +
        'Run `npm run completions` and commit the files in completions/.',
    );
    process.exit(1);
  }
  console.log('completions are up to date');
} else if (!written) {
  console.log('completions/ already matches the command tree');
}
