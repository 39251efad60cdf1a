// The CI recipes in examples/ as written, each in a clean folder with the packed tarball: the GitHub Actions
// workflow's and the GitLab CI jobs' shell steps, read from their YAML, run with bash in a real git checkout
// with the environment the runner gives them (GITHUB_* variables, the step's `env:` with the secrets and
// variables it names); and the crontab line run as cron runs it (`\%` unescaped, /bin/sh, the crontab's own
// PATH and nothing else).
//
// Nothing of a step is replaced. Its install step installs what `npm pack` made, through the variable a user
// sets to install another build (BLOGCTL_TARBALL_URL), into the fresh runner's npm prefix (npm's own
// settings, as setup-node gives a runner its own), with no network (npm_config_offline: the tarball has no
// dependencies; the optional OS keyring is not needed in CI). The project is made as docs/ci.md says
// (`blogctl wp init --site <url> --username <user>` at the repository's root), not written by the test. The
// one stand-in is `gh` on PATH: it keeps a pull request's comments in a file, for `gh api` as the workflow
// calls it.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliEnv, createFlags } from '../helpers/cli.js';
import { startFakeWordPress, type FakeWordPress } from '../helpers/fake-wordpress.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ROOT = resolve(import.meta.dirname, '../..');
const WORKFLOW = 'examples/github-actions/blog.yml';
const PIPELINE = 'examples/gitlab-ci/.gitlab-ci.yml';
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
    // A step that never reads its stdin may have ended before it is closed.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

