// The sandbox started on a full disk: one clear line naming the file and the cause, exit code of a local
// write failure, never a raw ENOSPC. A real tmpfs, filled up (mounting needs root; skipped without it).
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { WriteFailedError } from '../../src/errors.js';
import { runSandboxCommand } from '../../src/sandbox/cli-entry.js';
import { fillUp, tmpfsMounts } from '../helpers/tmpfs.js';

const mounts = tmpfsMounts('blogctl-sandbox-start-');
const disk = mounts.mount('disk', '256k');
afterAll(() => mounts.cleanup());

describe.skipIf(!disk)('the sandbox started on a full disk', () => {
  it('fails with one line naming the data file and the full disk', async () => {
    fillUp(disk!);
    const lines: string[] = [];
    const stderr = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const error = await runSandboxCommand({
      port: 0,
      apiKeys: ['sk_test_full_disk_0123456789'],
      dataFile: join(disk!, 'data.json'),
      stderr,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WriteFailedError);
    expect((error as Error).message).toMatch(/no space is left on the device \(ENOSPC/);
    expect((error as Error).message).toContain(disk!);
  });
});
