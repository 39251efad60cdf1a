// The rules behind "at most one post across runs": which failures leave a publish in doubt, which post on
// the site counts as ours, and the advice a failed blog create --publish gives. The in-doubt log itself:
// in-doubt.test.ts.
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  BlogctlError,
  InterruptedError,
  RejectedError,
  UnavailableError,
  UsageError,
} from '../../src/errors.js';
import { publishLaterCommand } from '../../src/publishing/publish-blog.js';
import { buildPostDraft } from '../../src/publishing/publish-draft.js';
import { isAmbiguous, isOurs, recoverAmbiguous } from '../../src/publishing/publish-recover.js';
import { WordPressClient } from '../../src/wordpress/client.js';
import { findPostsByTitle, searchWord, type WpPostDetail } from '../../src/wordpress/posts.js';
import { startFakeWordPress } from '../helpers/fake-wordpress.js';

describe('isAmbiguous: may the request have been acted on?', () => {
  it.each([
    ['a timeout after sending', new UnavailableError('t', { peerCode: 'UND_ERR_HEADERS_TIMEOUT' }), true],
    ['a reset', new UnavailableError('r', { peerCode: 'ECONNRESET' }), true],
    ['an unreadable 200', new UnavailableError('j', { status: 200 }), true],
    ['a 204 without the JSON', new UnavailableError('e', { status: 204 }), true],
    ['a 500', new UnavailableError('500', { status: 500 }), true],
    ['a gateway 504', new UnavailableError('504', { status: 504 }), true],
    ['an interrupt', new InterruptedError(), true],
    ['an error of unknown kind', new TypeError('bug'), true],
    ['connection refused (never sent)', new UnavailableError('c', { peerCode: 'ECONNREFUSED' }), false],
    ['a 401', new AuthError('a', { status: 401 }), false],
    ['a 413', new RejectedError('big', { status: 413 }), false],
    ['a 429', new RejectedError('slow', { status: 429 }), false],
    ['a usage error', new UsageError('x'), false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isAmbiguous(error)).toBe(expected);
  });

  it('the error line goes on to say the post may exist and what checks next', () => {
    const job = {
      name: 'a.md',
      draft: buildPostDraft([{ values: { title: 'T', content: 'c' }, names: {} }], { now: new Date() }),
    };
    const error = new UnavailableError('publish failed: no answer', {
      status: 502,
      hints: ['raise --timeout'],
    });
    const one = recoverAmbiguous(job, error, false);
    expect(one).toMatchObject({ state: 'failed', inDoubt: true });
    // On the line itself: a script reading stderr gets that line alone.
    expect(one.error!.message).toBe(
      'publish failed: no answer; the post may exist: the next run of this publish looks for it on the site first, and sends it again (with the same Idempotency-Key) only if it is not there',
    );
    expect(one.error!.context).toMatchObject({ status: 502, hints: ['raise --timeout'] });
    expect(one.error!.exitCode).toBe(7);
    expect(recoverAmbiguous(job, error, true).error!.message).toBe(
      'publish failed: no answer; the post may exist: the next run looks for it on the site first',
    );
    expect(recoverAmbiguous(job, error, false, 'run X').error!.message).toBe(
      'publish failed: no answer; run X',
    );
    expect(one.error).toBeInstanceOf(BlogctlError);
  });
});

describe('which post is ours', () => {
  const since = new Date('2026-03-01T10:00:00Z');
  const post = (overrides: Partial<WpPostDetail> = {}): WpPostDetail => ({
    id: 5,
    status: 'draft',
    title: { raw: 'Weekly digest', rendered: 'Weekly digest' },
    date_gmt: '2026-03-01T10:03:00',
    modified_gmt: '2026-03-01T10:03:00',
    ...overrides,
  });

  it('the exact title, written and created since just before the request', () => {
    expect(isOurs(post(), { title: 'Weekly digest' }, since)).toBe(true);
    expect(isOurs(post(), { title: 'Weekly digest 2' }, since)).toBe(false);
    expect(isOurs(post({ modified_gmt: '2026-02-28T10:00:00' }), { title: 'Weekly digest' }, since)).toBe(
      false,
    );
    // Last week's post, edited since: not ours.
    expect(isOurs(post({ date_gmt: '2026-02-22T10:00:00' }), { title: 'Weekly digest' }, since)).toBe(false);
    // Unless a date was sent: then its date says nothing about when it was created.
    expect(
      isOurs(post({ date_gmt: '2027-01-01T00:00:00' }), { title: 'Weekly digest', dated: true }, since),
    ).toBe(true);
  });

  it('compares titles as WordPress stores and renders them', () => {
    const escaped = post({ title: { raw: 'Tea &amp; cake', rendered: 'Tea &#038; cake' } });
    expect(isOurs(escaped, { title: 'Tea & cake' }, since)).toBe(true);
    const curly = post({ title: { rendered: 'It&#8217;s here' } });
    expect(isOurs(curly, { title: 'It’s here' }, since)).toBe(true);
  });

  it('asks WordPress for any status, edit context, one word of the title, modified in a wide window', async () => {
    const wp = await startFakeWordPress();
    const client = new WordPressClient({ websiteUrl: wp.url, username: wp.username, password: wp.password });
    try {
      await findPostsByTitle(client, 'Weekly digest: -5 tips', since);
      const url = new URL(wp.requests.at(-1)!.url, wp.url);
      expect(url.pathname).toBe('/wp-json/wp/v2/posts');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        search: 'Weekly',
        status: 'any',
        context: 'edit',
        // RFC 3339 as WordPress's rest_parse_date wants it; a day early (the site's time zone is unknown).
        modified_after: '2026-02-28T10:00:00Z',
        per_page: '100',
        orderby: 'modified',
        order: 'desc',
      });
    } finally {
      await client.close();
      await wp.close();
    }
  });

  it('searches WordPress for one word of the title', () => {
    expect(searchWord('Weekly digest: -5 tips')).toBe('Weekly');
    expect(searchWord('<em>Big</em> news &amp; more')).toBe('news');
    expect(searchWord('Café crème brûlée')).toBe('brûlée');
    expect(searchWord('!!!')).toBeUndefined();
  });
});

describe('advice after a failed blog create --publish', () => {
  const layer = (values: Record<string, unknown>) => ({ values, names: {} });

  it('advice to publish a generated blog later repeats its post flags, quoted for a shell', () => {
    const command = publishLaterCommand(
      {
        site: 'my-blog',
        postArgs: ['--status', 'publish', '--excerpt', "it's <b>here</b>", '--key', 'w 1'],
        flagLayer: layer({}),
        force: false,
        createTerms: false,
      },
      'b1',
    );
    expect(command).toBe(
      "blogctl wp publish --site my-blog --from-blog b1 --status publish --excerpt 'it'\\''s <b>here</b>' --key 'w 1'",
    );
  });
});
