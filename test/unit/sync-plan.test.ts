// The plan beyond create/update: an edit made on the site (drift) kept and reported, a conflict when the
// source changed the same field, a moved source taking its orphan's post, orphans left for the report.
import { describe, expect, it } from 'vitest';
import { editedFields, sourceSums, storedSums, type StoredValues } from '../../src/publishing/sync/drift.js';
import { fieldSum, keyHash, nsHash, type Marker } from '../../src/publishing/identity.js';
import { planActions, remainingOrphans, type SitePost, type Wanted } from '../../src/publishing/sync/plan.js';
import { keySourceKey } from '../../src/publishing/source-key.js';

const NS = nsHash('unit');

/** What a source sends, as its marker (source sums) and as WordPress would store it. */
function source(key: string, values: { title: string; content: string }): Wanted {
  return {
    marker: {
      ns: NS,
      key: keyHash(keySourceKey(key)),
      sums: { title: fieldSum(values.title), content: fieldSum(values.content) },
    },
    stored: values,
  };
}

/** A post blogctl published for `w`, as WordPress stores it now (`now`: the site's values, maybe edited). */
function published(id: number, w: Wanted, now: StoredValues, sent = w.stored!): SitePost {
  const marker: Marker = { ns: NS, key: w.marker.key, sums: { ...w.marker.sums, ...storedSums(sent) } };
  return { id, status: 'publish', slug: `p-${id}`, marker, stored: { status: 'publish', ...now } };
}

const v1 = { title: 'Hello', content: '<p>Body</p>' };

describe('drift: what the site changed since blogctl sent it', () => {
  it('compares values as WordPress keeps them: trimmed, the marker left out, future as publish', () => {
    const sent = storedSums({ title: 'T', content: '<p>x</p>', status: 'future', categories: [3, 1] });
    const marker: Marker = { ns: NS, key: 'k', sums: sent };
    expect(
      editedFields(marker, {
        title: ' T ',
        content: '<p>x</p>\n<!-- blogctl:v1 key=0 sums=a.00000000 -->',
        status: 'publish',
        categories: [1, 3],
      }),
    ).toEqual([]);
    expect(
      editedFields(marker, { title: 'T!', content: '<p>y</p>', status: 'draft', categories: [1] }),
    ).toEqual(['title', 'content', 'status', 'categories']);
    // Never sent, never called edited; not read, not called edited.
    expect(editedFields(marker, { excerpt: 'An editor added this' })).toEqual([]);
    expect(Object.keys(sourceSums({ ns: NS, key: 'k', sums: { ...sent, title: 'abcd0123' } }))).toEqual([
      'title',
    ]);
  });

  it('an edit only on the site is kept and reported; the source changing other fields updates those', () => {
    const w = source('a', v1);
    const site = published(1, w, { ...v1, title: 'Hello (fixed typo)' });
    const [same] = planActions([w], [site], []);
    expect(same!.action).toMatchObject({ kind: 'unchanged', edited: ['title'] });

    const w2 = source('a', { ...v1, content: '<p>New body</p>' });
    const [changed] = planActions([w2], [site], []);
    expect(changed!.action).toMatchObject({ kind: 'update', fields: ['content'], edited: ['title'] });
  });

  it('the same field changed in the source and on the site is a conflict, unless --force', () => {
    const w = source('a', v1);
    const site = published(1, w, { ...v1, title: 'Hello (fixed typo)' });
    const w2 = source('a', { ...v1, title: 'Hello again' });
    expect(planActions([w2], [site], [])[0]!.action).toMatchObject({ kind: 'conflict', fields: ['title'] });
    expect(planActions([w2], [site], [], { force: true })[0]!.action).toMatchObject({
      kind: 'update',
      fields: ['title'],
    });
    expect(
      (planActions([w2], [site], [], { force: true })[0]!.action as { edited?: unknown }).edited,
    ).toBeUndefined();
  });

  it("a source that took over the site's edit is no conflict: the marker catches up", () => {
    const w = source('a', v1);
    const site = published(1, w, { ...v1, title: 'Hello (fixed typo)' });
    const caughtUp = source('a', { ...v1, title: 'Hello (fixed typo)' });
    const [p] = planActions([caughtUp], [site], []);
    expect(p!.action).toMatchObject({ kind: 'update', fields: ['title'] });
    expect((p!.action as { edited?: unknown }).edited).toBeUndefined();
  });
});

describe('moves and orphans (a run holding every source of the namespace)', () => {
  it("a new source whose content is exactly one orphan's takes that post; the rest stay orphans", () => {
    const old = source('old/b.md', v1);
    const gone = source('gone.md', { title: 'Gone', content: '<p>Gone</p>' });
    const kept = source('kept.md', { title: 'Kept', content: '<p>Kept</p>' });
    const site = [published(1, old, v1), published(2, gone, gone.stored!), published(3, kept, kept.stored!)];
    const moved = source('new/b.md', { ...v1, title: 'Hello, renamed' });
    const wanted = [moved, kept];
    const planned = planActions(wanted, site, [], { complete: true });
    expect(planned[0]!.action).toMatchObject({ kind: 'move', post: { id: 1 }, fields: ['title'] });
    expect(planned[1]!.action).toMatchObject({ kind: 'unchanged', post: { id: 3 } });
    expect(remainingOrphans(wanted, site, planned).map((p) => p.id)).toEqual([2]);
    // A run of some sources only knows no orphans: the same source is simply new.
    expect(planActions(wanted, site, [])[0]!.action).toEqual({ kind: 'create' });
  });

  it('no move when two orphans, or two new sources, share the content; a trashed post is no orphan', () => {
    const a = source('a.md', v1);
    const b = source('b.md', v1);
    const twoOrphans = [published(1, a, v1), published(2, b, v1)];
    const c = source('c.md', v1);
    expect(planActions([c], twoOrphans, [], { complete: true })[0]!.action).toEqual({ kind: 'create' });
    const d = source('d.md', v1);
    const one = [published(1, a, v1)];
    expect(planActions([c, d], one, [], { complete: true }).map((p) => p.action.kind)).toEqual([
      'create',
      'create',
    ]);
    const trashed = [{ ...published(1, a, v1), status: 'trash' }];
    expect(planActions([c], trashed, [], { complete: true })[0]!.action).toEqual({ kind: 'create' });
    expect(remainingOrphans([c], trashed, [])).toEqual([]);
  });
});