let sandbox: TestSandbox;
let wp: FakeWordPress;
let work: string;
let stubs: string;
/** `file:` URL of the tarball `npm pack` made of this checkout. */
let tarballUrl: string;
beforeAll(async () => {
  [sandbox, wp] = await Promise.all([startTestSandbox(), startFakeWordPress()]);
  work = realpathSync(mkdtempSync(join(tmpdir(), 'blogctl-ci-')));
  // --ignore-scripts: dist/ is built already (vitest's global setup); prepack would rebuild it under the
  // other process tests.
  const packed = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: ROOT,
    encoding: 'utf8',
    env: npmEnv(join(work, 'pack')),
  });
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${packed.stderr}`);
  tarballUrl = pathToFileURL(
    join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename),
  ).href;
  stubs = join(work, 'bin');
  mkdirSync(stubs);
  const script = (name: string, text: string): void => {
    writeFileSync(join(stubs, name), text);
    chmodSync(join(stubs, name), 0o755);
  };
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
}, 120_000);
afterAll(async () => {
  await Promise.all([sandbox?.close(), wp?.close()]);
});

interface Step {
  name?: string;
  if?: string;
  run?: string;
  env?: Record<string, string>;
}

/** npm's settings of a fresh machine whose global prefix is `root`/prefix: no registry, no notices. */
function npmEnv(root: string): Record<string, string> {
  return {
    npm_config_prefix: join(root, 'prefix'),
    npm_config_cache: join(root, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
}

/** The system PATH, with `first` in front (the runner's npm prefix, the `gh` stand-in). */
const pathWith = (...first: string[]): string =>
  [...first, process.env['PATH'] ?? '/usr/bin:/bin'].join(delimiter);

const git = (repo: string, ...args: string[]): string => {
  const res = spawnSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Ed',
      GIT_AUTHOR_EMAIL: 'ed@example.test',
      GIT_COMMITTER_NAME: 'Ed',
      GIT_COMMITTER_EMAIL: 'ed@example.test',
    },
  });
  if (res.status !== 0) throw new Error(`git ${args.join(' ')}: ${res.stderr}`);
  return res.stdout;
};

/**
 * A repository as docs/ci.md makes one: two posts in posts/, then `blogctl wp init --site <url> --username
 * <user>` at its root (blogctl.yml names the site by URL and username), committed.
 */
async function checkout(): Promise<string> {
  const repo = mkdtempSync(join(work, 'repo-'));
  git(repo, 'init', '-q', '-b', 'main');
  mkdirSync(join(repo, 'posts'));
  writeFileSync(join(repo, 'posts', 'hello.md'), '---\nstatus: publish\n---\n# Hello\n\nFirst post.\n');
  writeFileSync(join(repo, 'posts', 'second.md'), '---\nstatus: publish\n---\n# Second\n\nAnother.\n');
  const init = await spawnAsync(
    process.execPath,
    [
      BIN,
      'wp',
      'init',
      '--site',
      wp.url,
      '--username',
      wp.username,
      '--namespace',
      `ci-${repo.slice(-6).toLowerCase()}`,
    ],
    { cwd: repo, env: cliEnv({ BLOGCTL_CONFIG_DIR: join(repo, '..', `${repo.split('/').pop()!}-config`) }) },
  );
  expect(init.status, init.stderr).toBe(0);
  commit(repo, 'Posts');
  return repo;
}

function commit(repo: string, message: string): void {
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

/** What the checkout holds that git does not: what a run wrote into it. */
const written = (repo: string): string => git(repo, 'status', '--porcelain', '--untracked-files=all');

/** What `${{ … }}` in a step's env stands for in these runs (unset repository variables are empty). */
function expressions(): Record<string, string> {
  return {
    'secrets.BLOGCTL_BASE_URL': sandbox.url,
    'secrets.BLOGCTL_API_KEY': sandbox.apiKey,
    'secrets.BLOGCTL_WP_PASSWORD': wp.password,
    'vars.BLOGCTL_TARBALL_URL': tarballUrl,
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
  const workflow = yaml(WORKFLOW) as { jobs: Record<string, { steps: Step[] }> };
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

/** The variables a fresh GitHub-hosted runner sets, with the files it reads back; no blogctl installed yet. */
function githubEnv(repo: string, event: 'pull_request' | 'push'): Record<string, string> {
  const files = mkdtempSync(join(work, 'runner-'));
  return {
    ...npmEnv(files),
    PATH: pathWith(join(files, 'prefix', 'bin'), stubs),
    HOME: files,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: event,
    GITHUB_REPOSITORY: 'octo/blog',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_SHA: git(repo, 'rev-parse', 'HEAD').trim(),
    GITHUB_WORKSPACE: repo,
    GITHUB_STEP_SUMMARY: join(files, 'summary.md'),
    GITHUB_OUTPUT: join(files, 'output'),
    RUNNER_TEMP: files,
    GH_STATE: join(repo, '..', `${repo.split('/').pop()!}-comments.json`),
  };
}

const comments = (runner: Record<string, string>): { id: number; body: string }[] =>
  JSON.parse(readFileSync(runner['GH_STATE']!, 'utf8')) as { id: number; body: string }[];

describe('examples/github-actions/blog.yml', () => {
  it('installs a pinned release, fetches the whole history, is not named like the project file', () => {
    const workflow = yaml(WORKFLOW) as {
      concurrency: unknown;
      jobs: Record<string, { steps: (Step & { uses?: string; with?: Record<string, unknown> })[] }>;
    };
    expect(workflow.concurrency).toMatchObject({ group: expect.any(String), 'cancel-in-progress': false });
    expect(WORKFLOW).not.toMatch(/blogctl\.ya?ml$/);
    for (const job of Object.values(workflow.jobs)) {
      const checkoutStep = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
      expect(checkoutStep?.with?.['fetch-depth']).toBe(0);
    }
    const text = readFileSync(join(ROOT, WORKFLOW), 'utf8');
    // The tarball the user pinned, never a name a registry may not hold, nor an address of the recipe's own
    // (either could be registered by someone else): without the variable the step stops, saying why.
    expect(text).not.toMatch(/npx|npm (i|install)( -g| --global)? blogctl\b/);
    expect(text).not.toMatch(/https?:\/\/\S+\.tgz/);
    const install = /npm install --global [^\n]*"(\$\{BLOGCTL_TARBALL_URL:\?[^}]*\})"/.exec(text);
    expect(install).not.toBeNull();
    const unset = spawnSync('bash', ['-c', `echo ${install![1]}`], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] },
    });
    expect(unset.status).not.toBe(0);
    expect(unset.stderr).toContain('set BLOGCTL_TARBALL_URL to your pinned blogctl tarball, see docs/ci.md');
    for (const secret of ['BLOGCTL_BASE_URL', 'BLOGCTL_API_KEY', 'BLOGCTL_WP_PASSWORD'])
      expect(text).toContain(`\${{ secrets.${secret} }}`);
  });

  it('plans in the pull request as one comment updated in place, then publishes on main, writing nothing into the checkout', async () => {
    const repo = await checkout();
    const pr = githubEnv(repo, 'pull_request');
    const plan = await runJob('plan', repo, pr);
    expect(plan.codes, plan.stderr).toEqual([0, 0, 0]);
    expect(comments(pr)).toHaveLength(1);
    expect(comments(pr)[0]!.body).toMatch(/^<!-- blogctl plan -->\n### blogctl plan for .*: 2 create\n/);
    expect(comments(pr)[0]!.body).toContain(
      `| [posts/hello.md](https://github.com/octo/blog/blob/${pr['GITHUB_SHA']!}/posts/hello.md) |`,
    );
    expect(readFileSync(pr['GITHUB_STEP_SUMMARY']!, 'utf8')).toMatch(/^### blogctl plan for .*: 2 create\n/);
    expect(wp.posts.filter((p) => p.title === 'Hello')).toHaveLength(0);
    expect(written(repo)).toBe('');

    // Another push to the pull request: the same comment, updated.
    writeFileSync(join(repo, 'posts', 'third.md'), '---\nstatus: publish\n---\n# Third\n\nMore.\n');
    commit(repo, 'Third');
    const again = await runJob('plan', repo, githubEnv(repo, 'pull_request'));
    expect(again.codes, again.stderr).toEqual([0, 0, 0]);
    expect(comments(pr)).toHaveLength(1);
    expect(comments(pr)[0]!.body).toMatch(/: 3 create\n/);
    const calls = readFileSync(`${pr['GH_STATE']!}.log`, 'utf8');
    expect(calls.match(/"PATCH"/g)).toHaveLength(1);

    // Merged: the publish job on main, on a fresh runner.
    const main = githubEnv(repo, 'push');
    const publish = await runJob('publish', repo, main);
    expect(publish.codes, publish.stderr).toEqual([0, 0]);
    expect(wp.posts.filter((p) => ['Hello', 'Second', 'Third'].includes(p.title))).toHaveLength(3);
    expect(readFileSync(main['GITHUB_STEP_SUMMARY']!, 'utf8')).toMatch(
      /### blogctl publish for .*: 3 created/,
    );
    expect(written(repo)).toBe('');

    // An editor fixes a title on the site; the next merge publishes another post and the job still succeeds.
    wp.posts.find((p) => p.title === 'Second')!.title = 'Second (edited)';
    writeFileSync(join(repo, 'posts', 'fourth.md'), '---\nstatus: publish\n---\n# Fourth\n\nLast.\n');
    commit(repo, 'Fourth');
    const later = await runJob('publish', repo, githubEnv(repo, 'push'));
    expect(later.codes, later.stderr).toEqual([0, 0]);
    expect(later.stderr).toMatch(/edited on the site \(title\): kept as the editor left it/);
    expect(wp.posts.filter((p) => p.title === 'Fourth')).toHaveLength(1);

    // The next pull request's plan: in step, but for the editor's change, which it shows (exit 8: fine).
    const after = await runJob('plan', repo, githubEnv(repo, 'pull_request'));
    expect(after.codes, after.stderr).toEqual([0, 0, 0]);
    expect(comments(pr)[0]!.body).toMatch(/: 4 unchanged\n/);
    expect(written(repo)).toBe('');
  }, 240_000);

  it('a bad front matter fails the plan, is annotated on its line, and the comment says why', async () => {
    const repo = await checkout();
    writeFileSync(join(repo, 'posts', 'bad.md'), '---\ntitle: Bad\nstatus: publsh\n---\nBody\n');
    commit(repo, 'Bad');
    const pr = githubEnv(repo, 'pull_request');
    const plan = await runJob('plan', repo, pr);
    expect(plan.codes).toEqual([0, 2, 0]);
    expect(plan.stderr).toMatch(
      /^::error file=posts\/bad\.md,line=3,title=blogctl::.*posts\/bad\.md:3: status: /m,
    );
    expect(plan.stderr).not.toContain(wp.password);
    expect(comments(pr)[0]!.body).toMatch(
      /### blogctl plan: 1 error\n\n#### Errors\n\n- posts\/bad\.md:3: status: /,
    );
  }, 120_000);
});

