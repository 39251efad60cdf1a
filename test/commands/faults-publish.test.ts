// The publish column of the fault matrix across two runs (as from two CI runners: nothing is kept on the
// machine), in-process: a fault, then the next run, which finds the post on the site when the service made it
// before the fault, and otherwise sends it again with the same Idempotency-Key. This file and PUBLISH_COLUMN
// (test/helpers/fault-matrix.ts) are what a change to how `wp publish` finds its posts changes.
import { describe, expect, it } from 'vitest';
import type { FakeWordPress } from '../helpers/fake-wordpress.js';
import {
  FAULTS,
  LATER,
  PUBLISHING,
  ambiguous as isAmbiguous,
  faultName,
  generates,
  postsOf,
  session,
  tracked,
} from '../helpers/fault-matrix.js';
import {
  CREATED_BLOG,
  FIXTURE_BLOGS,
  expectNoSecrets,
  expectOneErrorLine,
  snapshotDir,
  type Fault,
  type Step,
} from '../helpers/fault-server.js';
import { guardStrayOutput } from '../helpers/in-process.js';

guardStrayOutput();

describe.concurrent('publish column: the next run after a fault', () => {
  const cases = PUBLISHING.flatMap((c) => FAULTS.map((f) => ({ c, ...f, name: c.name })));

  it.each(cases)(
    '$name, $label: the post not made, the next run sends it (with a source: the same Idempotency-Key)',
    async ({ c, fault, exit }) => {
      const posts = postsOf(c);
      // A run's first create of tracked sources goes alone (its post must be found before any other is
      // made): refused credentials stop the run before the others are sent.
      const sent = exit === 4 && tracked(c) ? 1 : posts;
      const s = await session(c, [...Array<Step>(sent).fill(fault), 'ok'], {
        blogs: [...FIXTURE_BLOGS, CREATED_BLOG],
      });
      try {
        const first = await s.run();
        expect(first.code, first.stderr).toBe(exit);
        const firstKeys = s.server.keys('publish');
        expect(firstKeys).toHaveLength(sent);
        const ambiguous = isAmbiguous(fault);

        // blog create's next run is the command its advice names (another blog create would make a new blog).
        if (generates(c) && ambiguous)
          expect(first.stderr).toContain(`\`blogctl ${LATER.join(' ')}\` finds it`);
        const second = await s.run(generates(c) ? LATER : undefined);
        expect(second.code, second.stderr).toBe(0);
        const keys = s.server.keys('publish');
        expect(keys, 'one POST per post and run').toHaveLength(sent + posts);
        const again = keys.slice(sent);
        // The key comes from the site, the source and the post: any machine sends the same one again. A post
        // from flags alone has no source, so its key guards only its own request.
        if (tracked(c) || generates(c)) for (const key of firstKeys) expect(again).toContain(key);
        else for (const key of again) expect(firstKeys).not.toContain(key);
        expect(s.server.count('create')).toBe(generates(c) ? 1 : 0);
        expect(snapshotDir(s.dir), 'nothing kept on this machine').toEqual(s.before);
        expectNoSecrets(first.stdout, first.stderr, second.stdout, second.stderr);
      } finally {
        await s.close();
      }
    },
  );

  // The service made the post and lost the answer: a few faults of each kind (no answer, a cut or unreadable
  // answer, a 5xx) stand for the rest. Only a post with a source can be found again.
  const acted: Fault[] = ['hang', 'reset', 'truncated', 'empty204', 'html500'];
  it.each(cases.filter(({ c, fault }) => acted.includes(faultName(fault)) && (tracked(c) || generates(c))))(
    '$name, $label, the post made before the fault: the next run finds it and sends nothing',
    async ({ c, fault }) => {
      const posts = postsOf(c);
      const site: { wp?: FakeWordPress } = {};
      const s = await session(c, [...Array<Step>(posts).fill(fault), 'ok'], {
        blogs: [...FIXTURE_BLOGS, CREATED_BLOG],
        // The service relayed the post to WordPress, then lost the answer.
        actsOnPublish: (body) => {
          const { content } = JSON.parse(body) as { content: Record<string, unknown> };
          const now = new Date().toISOString().slice(0, 19);
          site.wp!.posts.push({
            ...content,
            id: 500 + site.wp!.posts.length,
            status: String(content['status'] ?? 'draft'),
            slug: String(content['slug'] ?? ''),
            title: String(content['title']),
            date_gmt: now,
            modified_gmt: now,
          });
        },
      });
      const wp = (site.wp = s.wp!);
      try {
        const first = await s.run();
        expect(first.code, first.stderr).toBe(7);
        const second = await s.run(generates(c) ? [...LATER, '--json'] : [...s.args, '--json']);
        expect(second.code, second.stderr).toBe(0);
        expect(s.server.count('publish'), 'nothing sent again').toBe(posts);
        expect(wp.posts).toHaveLength(posts);
        expect(wp.updates).toEqual([]);
        const out = JSON.parse(second.stdout) as unknown;
        const views = (Array.isArray(out) ? out : [out]) as { action: string; id: string }[];
        for (const view of views) expect(view.action).toBe('unchanged');
        expect(views.map((v) => Number(v.id)).sort()).toEqual(wp.posts.map((p) => p.id).sort());
      } finally {
        await s.close();
      }
    },
  );

  it('blog create --publish refused: the error names the command that publishes the blog later', async () => {
    const c = PUBLISHING.find((p) => generates(p))!;
    const s = await session(c, '413');
    try {
      const res = await s.run([...s.args, '--json']);
      expect(res.code).toBe(6);
      expect(res.stderr).not.toContain('may exist');
      // In the error line itself (and so in the JSON error's message): a cron log has no hint lines.
      const [line, object] = res.stderr.split('\n');
      const later = `; the blog was generated (${String(CREATED_BLOG['_id'])}): publish it later with \`blogctl ${LATER.join(' ')}\``;
      expect(line!.endsWith(later)).toBe(true);
      expect((JSON.parse(object!) as { message: string }).message.endsWith(later)).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('a site that refuses to be asked: exit 4, nothing sent, and the line says what was being done', async () => {
    const c = PUBLISHING.find((p) => p.name === 'wp publish FILE…')!;
    const s = await session(c, 'ok');
    try {
      // The stored password is not the one the site knows: the look-up is refused (401).
      const res = await s.run(undefined, { env: { BLOGCTL_WP_PASSWORD: 'wrong pass word 0000 1111 2222' } });
      expect(res.code, res.stderr).toBe(4);
      expectOneErrorLine(res);
      expect(res.stderr).toMatch(
        /^error: looking up which posts already exist on stored failed: .*; nothing was published/,
      );
      expect(s.server.count('publish')).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('a site that does not answer: exit 7, nothing sent; --service-only publishes through the service alone', async () => {
    const c = PUBLISHING.find((p) => p.name === 'wp publish FILE…')!;
    const s = await session(c, 'ok');
    try {
      await s.wp!.close();
      const res = await s.run();
      expect(res.code).toBe(7);
      expectOneErrorLine(res);
      expect(res.stderr).toMatch(
        /^error: looking up which posts already exist on stored failed: .*; nothing was published/,
      );
      expect(res.stderr).toContain('--service-only');
      expect(s.server.count('publish')).toBe(0);
      const blind = await s.run([...s.args, '--service-only']);
      expect(blind.code, blind.stderr).toBe(0);
      expect(blind.stderr).toMatch(/^warning: --service-only: .*a repeat cannot be detected/m);
      expect(s.server.count('publish')).toBe(2);
    } finally {
      await s.close();
    }
  });
});
