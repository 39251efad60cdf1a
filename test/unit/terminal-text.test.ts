// Control characters from data are shown, not obeyed, in whatever IO writes to a terminal (data, notes,
// warnings, errors, a batch's report); blogctl's own colours stay; off a terminal every byte stays.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { IO } from '../../src/output/io.js';
import { runBatch } from '../../src/output/progress.js';
import { terminalSafe, visible } from '../../src/output/terminal-text.js';

const ESC = '\u001b';
const HOSTILE = `a${ESC}]52;c;eA==\u0007b${ESC}[2Jc\u009b1m\rd\u202ee\u0000f\u007f`;
const SHOWN = 'a^[]52;c;eA==^Gb^[[2Jc^[[1m^Md<U+202E>e^@f^?';

function capture(tty: boolean) {
  const make = () => {
    let text = '';
    const stream = Object.assign(new PassThrough(), { isTTY: tty });
    stream.setEncoding('utf8').on('data', (d: string) => (text += d));
    return { stream, text: () => text };
  };
  const out = make();
  const err = make();
  const io = new IO({ stdout: out.stream, stderr: err.stream, env: {} });
  return { io, out: out.text, err: err.text };
}

describe('terminal text', () => {
  it('shows every control character in caret notation; line breaks and tabs stay', () => {
    expect(visible(HOSTILE)).toBe(SHOWN);
    expect(visible('one\ttwo\nthree\r\nfour')).toBe('one\ttwo\nthree\r\nfour');
    // blogctl's own colours stay; any other SGR (conceal) does not.
    expect(terminalSafe(`${ESC}[31merror:${ESC}[39m x${ESC}[8mhidden`)).toBe(
      `${ESC}[31merror:${ESC}[39m x^[[8mhidden`,
    );
  });

  it('on a terminal: data, notes, warnings and errors show controls; colours stay', async () => {
    const { io, out, err } = capture(true);
    io.out(HOSTILE);
    io.note(HOSTILE);
    io.warn(HOSTILE);
    io.error(HOSTILE);
    await new Promise((r) => setImmediate(r));
    expect(out()).toBe(`${SHOWN}\n`);
    expect(err()).toBe(
      `${SHOWN}\n${ESC}[33mwarning:${ESC}[39m ${SHOWN}\n${ESC}[31merror:${ESC}[39m ${SHOWN}\n`,
    );
  });

  it('piped: every byte as given', async () => {
    const { io, out, err } = capture(false);
    io.out(HOSTILE);
    io.error(HOSTILE);
    await new Promise((r) => setImmediate(r));
    expect(out()).toBe(`${HOSTILE}\n`);
    expect(err()).toBe(`error: ${HOSTILE}\n`);
  });

  it("an interrupted batch's report on a terminal", async () => {
    const { io, err } = capture(true);
    const controller = new AbortController();
    controller.abort();
    await expect(
      runBatch(io, { verb: 'Deleting', labels: [HOSTILE, 'b'], signal: controller.signal }, () =>
        Promise.reject(new Error('interrupted')),
      ),
    ).rejects.toThrow('interrupted');
    await new Promise((r) => setImmediate(r));
    expect(err()).toContain(`  ${SHOWN}\n`);
    expect(err()).not.toContain(ESC + ']');
  });
});
