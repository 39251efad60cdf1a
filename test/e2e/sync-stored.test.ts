// Sums of what WordPress stored (issue 30 item 1), against real WordPress (pretty and plain permalinks), every
// run from a new, empty config dir: posts ending with a fenced code block, a raw HTML block whose closing tag
// is on its own line, or a <pre>, and a link with target="_blank", are `unchanged` on the next run, and
// `--dry-run --exit-code` is green; the first edit of such a file is an update, not a conflict.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getPost } from '../../src/wordpress/posts.js';
import type { CliResult } from '../helpers/cli.js';
import { adminLogin, freshRun, siteClient, syncWorld } from '../helpers/sync-project.js';
import { RUN_ID, wordpressInstances, type WordPressInstance } from './instances.js';

const instances = wordpressInstances();
const world = syncWorld('e2e-stored', { fakeWordPress: false, wordpressTimeoutMs: 30_000 });

interface Row {
  source: string;
  action: string;
  id: string;
  fields?: string[];
  edited?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

describe.each(instances)(
  'sums of what WordPress stored ($permalinks permalinks)',
  (wp: WordPressInstance) => {
    const tag = `${RUN_ID}-stored-${wp.permalinks}`;
    const reader = siteClient(adminLogin(wp));
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(world.home, `${wp.permalinks}-`));
    });
    const publish = (extra: string[] = []): Promise<CliResult> =>
      freshRun(['wp', 'publish', '--site', 'site', `${dir}/`, '--json', ...extra], {
        service: { url: world.sandbox.url, apiKey: world.sandbox.apiKey },
        site: adminLogin(wp),
        profile: 'site',
        spawn: true,
        cwd: dir,
      });
    const source = (name: string, body: string): Promise<void> =>
      writeFile(
        join(dir, name),
        `---\nkey: ${name}-${tag}\nstatus: publish\n---\n# ${name} ${tag}\n\n${body}\n`,
      );

    it('code block, raw HTML block, <pre> and target="_blank" endings are unchanged on the next run', async () => {
      await source('code.md', 'Some code:\n\n```js\nconst a = 1;\n```');
      await source('html.md', 'A box:\n\n<div class="box">\n<p>Inside</p>\n</div>');
      await source('pre.md', 'Text.\n\n<pre>\nline one\nline two\n</pre>');
      await source('link.md', 'See <a href="https://example.org/" target="_blank">this page</a>.');
      const first = await publish();
      expect(first.code, first.stderr).toBe(0);
      expect(rows(first).map((r) => r.action)).toEqual(['created', 'created', 'created', 'created']);
      // What WordPress did to the link is said by the run that wrote it, as a note (nothing was dropped).
      const link = await getPost(reader, Number(rows(first).find((r) => r.source.endsWith('link.md'))!.id));
      if (link.content?.raw?.includes('rel="noopener'))
        expect(first.stderr).toMatch(
          /WordPress changed the content of post \d+ on save \(added rel on <a>\)/,
        );
      expect(first.stderr).not.toMatch(/^warning:/m);

      const plan = await publish(['--dry-run', '--exit-code']);
      expect(plan.code, plan.stderr).toBe(0);
      const again = await publish(['--exit-code']);
      expect(again.code, again.stderr).toBe(0);
      for (const row of rows(again)) {
        expect(row.action, row.source).toBe('unchanged');
        expect(row.edited, row.source).toBeUndefined();
      }
      await source('code.md', 'Some code:\n\n```js\nconst a = 2;\n```');
      const edit = await publish();
      expect(edit.code, edit.stderr).toBe(0);
      expect(rows(edit).find((r) => r.source.endsWith('code.md'))).toMatchObject({
        action: 'updated',
        fields: ['content'],
      });
    });
  },
);
