// The service's other publish shape, `{success, postUrl, postId}` (spec 4.2 rule 4), as the sandbox answers it
// with --publish-shape alt: it says nothing of the status WordPress gave the post, so `wp publish` reads it
// back from WordPress (publishing/apply/read-back.ts), or, with --service-only, says it is unknown. In-process,
// against the sandbox relaying to a fake WordPress.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

guardStrayOutput();

let sandbox: TestSandbox;
let wp: FakeWordPress;
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox({ publishShape: 'alt' }), startFakeWordPress()]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), wp.close()]);
});

const env = (): Record<string, string> => ({
  BLOGCTL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'blogctl-alt-')),
  BLOGCTL_BASE_URL: sandbox.url,
  BLOGCTL_API_KEY: sandbox.apiKey,
});

/** `wp publish` of a post asked to be `future` 5 s from now, which WordPress publishes at once (as
 * --allow-immediate accepts). */
function publishSoon(slug: string, ...more: string[]): Promise<Awaited<ReturnType<typeof runInProcess>>> {
  const soon = new Date(Date.now() + 5_000).toISOString().replace(/\.\d+Z$/, 'Z');
  return runInProcess(
    [
      'wp',
      'publish',
      '--url',
      wp.url,
      '--username',
      wp.username,
      '--password-stdin',
      '--title',
      `Alt ${slug}`,
      '--content',
      '<p>alt</p>',
      '--slug',
      slug,
      '--status',
      'future',
      '--date-gmt',
      soon,
      '--allow-immediate',
      '--json',
      ...more,
    ],
    { env: env(), input: `${wp.password}\n` },
  );
}

describe('wp publish against the alt shape', () => {
  it('the sandbox answers exactly {success, postUrl, postId}', async () => {
    const res = await sandbox.fetch('/api/v1/public/integrations/wordpress/publish', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        credentials: { websiteUrl: wp.url, username: wp.username, password: wp.password },
        content: { title: 'Bare', content: 'x', status: 'draft' },
      }),
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['postId', 'postUrl', 'success']);
  });

  it("reads the status WordPress gave back from WordPress; the schedule's warning says once that it differs", async () => {
    const res = await publishSoon('alt-read-back');
    expect(res.code, res.stderr).toBe(0);
    const [out] = JSON.parse(res.stdout) as Record<string, unknown>[];
    expect(out).toMatchObject({ action: 'created', published: true, status: 'publish', type: 'post' });
    // The schedule foresaw it ("at once (status publish)"): said once, not again as a surprise.
    expect(res.stderr.match(/at once \(status publish\)/g)).toHaveLength(1);
    expect(res.stderr).not.toContain('as asked');
    const post = wp.posts.find((p) => p.slug === 'alt-read-back')!;
    expect(
      wp.requests.some((r) => r.method === 'GET' && decodeURIComponent(r.url).includes(`posts/${post.id}`)),
    ).toBe(true);
  });

  it('--service-only does not ask WordPress: the status is unknown, and it says so', async () => {
    const res = await publishSoon('alt-service-only', '--service-only');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject([{ action: 'created', published: true, status: null }]);
    expect(res.stderr).toContain('--service-only does not ask the site: status and type unknown');
  });
});
