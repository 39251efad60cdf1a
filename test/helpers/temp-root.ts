// Every temporary folder a run makes (config dirs, projects, data files: each test's mkdtemp under
// os.tmpdir()) goes into one folder of its own, removed when the run ends, so runs leave nothing in /tmp.
// TMPDIR is set before the workers start; they and the processes they spawn inherit it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env['TMPDIR'];
  const root = mkdtempSync(join(tmpdir(), 'blogctl-run-'));
  process.env['TMPDIR'] = root;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
