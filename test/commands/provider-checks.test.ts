// What the provider generator checks and how it degrades: the call to action in the closing section, the
// main keyword in the title and excerpt, an introduction, a body and a close with the body the largest;
// after the drafts run out, the best draft is kept and the post stored with what it misses in its
// `shortfalls` and on stderr, unless `--strict` (Prefer: handling=strict) asks for today's refusal.
// The command tree in-process, its in-process sandbox writing through the fake provider.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFlags, tempConfigDir } from '../helpers/cli.js';
import { answer, startFakeOpenAI, write, type FakeOpenAI } from '../helpers/fake-openai.js';
import { guardStrayOutput, runInProcess } from '../helpers/in-process.js';

guardStrayOutput();

let fake: FakeOpenAI;
let configDir: string;
beforeEach(async () => {
  fake = await startFakeOpenAI();
  configDir = tempConfigDir();
});
afterEach(async () => {
  await fake.close();
});

const env = (): Record<string, string> => ({
  BLOGCTL_CONFIG_DIR: configDir,
  BLOGCTL_PROVIDER_URL: fake.url,
  BLOGCTL_MODEL: fake.model,
  BLOGCTL_PROVIDER_RETRY_BASE_MS: '10',
});

function create(args: string[] = []) {
  return runInProcess(['--sandbox', 'blog', 'create', ...createFlags(), '--json', ...args], { env: env() });
}

async function stored(): Promise<Record<string, unknown>[]> {
  const list = await runInProcess(['--sandbox', 'blog', 'list', '--json'], {
    env: { BLOGCTL_CONFIG_DIR: configDir },
  });
  return JSON.parse(list.stdout) as Record<string, unknown>[];
}

const isClose = (prompt: string): boolean => /Write section 3 of 3|the close:/.test(prompt);

describe('the call to action', () => {
  it('is asked of the closing section in its words, and checked there', async () => {
    let left = false;
    fake.respond = (r) => {
      if (left || !/Write section 3 of 3/.test(r.prompt)) return undefined;
      left = true;
      return answer(write(r).replace(/Subscribe/gi, 'Think about'));
    };
    const result = await create(['--cta', 'Subscribe to the newsletter']);
    expect(result.code, result.stderr).toBe(0);
    const close = fake.requests.find((r) => /Write section 3 of 3/.test(r.prompt))!;
    expect(close.prompt).toContain('call to action, in these words: "Subscribe to the newsletter"');
    const revise = fake.requests.find((r) => /needs another draft/.test(r.prompt));
    expect(revise?.prompt).toContain('it leaves out the call to action "Subscribe to the newsletter"');
    const blog = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(blog).not.toHaveProperty('shortfalls');
    expect(String(blog['content'])).toContain('Subscribe to the newsletter');
  });

  it('left out by every draft: the post is kept, and says so in the record and on stderr', async () => {
    fake.respond = (r) =>
      isClose(r.prompt) && /Write section|another draft/.test(r.prompt)
        ? answer(write(r).replace(/Subscribe to the newsletter/gi, 'Think about tea'))
        : undefined;
    const result = await create(['--cta', 'Subscribe to the newsletter']);
    expect(result.code, result.stderr).toBe(0);
    const blog = JSON.parse(result.stdout) as { shortfalls: string[] };
    expect(blog.shortfalls).toEqual([
      'section 3 ("Where to go next"): it leaves out the call to action "Subscribe to the newsletter"',
    ]);
    expect(result.stderr).toContain('warning: the post was kept, but misses what was asked');
    expect(result.stderr).toContain('it leaves out the call to action');
    expect(await stored()).toHaveLength(1);
  });
});

