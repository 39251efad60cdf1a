// A post saved on the site after blogctl's last write is drift even when no field's sum can tell (issue 30
// item 3d, without the companion plugin): a restored revision brings back an older write's content with that
// write's marker, whose sums match it. The marker records when blogctl wrote (`written.<hex seconds>`, the
// site's clock); a post WordPress saved later than that, by more than the margin, is the editor's. In-process
// against a fake WordPress, which sets `modified_gmt` on every save.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput } from '../helpers/in-process.js';
import { syncWorld } from '../helpers/sync-project.js';

guardStrayOutput();

const world = syncWorld('restored', { fakeWordPress: false });
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
});

interface Row {
  action: string;
  fields?: string[];
  edited?: string[];
}
const rows = (res: CliResult): Row[] => JSON.parse(res.stdout) as Row[];

const WRITTEN = /(sums=[^ ]*?)written\.([0-9a-f]+)/;

/**
 * The content of an earlier write as a restored revision brings it back, that write made `ago` seconds
 * before now (its marker's stamp moved back: the test does not wait). `stamp: false` drops the stamp, as a
 * marker written before blogctl recorded one.
 */
function restored(raw: string, ago: number, stamp = true): string {
  const m = WRITTEN.exec(raw);
  if (!m) throw new Error(`no written stamp in ${raw}`);
  if (!stamp) return raw.replace(/,?written\.[0-9a-f]+/, '').replace('sums=,', 'sums=');
  return raw.replace(WRITTEN, (_all, head: string, hex: string) => {
    return `${head}written.${(parseInt(hex, 16) - ago).toString(16)}`;
  });
}

/** An editor restores the revision whose content is `raw`: WordPress saves the post now. */
function restore(post: FakeWordPress['posts'][number], raw: string): void {
  post['content'] = raw;
  post['modified_gmt'] = new Date().toISOString().slice(0, 19);
}

async function setUp(key: string) {
  const wp = await startFakeWordPress();
  closers.push(() => wp.close());
  const dir = mkdtempSync(join(world.home, 'posts-'));
  const run = await world.runner({ wp });
  const publish = (...extra: string[]): Promise<CliResult> =>
    run(['wp', 'publish', '--site', 'blog', dir, '--json', ...extra]);
  const file = join(dir, 'a.md');
  const write = (body: string): void => writeFileSync(file, `---\nkey: ${key}\n---\n# Title\n\n${body}\n`);
  write('First version.');
  const first = await publish();
  expect(first.code, first.stderr).toBe(0);
  const post = wp.posts[0]!;
  // A create records no time (the same request from any runner): the first stamp comes with an update.
  expect(String(post['content'])).not.toMatch(WRITTEN);
  write('Second version.');
  const second = await publish();
  expect(rows(second)[0]).toMatchObject({ action: 'updated', fields: ['content'] });
  const v2 = String(post['content']);
  write('Third version.');
  const third = await publish();
  expect(rows(third)[0]).toMatchObject({ action: 'updated', fields: ['content'] });
  return { wp, post, v2, write, publish };
}

describe('a restored revision (no companion plugin)', () => {
  it('records the time of each write; a run right after blogctl wrote is unchanged, no drift', async () => {
    const { post, publish } = await setUp('restored-plain');
    expect(String(post['content'])).toMatch(WRITTEN);
    const again = await publish();
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)[0]).toEqual(expect.objectContaining({ action: 'unchanged' }));
    expect(rows(again)[0]!.edited).toBeUndefined();
  });

  it('is reported and kept: a conflict when the source changed, overwritten only with --force', async () => {
    const { post, v2, write, publish } = await setUp('restored-kept');
    restore(post, restored(v2, 600));

    // The plan says what the run does.
    const plan = await publish('--dry-run');
    expect(plan.code).toBe(6);
    expect(rows(plan)[0]).toMatchObject({ action: 'conflict', edited: ['saved'] });
    // The source is as blogctl last sent it: the restore is the editor's, the source differs from it.
    const kept = await publish();
    expect(kept.code).toBe(6);
    expect(kept.stderr).toContain("saved on the site after blogctl's last write");
    expect(String(post['content'])).toContain('Second version.');

    write('Fourth version.');
    const changed = await publish();
    expect(changed.code).toBe(6);
    expect(String(post['content'])).toContain('Second version.');

    const forced = await publish('--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(rows(forced)[0]).toMatchObject({ action: 'updated', fields: ['content'] });
    expect(String(post['content'])).toContain('Fourth version.');
    const after = await publish();
    expect(rows(after)[0]).toEqual(expect.objectContaining({ action: 'unchanged' }));
    expect(rows(after)[0]!.edited).toBeUndefined();
  });

  it('whose content the source states again is unchanged, reported as saved on the site', async () => {
    const { post, v2, write, publish } = await setUp('restored-same');
    restore(post, restored(v2, 600));
    write('Second version.');
    const res = await publish();
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]).toMatchObject({ action: 'unchanged', edited: ['saved'] });
    expect(res.stderr).toContain("saved on the site after blogctl's last write");
  });

  it('within the margin of the older write, or from a marker without a stamp: as before (overwritten)', async () => {
    const recent = await setUp('restored-recent');
    restore(recent.post, recent.v2);
    const res = await recent.publish();
    expect(res.code, res.stderr).toBe(0);
    expect(rows(res)[0]).toMatchObject({ action: 'updated', fields: ['content'] });

    const old = await setUp('restored-old-marker');
    restore(old.post, restored(old.v2, 600, false));
    const overwritten = await old.publish();
    expect(overwritten.code, overwritten.stderr).toBe(0);
    expect(rows(overwritten)[0]).toMatchObject({ action: 'updated', fields: ['content'] });
    expect(String(old.post['content'])).toContain('Third version.');
  });
});
