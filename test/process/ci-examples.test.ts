// The CI recipes in examples/ as written: the GitHub Actions workflow's and the GitLab CI job's shell steps,
// read from their YAML, run with bash against the sandbox and a fake WordPress with the environment the
// runner gives them (GITHUB_* variables, secrets put where the workflow's `env:` says); and the crontab
// line run as cron runs it (`\%` unescaped, /bin/sh, the crontab's own PATH and nothing else).
//
// Stand-ins on PATH: `npx` runs the built CLI for `npx --yes blogctl …` (what npx resolves is npm's
// business, not the recipe's); `gh` keeps a pull request's comments in a file, for `gh api` as the workflow
// calls it; `blogctl` for the crontab is the built CLI where `npm install --global` would put it.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, createFlags } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ROOT = resolve(import.meta.dirname, '../..');
const yaml = (path: string): Record<string, unknown> =>
  parseYaml(readFileSync(join(ROOT, path), 'utf8')) as Record<string, unknown>;

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A process run to its end without blocking this one (the sandbox and the fake answer from here). */
function spawnAsync(
  command: string,
  args: string[],
  options: { cwd?: string; env: Record<string, string>; input?: string },
): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

let sandbox: TestSandbox;
let wp: FakeWordPress;
let work: string;
let stubs: string;
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
  work = realpathSync(mkdtempSync(join(tmpdir(), 'blogctl-ci-')));
  stubs = join(work, 'bin');
  mkdirSync(stubs);
  const script = (name: string, text: string): void => {
    writeFileSync(join(stubs, name), text);
    chmodSync(join(stubs, name), 0o755);
  };
  script(
    'npx',
    `#!/bin/sh\n[ "$1" = --yes ] && shift\n[ "$1" = blogctl ] || { echo "npx stand-in: only blogctl" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${BIN}" "$@"\n`,
  );
  script('blogctl', `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  script('gh', `#!/bin/sh\nexec "${process.execPath}" "${join(stubs, 'gh.cjs')}" "$@"\n`);
  writeFileSync(
    join(stubs, 'gh.cjs'),
    `// gh api, as the workflow calls it: a pull request's comments in $GH_STATE.
const fs = require('node:fs');
const args = process.argv.slice(2);
const state = process.env.GH_STATE;
if (args[0] !== 'api' || !state || !process.env.GH_TOKEN) { console.error('gh stand-in: unexpected call'); process.exit(2); }
const comments = fs.existsSync(state) ? JSON.parse(fs.readFileSync(state, 'utf8')) : [];
const at = (flag) => { const i = args.indexOf(flag); return i < 0 ? undefined : args[i + 1]; };
const method = at('--method') ?? 'GET';
const path = args.slice(1).find((a, i, all) => !a.startsWith('-') && !['--method', '-F', '--jq'].includes(all[i - 1]));
const field = at('-F');
const body = field && field.startsWith('body=@') ? fs.readFileSync(field.slice(6), 'utf8') : undefined;
fs.appendFileSync(state + '.log', JSON.stringify({ method, path }) + '\\n');
const repo = process.env.GITHUB_REPOSITORY;
if (method === 'GET' && path === 'repos/' + repo + '/issues/7/comments') {
  const jq = at('--jq');
  if (jq !== '.[] | select(.body | startswith("<!-- blogctl plan -->")) | .id') { console.error('gh stand-in: unexpected jq'); process.exit(2); }
  for (const c of comments) if (c.body.startsWith('<!-- blogctl plan -->')) console.log(c.id);
} else if (method === 'POST' && path === 'repos/' + repo + '/issues/7/comments' && body !== undefined) {
  comments.push({ id: 1000 + comments.length, body });
} else if (method === 'PATCH' && /^repos\\/[^/]+\\/[^/]+\\/issues\\/comments\\/\\d+$/.test(path) && body !== undefined) {
  const c = comments.find((c) => String(c.id) === path.split('/').pop());
  if (!c) { console.error('gh: HTTP 404'); process.exit(1); }
  c.body = body;
} else { console.error('gh stand-in: unexpected ' + method + ' ' + path); process.exit(2); }
fs.writeFileSync(state, JSON.stringify(comments));
`,
  );
});
afterAll(async () => {
  await Promise.all([sandbox?.close(), wp?.close()]);
});

