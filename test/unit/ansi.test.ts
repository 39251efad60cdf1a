// paintAnsi stands in for chalk (kept off the start-up path): it must paint exactly as chalk at level 1.
import { Chalk } from 'chalk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paintAnsi, type Style } from '../../src/output/ansi.js';

const chalk = new Chalk({ level: 1 });
const STYLES: Style[] = ['bold', 'dim', 'red', 'green', 'yellow', 'cyan'];

describe('paintAnsi', () => {
  it('paints as chalk does: plain, empty, nested codes, line breaks', () => {
    const samples = [
      '',
      'error:',
      '✔',
      'a\nb',
      'a\r\nb\n',
      '\n',
      `x ${chalk.red('red')} y`,
      `${chalk.bold('b')}${chalk.dim('d')}\n${chalk.cyan('c')}`,
    ];
    for (const style of STYLES)
      for (const text of samples) expect(paintAnsi(style, text)).toBe(chalk[style](text));
  });

  it('matches chalk on arbitrary text', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom('\n', '\r\n', '\r', '\u001B[39m', '\u001B[22m', '\u001B[31m', '\u001B'),
    );
    fc.assert(
      fc.property(fc.constantFrom(...STYLES), fc.array(piece), (style, parts) => {
        const text = parts.join('');
        expect(paintAnsi(style, text)).toBe(chalk[style](text));
      }),
    );
  });
});