describe('after the drafts', () => {
  it('a section outside ±20 % keeps its nearest draft; the post is stored with what it misses', async () => {
    const drafts = [30, 60, 20];
    fake.respond = (r) => {
      if (!/Write section 2 |needs another draft/.test(r.prompt)) return undefined;
      const words = drafts.shift() ?? 20;
      return answer(write(r).split(' ').slice(0, words).join(' '));
    };
    const result = await create();
    expect(result.code, result.stderr).toBe(0);
    const blog = JSON.parse(result.stdout) as { shortfalls: string[]; content: string };
    // The draft of about 60 words, the nearest of the three to its budget; the post short of its length too.
    expect(blog.shortfalls).toEqual([
      expect.stringMatching(/^section 2 \("Step 1"\): it has 6\d words where \d+–\d+ were asked$/),
      expect.stringMatching(/^the post: a post of \d+ words, not within 20 % of 300$/),
    ]);
    expect(result.stderr).toMatch(/section 2 \("Step 1"\): it has 6\d words/);
    const list = await stored();
    expect(list).toHaveLength(1);
    expect(list[0]!['shortfalls']).toEqual(blog.shortfalls);
  });

  it('with --strict, the same post is refused (exit 7) and nothing is stored', async () => {
    fake.respond = (r) =>
      /Write section 2 |needs another draft/.test(r.prompt)
        ? answer(write(r).split(' ').slice(0, 20).join(' '))
        : undefined;
    const result = await create(['--strict']);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('still failed its checks');
    expect(fake.requests.every((r) => r.prompt.length > 0)).toBe(true);
    expect(await stored()).toEqual([]);
  });
});

describe('keywords where the request implies them', () => {
  it('a title without the main keyword: the outline is asked again, with what was wrong', async () => {
    let asked = 0;
    fake.respond = (r) => {
      if (!/Answer with one JSON object/.test(r.prompt) || asked++) return undefined;
      const plan = JSON.parse(write(r)) as Record<string, unknown>;
      return answer(JSON.stringify({ ...plan, title: 'Better Mornings', excerpt: 'A calm start.' }));
    };
    const result = await create();
    expect(result.code, result.stderr).toBe(0);
    const again = fake.requests.find((r) => /outline needs another try/.test(r.prompt));
    expect(again?.prompt).toContain('the title leaves out "home espresso"');
    expect(again?.prompt).toContain('the excerpt leaves out "home espresso"');
    const blog = JSON.parse(result.stdout) as Record<string, string>;
    expect(blog['title']).toContain('home espresso');
    expect(blog['excerpt']).toContain('home espresso');
    expect(blog['slug']).toContain('home-espresso');
  });

  it('every keyword in the body, the main one in the title, excerpt and slug', async () => {
    const result = await create(['-k', 'milk frothing,tamping pressure']);
    expect(result.code, result.stderr).toBe(0);
    const blog = JSON.parse(result.stdout) as Record<string, string>;
    const text = blog['content']!.replace(/<[^>]+>/g, ' ');
    for (const k of ['home espresso', 'grinder', 'milk frothing', 'tamping pressure'])
      expect(text).toContain(k);
    expect(blog['title']).toContain('home espresso');
    expect(blog['excerpt']).toContain('home espresso');
    expect(blog['slug']).toContain('home-espresso');
  });
});

describe('a Short post', () => {
  it('has an introduction, a body and a close, the body the largest', async () => {
    const result = await create(['--length', 'short']);
    expect(result.code, result.stderr).toBe(0);
    const outline = /The outline of the whole post:\n([\s\S]*?)\n\n/.exec(
      fake.requests.find((r) => /Write section 1 /.test(r.prompt))!.prompt,
    )![1]!;
    const budgets = [...outline.matchAll(/about (\d+) words/g)].map((m) => Number(m[1]));
    expect(budgets).toHaveLength(3);
    expect(budgets[1]!).toBeGreaterThan(budgets[0]! + budgets[2]!);
  });

  it('an outline of one section is asked again', async () => {
    let asked = 0;
    fake.respond = (r) => {
      if (!/Answer with one JSON object/.test(r.prompt) || asked++) return undefined;
      const plan = JSON.parse(write(r)) as { sections: unknown[] };
      return answer(JSON.stringify({ ...plan, sections: plan.sections.slice(0, 1) }));
    };
    const result = await create(['--length', 'short']);
    expect(result.code, result.stderr).toBe(0);
    const again = fake.requests.find((r) => /outline needs another try/.test(r.prompt));
    expect(again?.prompt).toContain('it has 1 section where an introduction, a body and a close were asked');
    expect(fake.requests.filter((r) => /Write section \d of 3/.test(r.prompt))).toHaveLength(3);
  });
});