interface Step {
  name?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
}

/** A repository checked out: blogctl.yml with the site by URL and username, and two posts. */
function checkout(): string {
  const repo = mkdtempSync(join(work, 'repo-'));
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, 'posts'));
  writeFileSync(
    join(repo, 'blogctl.yml'),
    `site:\n  url: ${wp.url}\n  username: ${wp.username}\nnamespace: ci-${repo.slice(-6).toLowerCase()}\nsources: [posts]\n`,
  );
  writeFileSync(join(repo, 'posts', 'hello.md'), '---\nstatus: publish\n---\n# Hello\n\nFirst post.\n');
  writeFileSync(join(repo, 'posts', 'second.md'), '---\nstatus: publish\n---\n# Second\n\nAnother.\n');
  return repo;
}

/** What `${{ … }}` in a step's env stands for in these runs. */
function expressions(): Record<string, string> {
  return {
    'secrets.BLOGCTL_API_KEY': sandbox.apiKey,
    'secrets.BLOGCTL_WP_PASSWORD': wp.password,
    'github.token': 'ghs_stand-in-token',
    'github.event.pull_request.number': '7',
  };
}

function stepEnv(env: Record<string, string> | undefined): Record<string, string> {
  const known = expressions();
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env ?? {})) {
    out[k] = String(v).replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      if (!(expr in known)) throw new Error(`step env ${k}: no value for \${{ ${expr} }}`);
      return known[expr]!;
    });
  }
  return out;
}

interface JobRun {
  /** Each run step's exit code, in order (undefined: skipped after a failure). */
  codes: (number | undefined)[];
  stderr: string;
}

/** A job's `run:` steps as the runner runs them: bash -eo pipefail, in the checkout, later steps skipped after a failure unless `if: always()`. */
async function runJob(job: string, repo: string, runner: Record<string, string>): Promise<JobRun> {
  const workflow = yaml('examples/github-actions/blogctl.yml') as {
    jobs: Record<string, { steps: Step[] }>;
  };
  const codes: (number | undefined)[] = [];
  let stderr = '';
  let failed = false;
  for (const step of workflow.jobs[job]!.steps) {
    if (step.run === undefined) continue;
    if (failed && !/always\(\)/.test(step.if ?? '')) {
      codes.push(undefined);
      continue;
    }
    const res = await spawnAsync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], {
      cwd: repo,
      env: cliEnv({ ...runner, ...stepEnv(step.env) }),
    });
    stderr += res.stderr;
    codes.push(res.status ?? -1);
    if (res.status !== 0) failed = true;
  }
  return { codes, stderr };
}