describe('examples/gitlab-ci/.gitlab-ci.yml', () => {
  it('the merge request job keeps the plan as an artifact; the default branch job publishes', async () => {
    const pipeline = yaml(PIPELINE) as Record<string, Record<string, unknown>> & {
      variables: Record<string, unknown>;
    };
    expect(pipeline['blogctl-publish']!['resource_group']).toBe('blogctl');
    expect(pipeline.variables['GIT_DEPTH']).toBe(0);
    const repo = await checkout();
    const variables = {
      BLOGCTL_BASE_URL: sandbox.url,
      BLOGCTL_API_KEY: sandbox.apiKey,
      BLOGCTL_WP_PASSWORD: wp.password,
      BLOGCTL_TARBALL_URL: tarballUrl,
    };
    /** A job on a fresh runner: the template's before_script, then its script, each line with bash -eo pipefail. */
    const run = async (job: string): Promise<void> => {
      const files = mkdtempSync(join(work, 'gitlab-'));
      const env = cliEnv({
        ...npmEnv(files),
        PATH: pathWith(join(files, 'prefix', 'bin')),
        HOME: files,
        CI: 'true',
        GITLAB_CI: 'true',
        CI_PROJECT_DIR: repo,
        ...variables,
      });
      const template = pipeline[String(pipeline[job]!['extends'])]!;
      for (const line of [
        ...(template['before_script'] as string[]),
        ...(pipeline[job]!['script'] as string[]),
      ]) {
        const res = await spawnAsync('bash', ['-eo', 'pipefail', '-c', line], { cwd: repo, env });
        expect(res.status, `${line}\n${res.stderr}`).toBe(0);
      }
    };
    const artifact = (): string => {
      const paths = (pipeline['blogctl-plan']!['artifacts'] as { paths: string[] }).paths;
      return readFileSync(join(repo, paths[0]!), 'utf8');
    };
    await run('blogctl-plan');
    expect(artifact()).toMatch(/^### blogctl plan for .*: 2 create\n/);
    await run('blogctl-publish');
    await run('blogctl-plan');
    expect(artifact()).toMatch(/: 2 unchanged\n/);
    // The artifact's folder is the only thing written, and no project reads it (a dot-folder).
    expect(written(repo)).toBe('?? .blogctl-plan/plan.md\n');
  }, 120_000);
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
    // Installed as the crontab's comment says, into the prefix its PATH names (here a folder of the test's).
    const prefix = join(home, 'usr-local');
    const header = readFileSync(join(ROOT, 'examples/cron/crontab'), 'utf8');
    const install = /^# +(npm install --global [^\n]+)$/m.exec(header)?.[1];
    expect(install, 'the crontab says how blogctl is installed').toBeDefined();
    const installed = await spawnAsync('bash', ['-eo', 'pipefail', '-c', install!], {
      env: cliEnv({
        ...npmEnv(home),
        npm_config_prefix: prefix,
        PATH: pathWith(),
        BLOGCTL_TARBALL_URL: tarballUrl,
        HOME: home,
      }),
    });
    expect(installed.status, installed.stderr).toBe(0);
    const path = vars['PATH']!.replace('/usr/local/bin', join(prefix, 'bin'));
    // Only HOME decides the config dir, as under cron.
    const setupEnv = cliEnv({ HOME: home, PATH: path, XDG_CONFIG_HOME: undefined });
    const setup = async (args: string[], input?: string): Promise<void> => {
      const res = await spawnAsync(join(prefix, 'bin', 'blogctl'), args, {
        env: setupEnv,
        ...(input !== undefined && { input }),
      });
      expect(res.status, res.stderr).toBe(0);
    };
    await setup(['config', 'set', 'base-url', sandbox.url]);
    // The generation parameters, as README shows: `blog create … --dry-run > params.json`.
    const params = await spawnAsync(
      join(prefix, 'bin', 'blogctl'),
      ['blog', 'create', ...createFlags('cron brew'), '--dry-run'],
      {
        env: { ...setupEnv, BLOGCTL_API_KEY: sandbox.apiKey },
      },
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
  }, 120_000);
});
