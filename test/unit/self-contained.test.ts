// No file in the project refers to anything outside the repository: a clone holds everything its files
// point to (CONTRIBUTING.md, conventions).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
/** Paths and documents that only exist on the machines the project was first written on. */
const OUTSIDE = /\/work\/(?:shared|wt|main)\b|\.\.\/shared\/|\bSTYLE\.md\b/;

it('no tracked file names a path or document outside the repository', () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  expect(files.length).toBeGreaterThan(100);
  const offending = files.filter((f) => {
    if (f === 'test/unit/self-contained.test.ts') return false;
    let text: string;
    try {
      text = readFileSync(join(ROOT, f), 'utf8');
    } catch {
      return false;
    }
    return OUTSIDE.test(text);
  });
  expect(offending).toEqual([]);
});
