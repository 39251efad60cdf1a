// A process that takes a lock through src/lib/file-lock.ts and holds it until it is killed: the "other
// blogctl" of the lock tests, for what only a process that ends can leave behind. Bundled by holdLockInProcess.
import { lockFile } from '../../src/lib/file-lock.js';

void (async () => {
  const [path, lockPath, then] = process.argv.slice(2);
  await lockFile(path!, { lockPath: lockPath!, waitMs: 0, staleMs: 15_000, busy: () => 'busy' });
  process.stdout.write('held\n');
  // `exit`: ends without releasing it, as a command that calls process.exit() would.
  if (then === 'exit') process.exit(0);
  setInterval(() => undefined, 60_000);
})();
