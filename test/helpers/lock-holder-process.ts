// Starts test/helpers/lock-holder.ts as a process of its own (bundled with esbuild: the tests run the
// TypeScript sources, a child process cannot) and resolves once it holds the lock.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

let bundled: Promise<string> | undefined;

export function holderScript(): Promise<string> {
  bundled ??= (async () => {
    const { build } = await import('esbuild');
    const outfile = join(mkdtempSync(join(tmpdir(), 'blogctl-lock-holder-')), 'lock-holder.cjs');
    await build({
      entryPoints: [resolve(import.meta.dirname, 'lock-holder.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'silent',
    });
    return outfile;
  })();
  return bundled;
}

/** A process holding `lockPath` (the lock of `path`); it is killed by the caller. */
export async function holdLockInProcess(path: string, lockPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [await holderScript(), path, lockPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  await new Promise<void>((resolvePromise, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      if (d.includes('held')) resolvePromise();
    });
    child.on('exit', (code) =>
      reject(new Error(`the lock holder ended (${code}) before taking the lock: ${stderr}`)),
    );
  });
  return child;
}

/** SIGKILL, as the OOM killer or `kill -9` would: nothing of its own runs, the lock directory stays. */
export async function killHard(child: ChildProcess): Promise<void> {
  const ended = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await ended;
}
