// The commit of a write in the sync state (issue 30 item 5): in the marker as two entries of its `sums=`
// list (read out of the sums, put back on write; a reader that does not know them still reads the marker),
// and in the companion plugin's meta state as members of its JSON.
import { describe, expect, it } from 'vitest';
import { readMarker, stripMarker } from '../../src/publishing/identity.js';
import { markerStore, type SyncState } from '../../src/publishing/sync-state.js';
import { formatState, parseState } from '../../src/publishing/sync-state-plugin.js';
import type { WpPostDetail } from '../../src/wordpress/posts.js';

const state: SyncState = {
  ns: '0123456789abcdef',
  key: '0123456789abcdef01234567',
  sums: { title: '1a2b3c4d', wp_title: '5e6f7a8b' },
  commit: 'a'.repeat(40),
  committed: 1_700_000_100,
};
const post = (raw: string): WpPostDetail => ({ id: 1, status: 'publish', content: { raw } }) as WpPostDetail;

describe('the commit in the marker', () => {
  it('round-trips, never as a sum, and leaves the marker readable and removable as before', () => {
    const { content } = markerStore.fieldsFor('<p>Body.</p>', state);
    expect(content).toContain(`commit.${'a'.repeat(40)}`);
    expect(content).toContain(`committed.${(1_700_000_100).toString(16)}`);
    expect(markerStore.stateOf(post(content))).toEqual(state);
    // What a reader that knows nothing of the commit sees: the same post, the same key.
    expect(readMarker(content)).toMatchObject({ ns: state.ns, key: state.key });
    expect(stripMarker(content)).toBe('<p>Body.</p>');
    // A marker without a commit (written before the check existed) has none.
    const { commit: _c, committed: _d, ...plain } = state;
    expect(markerStore.stateOf(post(markerStore.fieldsFor('<p>x</p>', plain).content))).toEqual(plain);
  });

  it('a malformed commit entry is no commit', () => {
    const { content } = markerStore.fieldsFor('<p>Body.</p>', { ...state, commit: 'abc' });
    expect(markerStore.stateOf(post(content))!.commit).toBeUndefined();
  });
});

describe('the commit in the plugin meta state', () => {
  it('is kept with its date', () => {
    expect(parseState(formatState(state, new Date(0)))).toEqual(state);
  });
});
