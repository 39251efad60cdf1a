// What an interrupted batch reports (output/progress.ts): done, in flight, not attempted, in the batch's order.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { batchProgress, runBatch } from '../../src/output/progress.js';

/** stderr as a script sees it: not a terminal. */
function pipeIO() {
  let text = '';
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return {
    io: { stderr, stderrIsTTY: false, quiet: false, colorErr: false, paintErr: (_s: never, t: string) => t },
    text: () => text,
  };
}

describe('batch progress off a terminal', () => {
  it('shows nothing, and keeps track of done, in flight and not attempted', async () => {
    const { io, text } = pipeIO();
    const labels = ['a.md', 'b.md', 'c.md', 'd.md', 'e.md'];
    const controller = new AbortController();
    const progress = await batchProgress(io, { verb: 'Publishing', labels, signal: controller.signal });
    expect(progress.live).toBe(false);
    progress.start(0);
    progress.start(1);
    progress.finish(1, { ok: true, line: 'b.md  created' });
    progress.start(2);
    progress.finish(0, { ok: false, line: 'a.md: refused' });
    progress.start(3);
    controller.abort();
    // Started after Ctrl-C: never sent.
    progress.start(4);
    progress.stop();
    expect(text()).toBe('');
    expect(progress.interruptedLines()).toEqual([
      'Done (2):',
      '  a.md',
      '  b.md',
      'In flight, may have happened (2):',
      '  c.md',
      '  d.md',
      'Not attempted (1):',
      '  e.md',
    ]);
  });

  it('lists 10 of a group and counts the rest', async () => {
    const { io } = pipeIO();
    const labels = Array.from({ length: 25 }, (_, i) => `id${i}`);
    const progress = await batchProgress(io, { verb: 'Deleting', labels });
    const lines = progress.interruptedLines();
    expect(lines[0]).toBe('Not attempted (25):');
    expect(lines.slice(1, 11)).toEqual(labels.slice(0, 10).map((l) => `  ${l}`));
    expect(lines[11]).toBe('  … and 15 more');
  });

  it('runBatch: an interrupted batch writes the three groups to stderr and rethrows; a finished one writes nothing', async () => {
    const { io, text } = pipeIO();
    const controller = new AbortController();
    const failure = new Error('interrupted');
    await expect(
      runBatch(io, { verb: 'Deleting', labels: ['x', 'y'], signal: controller.signal }, async (progress) => {
        progress.start(0);
        controller.abort();
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(text()).toBe('In flight, may have happened (1):\n  x\nNot attempted (1):\n  y\n');
    const quiet = pipeIO();
    expect(await runBatch(quiet.io, { verb: 'Deleting', labels: ['x', 'y'] }, async () => 42)).toBe(42);
    expect(quiet.text()).toBe('');
  });
});
