// The pager's environment: less is told blogctl's text is UTF-8 whatever the locale (without it, LANG=C
// shows `…` as `<E2><80><A6>`), unless the person chose a charset; and what the pager sees of it.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { page, pagerEnv } from '../../src/output/pager.js';

describe('pagerEnv', () => {
  it('sets LESSCHARSET=utf-8 and less -FRX unless the person set them', () => {
    expect(pagerEnv({ LANG: 'C' })).toMatchObject({ LESSCHARSET: 'utf-8', LESS: 'FRX', LV: '-c', LANG: 'C' });
    expect(pagerEnv({ LESSCHARSET: 'latin1' })['LESSCHARSET']).toBe('latin1');
    expect(pagerEnv({ LESSCHARDEF: '8bcccbcc18b95.' })['LESSCHARSET']).toBeUndefined();
    expect(pagerEnv({ LESS: 'R' })['LESS']).toBe('R');
  });

  it('reaches the pager: a pager under LANG=C is told the text is UTF-8', async () => {
    const stdout = new PassThrough();
    let out = '';
    stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const io = { stdout: stdout as never, outRaw: (t: string) => void (out += t) };
    await page(
      io,
      { PATH: process.env['PATH'], LANG: 'C', BLOGCTL_PAGER: 'echo "charset=$LESSCHARSET"; cat' },
      'Wait…\n',
    );
    expect(out).toBe('charset=utf-8\nWait…\n');
  });
});
