// A process that takes a lock through src/lib/file-lock.ts and holds it until it is killed: the "other
// blogctl" of the lock tests, for what only a killed process can leave behind. Bundled by holdLockInProcess.
import { lockFile } from '../../src/lib/file-lock.js';

void (async () => {
  const [path, lockPath] = process.argv.slice(2);
  await lockFile(path!, { lockPath: lockPath!, waitMs: 0, staleMs: 15_000, busy: () => 'busy' });
  process.stdout.write('held\n');
  setInterval(() => undefined, 60_000);
})();
