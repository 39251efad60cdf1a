// Sums of what WordPress STORED (issue 30 item 1): the marker records each field as WordPress kept it after
// blogctl's write, so a post WordPress changed on save (a code block's last line break, `rel="noopener"`
// added to a link, kses dropping an element) is `unchanged` on the next run from any runner, and the run
// that wrote it says what WordPress changed. In-process against the sandbox relaying to a fake WordPress.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { siteFolders, syncWorld, writesTo } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('stored', { fakeWordPress: false });
const { fakeSite, folder } = siteFolders(world);

interface Row {
  source: string;
  action: string;
  id: string;
  fields?: string[];
  edited?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

/** A folder of sources and a publish of it from a new, empty config dir each time (a fresh CI runner). */

const source = (key: string, body: string): string =>
  `---\nkey: ${key}\nstatus: publish\n---\n# Title ${key}\n\n${body}\n`;

describe('sums of what WordPress stored', () => {
  it('a post ending with a fenced code block, a raw HTML block or <pre> is unchanged on the next run', async () => {
    const wp = await fakeSite();
    const { dir, publish } = await folder(wp);
    writeFileSync(join(dir, 'code.md'), source('code', 'Some code:\n\n```js\nconst a = 1;\n```'));
    writeFileSync(join(dir, 'html.md'), source('html', 'A box:\n\n<div class="box">\n<p>Inside</p>\n</div>'));
    writeFileSync(join(dir, 'pre.md'), source('pre', 'Text.\n\n<pre>\nline one\nline two\n</pre>'));
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first).map((r) => r.action)).toEqual(['created', 'created', 'created']);
    const before = writesTo(wp);
    const plan = await publish('--dry-run', '--exit-code');
    expect(plan.code, plan.stderr).toBe(0);
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again).map((r) => [r.action, r.edited])).toEqual([
      ['unchanged', undefined],
      ['unchanged', undefined],
      ['unchanged', undefined],
    ]);
    expect(writesTo(wp)).toBe(before);
    // The first edit of the file is an update, not a conflict.
    writeFileSync(join(dir, 'code.md'), source('code', 'Some code:\n\n```js\nconst a = 2;\n```'));
    const edit = await publish();
    expect(edit.code, edit.stderr).toBe(0);
    expect(rows(edit)[0]).toMatchObject({ action: 'updated', fields: ['content'] });
  });

  it('a link WordPress rewrites on save (rel="noopener") is noted once, then unchanged from any runner', async () => {
    const wp = await fakeSite({
      filterContent: (html) =>
        html.replace(/<a ([^>]*target="_blank")(?![^>]*rel=)/g, '<a $1 rel="noopener"'),
    });
    const { dir, publish } = await folder(wp);
    writeFileSync(
      join(dir, 'link.md'),
      source('link', 'See <a href="https://example.org/" target="_blank">this</a>.'),
    );
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/^WordPress changed the content of post \d+ on save \(added rel on <a>\)/m);
    expect(first.stderr).not.toMatch(/^warning:/m);
    // One write to create, one to record the sums of what WordPress stored.
    expect(wp.updates).toHaveLength(1);
    const before = writesTo(wp);
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged' });
    expect(rows(again)[0]!.edited).toBeUndefined();
    expect(writesTo(wp)).toBe(before);
  });

  it('an element kses drops is a warning at publish time naming it; the next run is unchanged', async () => {
    const wp = await fakeSite({
      filterContent: (html) => html.replace(/<iframe[^>]*>[\s\S]*?<\/iframe>/g, ''),
    });
    const { dir, publish } = await folder(wp);
    writeFileSync(
      join(dir, 'embed.md'),
      source('embed', 'A video:\n\n<iframe src="https://video.example/1"></iframe>\n\nAfter it.'),
    );
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    expect(rows(first)[0]!.action).toBe('created');
    expect(first.stderr).toMatch(
      /warning: .*WordPress changed the content of post \d+ on save \(removed <iframe>, src on <iframe>\)/,
    );
    const again = await publish('--exit-code');
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toMatchObject({ action: 'unchanged' });
    expect(again.stderr).not.toContain('WordPress changed');
    // An update of the body says it again (it is what that write stored).
    writeFileSync(
      join(dir, 'embed.md'),
      source('embed', 'A video:\n\n<iframe src="https://video.example/2"></iframe>\n\nAfter it, longer.'),
    );
    const edit = await publish();
    expect(edit.code, edit.stderr).toBe(0);
    expect(rows(edit)[0]).toMatchObject({ action: 'updated', fields: ['content'] });
    expect(edit.stderr).toMatch(/removed <iframe>/);
    expect((await publish('--exit-code')).code).toBe(0);
  });

  it('a filter that changes the content on every save is said: later runs will call it edited', async () => {
    let n = 0;
    const wp = await fakeSite({ filterContent: (html) => html.replace('</p>', `<span>${++n}</span></p>`) });
    const { dir, publish } = await folder(wp);
    writeFileSync(join(dir, 'n.md'), source('count', 'Counted.'));
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/WordPress changes post \d+ on every save \(content\)/);
  });
});
