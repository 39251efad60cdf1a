// `npm run knip`: unused files, dependencies and exports (knip, configured in knip.json), failing on any that
// is not in scripts/knip-baseline.json. The baseline holds what was unused when the check came in, each
// named by kind, file and name (no line numbers, so an edit above it does not move it); it only shrinks: a
// finding fixed is reported as such, to be taken out of the baseline, and a new one fails the check. An
// export a test needs is used (tests are entries); an export used only inside its own file is not: drop
// the `export`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const baselinePath = join(root, 'scripts', 'knip-baseline.json');
// knip's command as npm installs it (its package exports no script path).
const knip = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'knip.cmd' : 'knip');

let out;
try {
  out = execFileSync(knip, ['--no-progress', '--reporter', 'json'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
} catch (error) {
  // knip exits 1 when it finds anything: its report is still on stdout.
  if (typeof error.stdout !== 'string' || !error.stdout.trim()) throw error;
  out = error.stdout;
}

/** Every finding as one line: `exports src/a.ts name`, `files src/b.ts`, `dependencies package.json x`. */
const findings = new Set();
const report = JSON.parse(out);
for (const file of report.files ?? []) findings.add(`files ${file}`);
for (const issue of report.issues ?? []) {
  for (const [kind, list] of Object.entries(issue)) {
    if (kind === 'file' || !Array.isArray(list)) continue;
    if (kind === 'files') {
      if (list.length) findings.add(`files ${issue.file}`);
      continue;
    }
    for (const item of list) findings.add(`${kind} ${issue.file} ${item.name ?? JSON.stringify(item)}`);
  }
}

const baseline = new Set(JSON.parse(readFileSync(baselinePath, 'utf8')));
if (process.argv.includes('--write-baseline')) {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(baselinePath, `${JSON.stringify([...findings].sort(), null, 2)}\n`);
  console.log(`scripts/knip-baseline.json: ${findings.size} findings`);
  process.exit(0);
}
const added = [...findings].filter((f) => !baseline.has(f)).sort();
const fixed = [...baseline].filter((f) => !findings.has(f)).sort();
for (const f of fixed) console.log(`fixed (take it out of scripts/knip-baseline.json): ${f}`);
for (const f of added) console.error(`unused: ${f}`);
if (added.length) {
  console.error(
    `${added.length} new unused file(s), dependency(ies) or export(s): use them, delete them, or drop the \`export\` of what only its own file uses`,
  );
  process.exit(1);
}
console.log(`knip: nothing new unused (${baseline.size - fixed.length} known in the baseline)`);
