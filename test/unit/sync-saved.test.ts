// The time of blogctl's last write in the sync state (issue 30 item 3d): `written.<hex seconds>` among the
// marker's entries (never a sum), and the plan's check of a post's `modified_gmt` against it.
import { describe, expect, it } from 'vitest';
import { readMarker } from '../../src/publishing/identity.js';
import { markerStore, stampWritten, type SyncState } from '../../src/publishing/sync-state.js';
import { formatState, parseState } from '../../src/publishing/sync-state-plugin.js';
import {
  planActions,
  savedAfterWrite,
  WRITTEN_MARGIN_S,
  type SitePost,
  type Wanted,
} from '../../src/publishing/sync/plan.js';
import { PRUNED, PRUNED_SUM } from '../../src/publishing/sync/pruned.js';
import type { WordPressClient } from '../../src/wordpress/client.js';
import type { WpPostDetail } from '../../src/wordpress/posts.js';

const WRITTEN = 1_800_000_000;
const state: SyncState = {
  ns: '0123456789abcdef',
  key: '0123456789abcdef01234567',
  sums: { content: '1a2b3c4d', wp_content: '5e6f7a8b' },
  written: WRITTEN,
};
const post = (raw: string): WpPostDetail => ({ id: 1, status: 'publish', content: { raw } }) as WpPostDetail;
/** `modified_gmt` as WordPress gives it: UTC, no zone. */
const gmt = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 19);
const site = (modified: number | undefined, marker: SyncState = state): SitePost => ({
  id: 1,
  status: 'publish',
  slug: 'a',
  marker,
  ...(modified !== undefined && { modified: gmt(modified) }),
});
const wanted = (content: string): Wanted => ({ marker: { ...state, sums: { content } } });

describe('the time of the write in the state', () => {
  it('round-trips in the marker, never as a sum, and in the plugin meta', () => {
    const { content } = markerStore.fieldsFor('<p>Body.</p>', state);
    expect(content).toContain(`written.${WRITTEN.toString(16)}`);
    expect(markerStore.stateOf(post(content))).toEqual(state);
    expect(readMarker(content)).toMatchObject({ ns: state.ns, key: state.key });
    expect(parseState(formatState(state, new Date()))).toEqual(state);
  });

  it("is stamped from the site's clock, and not at all before the site told its time", () => {
    const at = new Date(WRITTEN * 1000 + 1500);
    expect(stampWritten({ ...state, written: 1 }, { serverNow: () => at } as WordPressClient).written).toBe(
      WRITTEN + 1,
    );
    const unknown = stampWritten(state, { serverNow: () => undefined } as WordPressClient);
    expect(unknown.written).toBeUndefined();
  });
});

describe('a post saved on the site after the write', () => {
  it('is one when modified_gmt is later by more than the margin; never without a time or a modified', () => {
    expect(savedAfterWrite(site(WRITTEN + WRITTEN_MARGIN_S))).toBe(false);
    expect(savedAfterWrite(site(WRITTEN + WRITTEN_MARGIN_S + 1))).toBe(true);
    expect(savedAfterWrite(site(undefined))).toBe(false);
    const { written: _w, ...old } = state;
    expect(savedAfterWrite(site(WRITTEN + 3600, old))).toBe(false);
  });

  it('is kept (unchanged, saved) or a conflict; --force sends the source; a pruned post is restored', () => {
    const later = site(WRITTEN + 3600);
    expect(planActions([wanted('1a2b3c4d')], [later], [])[0]!.action).toMatchObject({
      kind: 'unchanged',
      edited: ['saved'],
    });
    expect(planActions([wanted('99999999')], [later], [])[0]!.action).toMatchObject({
      kind: 'conflict',
      fields: ['saved'],
    });
    expect(planActions([wanted('99999999')], [later], [], { force: true })[0]!.action).toMatchObject({
      kind: 'update',
      fields: ['content'],
    });
    // --prune trashed it after writing its marker (the trash is a save): its source back, it is restored.
    const pruned = site(WRITTEN + 3600, { ...state, sums: { ...state.sums, [PRUNED]: PRUNED_SUM } });
    const back = planActions([wanted('1a2b3c4d')], [{ ...pruned, status: 'trash' }], [])[0]!.action;
    expect(back).toMatchObject({ kind: 'update', restore: true });
    expect(back).not.toHaveProperty('edited');
  });
});