/** The variables a GitHub-hosted runner sets, with the files it reads back. */
function githubEnv(repo: string, event: 'pull_request' | 'push'): Record<string, string> {
  const files = mkdtempSync(join(work, 'runner-'));
  return {
    PATH: `${stubs}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    HOME: files,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event,
    GITHUB_REPOSITORY: 'octo/blog',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_WORKSPACE: repo,
    GITHUB_STEP_SUMMARY: join(files, 'summary.md'),
    GITHUB_OUTPUT: join(files, 'output'),
    RUNNER_TEMP: files,
    GH_STATE: join(repo, '..', `${repo.split('/').pop()!}-comments.json`),
    // A fresh runner: nothing stored; the service is the sandbox.
    BLOGCTL_CONFIG_DIR: join(files, 'config'),
    BLOGCTL_BASE_URL: sandbox.url,
  };
}

const comments = (runner: Record<string, string>): { id: number; body: string }[] =>
  JSON.parse(readFileSync(runner['GH_STATE']!, 'utf8')) as { id: number; body: string }[];

describe('examples/github-actions/blogctl.yml', () => {
  it('has a concurrency group, secrets from the repository, npx blogctl', () => {
    const workflow = yaml('examples/github-actions/blogctl.yml') as Record<string, unknown>;
    expect(workflow['concurrency']).toMatchObject({ group: expect.any(String), 'cancel-in-progress': false });
    const text = readFileSync(join(ROOT, 'examples/github-actions/blogctl.yml'), 'utf8');
    expect(text).toContain('${{ secrets.BLOGCTL_WP_PASSWORD }}');
    expect(text).toMatch(/npx --yes blogctl wp publish/);
  });

  it('plans in the pull request as one comment updated in place, then publishes on main', async () => {
    const repo = checkout();
    const pr = githubEnv(repo, 'pull_request');
    const plan = await runJob('plan', repo, pr);
    expect(plan.codes, plan.stderr).toEqual([0, 0]);
    expect(comments(pr)).toHaveLength(1);
    expect(comments(pr)[0]!.body).toMatch(/^<!-- blogctl plan -->\n### blogctl plan for .*: 2 create\n/);
    expect(comments(pr)[0]!.body).toContain(
      '| [posts/hello.md](https://github.com/octo/blog/blob/0123456789abcdef0123456789abcdef01234567/posts/hello.md) |',
    );
    expect(readFileSync(pr['GITHUB_STEP_SUMMARY']!, 'utf8')).toMatch(/^### blogctl plan for .*: 2 create\n/);
    expect(wp.posts.filter((p) => p.title === 'Hello')).toHaveLength(0);

    // Another push to the pull request: the same comment, updated.
    writeFileSync(join(repo, 'posts', 'third.md'), '---\nstatus: publish\n---\n# Third\n\nMore.\n');
    const again = await runJob('plan', repo, pr);
    expect(again.codes, again.stderr).toEqual([0, 0]);
    expect(comments(pr)).toHaveLength(1);
    expect(comments(pr)[0]!.body).toMatch(/: 3 create\n/);
    const calls = readFileSync(`${pr['GH_STATE']!}.log`, 'utf8');
    expect(calls.match(/"PATCH"/g)).toHaveLength(1);

    // Merged: the publish job on main.
    const main = githubEnv(repo, 'push');
    const publish = await runJob('publish', repo, main);
    expect(publish.codes, publish.stderr).toEqual([0]);
    expect(wp.posts.filter((p) => ['Hello', 'Second', 'Third'].includes(p.title))).toHaveLength(3);
    expect(readFileSync(main['GITHUB_STEP_SUMMARY']!, 'utf8')).toMatch(
      /### blogctl publish for .*: 3 created/,
    );

    // The next pull request's plan: in step.
    const after = await runJob('plan', repo, pr);
    expect(after.codes, after.stderr).toEqual([0, 0]);
    expect(comments(pr)[0]!.body).toMatch(/: 3 unchanged\n/);
  });

  it('a bad front matter fails the plan, is annotated on its line, and the comment says why', async () => {
    const repo = checkout();
    writeFileSync(join(repo, 'posts', 'bad.md'), '---\ntitle: Bad\nstatus: publsh\n---\nBody\n');
    const pr = githubEnv(repo, 'pull_request');
    const plan = await runJob('plan', repo, pr);
    expect(plan.codes).toEqual([2, 0]);
    expect(plan.stderr).toMatch(
      /^::error file=posts\/bad\.md,line=3,title=blogctl::.*posts\/bad\.md:3: status: /m,
    );
    expect(plan.stderr).not.toContain(wp.password);
    expect(comments(pr)[0]!.body).toMatch(
      /### blogctl plan: 1 error\n\n#### Errors\n\n- posts\/bad\.md:3: status: /,
    );
  });
});

describe('examples/gitlab-ci/.gitlab-ci.yml', () => {
  it('the merge request job leaves the plan in plan.md; the default branch job publishes', async () => {
    const pipeline = yaml('examples/gitlab-ci/.gitlab-ci.yml') as Record<
      string,
      { script: string[]; resource_group?: string }
    >;
    expect(pipeline['blogctl-publish']!.resource_group).toBe('blogctl');
    const repo = checkout();
    const files = mkdtempSync(join(work, 'gitlab-'));
    const env = cliEnv({
      PATH: `${stubs}:${process.env['PATH'] ?? '/usr/bin:/bin'}`,
      HOME: files,
      CI: 'true',
      GITLAB_CI: 'true',
      BLOGCTL_API_KEY: sandbox.apiKey,
      BLOGCTL_WP_PASSWORD: wp.password,
      BLOGCTL_CONFIG_DIR: join(files, 'config'),
      BLOGCTL_BASE_URL: sandbox.url,
    });
    const run = async (job: string): Promise<void> => {
      for (const line of pipeline[job]!.script) {
        const res = await spawnAsync('bash', ['-eo', 'pipefail', '-c', line], { cwd: repo, env });
        expect(res.status, res.stderr).toBe(0);
      }
    };
    await run('blogctl-plan');
    expect(readFileSync(join(repo, 'plan.md'), 'utf8')).toMatch(/^### blogctl plan for .*: 2 create\n/);
    await run('blogctl-publish');
    await run('blogctl-plan');
    expect(readFileSync(join(repo, 'plan.md'), 'utf8')).toMatch(/: 2 unchanged\n/);
  });
});

describe('examples/cron/crontab', () => {
  it('runs as cron runs it: `\\%` unescaped, /bin/sh, the crontab PATH; a re-run the same week generates nothing', async () => {
    const lines = readFileSync(join(ROOT, 'examples/cron/crontab'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() && !l.trim().startsWith('#'));
    const vars = Object.fromEntries(
      lines
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    const job = lines.find((l) => !/^[A-Z_]+=/.test(l))!;
    const fields = job.split(/\s+/);
    expect(fields.slice(0, 5)).toEqual(['0', '7', '*', '*', '1']);
    const raw = job.replace(/^(\S+\s+){5}/, '');
    // cron: an unescaped % ends the command (the rest is stdin); `\%` is a literal %.
    expect(raw.replace(/\\%/g, '')).not.toContain('%');
    const command = raw.replace(/\\%/g, '%');

    const home = mkdtempSync(join(work, 'cron-'));
    mkdirSync(join(home, 'blog'));
    // `npm install --global` puts blogctl in /usr/local/bin; here the stand-in directory takes its place.
    const path = vars['PATH']!.replace('/usr/local/bin', stubs);
    // Only HOME decides the config dir, as under cron.
    const setupEnv = cliEnv({ HOME: home, PATH: path, XDG_CONFIG_HOME: undefined });
    const setup = async (args: string[], input?: string): Promise<void> => {
      const res = await spawnAsync(process.execPath, [BIN, ...args], {
        env: setupEnv,
        ...(input !== undefined && { input }),
      });
      expect(res.status, res.stderr).toBe(0);
    };
    await setup(['config', 'set', 'base-url', sandbox.url]);
    // The generation parameters, as `blog create --dry-run` prints the body it would send.
    const params = await spawnAsync(
      process.execPath,
      [BIN, 'blog', 'create', ...createFlags('cron brew'), '--dry-run'],
      { env: { ...setupEnv, BLOGCTL_API_KEY: sandbox.apiKey } },
    );
    expect(params.status, params.stderr).toBe(0);
    writeFileSync(join(home, 'blog', 'params.json'), params.stdout);
    await setup(['auth', 'login', '--with-key'], `${sandbox.apiKey}\n`);
    await setup(
      ['wp', 'sites', 'add', 'myblog', '--url', wp.url, '--username', wp.username, '--password-stdin'],
      `${wp.password}\n`,
    );

    const cronEnv = { SHELL: vars['SHELL']!, PATH: path, HOME: home, LOGNAME: 'blog' };
    const before = wp.posts.length;
    for (let run = 0; run < 2; run++) {
      const res = await spawnAsync(vars['SHELL']!, ['-c', command], { env: cronEnv });
      expect(res.status, readFileSync(join(home, 'blogctl-cron.log'), 'utf8')).toBe(0);
    }
    expect(wp.posts.length).toBe(before + 1);
    expect(readFileSync(join(home, 'blogctl-cron.log'), 'utf8')).not.toContain(wp.password);
  });
});
