// Tab completion in real bash, zsh and fish, from the scripts `blogctl completion <shell>` prints, with site
// ids and profile names read from a real config dir through the hidden `blogctl __complete`.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { missingTools } from '../helpers/tools.js';
import {
  completeBash,
  completeFish,
  missingShells,
  TmuxServer,
  tmuxAvailable,
  ZshCompleter,
  type ShellName,
} from '../helpers/pty.js';

let dir: string;
let configDir: string;
let env: Record<string, string>;
let unavailable: Partial<Record<ShellName, string>> = {};
let noTmux: string | undefined;
const scripts = {} as Record<ShellName, string>;
const tmux = new TmuxServer();
let zsh: ZshCompleter | undefined;

interface Case {
  line: string;
  /** Exactly these words, in any order. */
  exactly?: string[];
  /** At least these. */
  includes?: string[];
  excludes?: string[];
}

const TOP_LEVEL = ['auth', 'config', 'blog', 'wp', 'completion', 'sandbox', 'help'];

const CASES: Case[] = [
  { line: 'blogctl ', includes: TOP_LEVEL, excludes: ['__complete'] },
  { line: 'blogctl wp pu', exactly: ['publish', 'pull'] },
  { line: 'blogctl wp sites ', includes: ['add', 'list', 'show', 'remove'] },
  { line: 'blogctl wp publish --sta', exactly: ['--status'] },
  { line: 'blogctl wp publish --status ', exactly: ['publish', 'draft', 'pending', 'private', 'future'] },
  { line: 'blogctl wp publish --status fu', exactly: ['future'] },
  { line: 'blogctl wp publish --title Hello --comment-status ', exactly: ['open', 'closed'] },
  { line: 'blogctl sandbox --publish-shape ', exactly: ['typed', 'alt'] },
  { line: 'blogctl blog create --length ', exactly: ['short', 'medium', 'long'] },
  // A global option after the subcommand, as commander accepts it.
  { line: 'blogctl blog list --js', exactly: ['--json'] },
  { line: 'blogctl completion ', exactly: ['bash', 'zsh', 'fish'] },
  // Dynamic values from the config dir.
  { line: 'blogctl wp publish --title Hello --site ', exactly: ['alpha', 'beta'] },
  { line: 'blogctl wp sites show ', exactly: ['alpha', 'beta'] },
  { line: 'blogctl wp sites remove b', exactly: ['beta'] },
  { line: 'blogctl --profile ', exactly: ['default', 'personal', 'work'] },
  { line: 'blogctl --profile work bl', exactly: ['blog'] },
  { line: 'blogctl auth switch ', exactly: ['default', 'personal', 'work'] },
  { line: 'blogctl auth ', includes: ['login', 'status', 'switch', 'token', 'logout'] },
  // Every option or argument that takes a site id offers them.
  { line: 'blogctl blog create -k espresso --publish ', exactly: ['alpha', 'beta'] },
  { line: 'blogctl wp settings update --site ', exactly: ['alpha', 'beta'] },
  { line: 'blogctl wp sites verify ', exactly: ['alpha', 'beta'] },
  { line: 'blogctl config set default-site ', exactly: ['alpha', 'beta'] },
  { line: 'blogctl config set ', includes: ['default-site', 'base-url'], excludes: ['alpha'] },
  { line: 'blogctl config set timeout ', exactly: [] },
  // A placeholder such as <name|id> describes the value; it is not a list of words to offer.
  { line: 'blogctl wp publish --tag ', exactly: [] },
  { line: 'blogctl wp publish --category ', exactly: [] },
  { line: 'blogctl blog create --tag ', exactly: [] },
  // File names only where the value is a file on this machine (the cwd holds cover.png and post.md).
  { line: 'blogctl wp publish --featured-image co', exactly: ['cover.png'] },
  { line: 'blogctl wp publish --template ', exactly: [] },
  { line: 'blogctl wp publish --site alpha po', exactly: ['post.md'] },
  // help: topics and commands, then the subcommands of the command typed so far.
  {
    line: 'blogctl help ',
    exactly: ['environment', 'exit-codes', ...TOP_LEVEL.filter((c) => c !== 'help')],
  },
  { line: 'blogctl help wp ', exactly: ['sites', 'settings', 'publish', 'init', 'pull', 'doctor'] },
  { line: 'blogctl help wp sites ', exactly: ['add', 'list', 'show', 'verify', 'set-password', 'remove'] },
  { line: 'blogctl help blog create ', exactly: [] },
  // --json: the fields of this command's output, after the option or after a comma.
  {
    line: 'blogctl wp sites list --json ',
    exactly: [
      ...['id', 'url', 'username', 'label', 'autoPublish', 'isIntegrated', 'isWebsiteValid', 'verifiedAt'],
      ...['password', 'default'],
    ],
  },
  { line: 'blogctl config get timeout --json k', exactly: ['key'] },
  { line: 'blogctl blog list --json t', exactly: ['title', 'targetAudience', 'toneStyle', 'topicKeywords'] },
  { line: 'blogctl wp publish --site alpha --json lin', exactly: ['link'] },
  { line: 'blogctl auth status --json acc', exactly: ['accepted'] },
  // At the root the next word may be a command: `blogctl --json blog list`.
  { line: 'blogctl --json bl', exactly: ['blog'] },
  // blog list --sort: a field, "-" first for descending.
  { line: 'blogctl blog list --sort cr', exactly: ['createdAt'] },
  { line: 'blogctl blog list --sort ', includes: ['title', 'createdAt', '-createdAt', 'wordCount'] },
];

/** Lines a shell completes in its own way, checked on their own below. */
const SORT_DESCENDING = 'blogctl blog list --sort -cr';
const AFTER_COMMA = 'blogctl blog list --json id,t';

const work = (): string => join(dir, 'work');

function check(shell: ShellName, c: Case, got: string[]): void {
  const label = `${shell}: "${c.line}" offered [${got.join(' ')}]`;
  if (c.exactly) expect([...new Set(got)].sort(), label).toEqual([...c.exactly].sort());
  for (const word of c.includes ?? []) expect(got, label).toContain(word);
  for (const word of c.excludes ?? []) expect(got, label).not.toContain(word);
}

beforeAll(async () => {
  unavailable = missingShells();
  // bash's TAB in a terminal and every zsh case run in tmux.
  noTmux = missingTools('the completion tests in a terminal (bash TAB, all of zsh)', {
    tmux: tmuxAvailable(),
  }).tmux;
  if (noTmux) unavailable.zsh ??= noTmux;
  dir = mkdtempSync(join(tmpdir(), 'blogctl-completion-'));
  // `blogctl` on PATH, as after an install: the scripts call it back for site ids and profile names.
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'blogctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'blogctl'), 0o755);
  configDir = join(dir, 'config');
  mkdirSync(configDir);
  // The shells complete in `work`: file names there are the only ones a case can see.
  mkdirSync(join(dir, 'work'));
  for (const file of ['cover.png', 'post.md']) writeFileSync(join(dir, 'work', file), '');
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify({
      profiles: { work: { baseUrl: 'https://api.example.com' } },
      sites: {
        beta: { url: 'https://beta.example.com', username: 'editor' },
        alpha: { url: 'https://alpha.example.com', username: 'editor' },
      },
    }),
  );
  writeFileSync(
    join(configDir, 'credentials.json'),
    JSON.stringify({ apiKeys: { default: 'key-one', personal: 'key-two' } }),
  );
  env = {
    PATH: `${bin}${delimiter}${process.env['PATH'] ?? '/usr/bin:/bin'}`,
    HOME: dir,
    LANG: 'C.UTF-8',
    BLOGCTL_CONFIG_DIR: configDir,
  };
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const result = await runCli(['completion', shell]);
    expect(result.code, result.stderr).toBe(0);
    const file = shell === 'zsh' ? join(dir, 'zsh', '_blogctl') : join(dir, `blogctl.${shell}`);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, result.stdout);
    scripts[shell] = file;
  }
}, 300_000);

afterAll(() => {
  tmux.kill();
  // The shells tmux just ended may still be writing their history files.
  if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10 });
});

describe('blogctl completion', () => {
  it('prints a script for each shell, and refuses an unknown one with exit 2', async () => {
    for (const shell of ['bash', 'zsh', 'fish'])
      expect(readFileSync(scripts[shell as ShellName], 'utf8')).toContain('__complete');
    const bad = await runCli(['completion', 'powershell']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bash, zsh, fish/);
  });

  it('keeps the hidden __complete command out of --help and out of the offered words', async () => {
    const help = await runCli(['--help']);
    expect(help.stdout).toContain('completion');
    expect(help.stdout).not.toContain('__complete');
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      // Present only as the call-back, never as a word to offer.
      const text = readFileSync(scripts[shell], 'utf8');
      expect(text).not.toMatch(/'\|__complete'|-a '__complete'|'__complete:/);
    }
  });
});

describe('tools that are not installed', () => {
  it('skip their tests with a warning on a developer machine, and fail the run where .ci/run requires them', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(missingTools('the fish tests', { fish: false, zsh: true }, {})).toEqual({
        fish: 'fish is not installed',
      });
      expect(warn.mock.calls.join('')).toMatch(/the fish tests SKIPPED: fish not installed/);
      expect(missingTools('the fish tests', { fish: false }, { BLOGCTL_TEST_REQUIRE_TOOLS: '0' })).toEqual({
        fish: 'fish is not installed',
      });
      expect(() =>
        missingTools('the fish tests', { fish: false }, { BLOGCTL_TEST_REQUIRE_TOOLS: '1' }),
      ).toThrow(/BLOGCTL_TEST_REQUIRE_TOOLS is set, so the fish tests must run, but fish is not installed/);
      expect(missingTools('the fish tests', { fish: true }, { BLOGCTL_TEST_REQUIRE_TOOLS: '1' })).toEqual({});
    } finally {
      warn.mockRestore();
    }
  });
});

describe('blogctl __complete', () => {
  it('prints site ids and profile names from the config dir, one per line', async () => {
    const sites = await runCli(['__complete', 'sites'], { env: { BLOGCTL_CONFIG_DIR: configDir } });
    expect(sites).toMatchObject({ code: 0, stdout: 'alpha\nbeta\n', stderr: '' });
    const profiles = await runCli(['__complete', 'profiles'], { env: { BLOGCTL_CONFIG_DIR: configDir } });
    expect(profiles).toMatchObject({ code: 0, stdout: 'default\npersonal\nwork\n', stderr: '' });
    // Never a key: only the names.
    expect(profiles.stdout).not.toContain('key-');
  });

  it('prints nothing and succeeds on any failure', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'blogctl-completion-broken-'));
    writeFileSync(join(broken, 'config.json'), '{ not json');
    for (const args of [['sites'], ['profiles'], ['nonsense'], [], ['sites', 'extra', '--unknown-flag']]) {
      const result = await runCli(['__complete', ...args], { env: { BLOGCTL_CONFIG_DIR: broken } });
      expect(result, `__complete ${args.join(' ')}`).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    const empty = await runCli(['__complete', 'sites'], {
      env: { BLOGCTL_CONFIG_DIR: join(broken, 'missing') },
    });
    expect(empty).toMatchObject({ code: 0, stdout: '', stderr: '' });
    rmSync(broken, { recursive: true, force: true });
  });
});

describe('bash', () => {
  it.for(CASES)('completes "$line"', (c) => {
    check('bash', c, completeBash(scripts.bash, c.line, env, work()));
  });

  it('completes a value glued with "=" the way readline splits it', () => {
    // readline replaces only the text after '=': the offered words are the bare values.
    check(
      'bash',
      { line: '', exactly: ['pending', 'private', 'publish'] },
      completeBash(scripts.bash, 'blogctl wp publish --status=p', env),
    );
    check(
      'bash',
      { line: '', exactly: ['alpha', 'beta'] },
      completeBash(scripts.bash, 'blogctl wp publish --site=', env),
    );
    check(
      'bash',
      { line: '', exactly: ['id,title', 'id,targetAudience', 'id,toneStyle', 'id,topicKeywords'] },
      completeBash(scripts.bash, 'blogctl blog list --json=id,t', env),
    );
    check('bash', { line: '', exactly: ['-createdAt'] }, completeBash(scripts.bash, SORT_DESCENDING, env));
    // The word is replaced whole (',' is not a word break): the fields typed before the comma stay.
    check(
      'bash',
      { line: '', exactly: ['id,title', 'id,targetAudience', 'id,toneStyle', 'id,topicKeywords'] },
      completeBash(scripts.bash, AFTER_COMMA, env),
    );
    // A URL value (split at ':' by bash) still counts as one word, so the positional index is right.
    check(
      'bash',
      { line: '', exactly: ['alpha', 'beta'] },
      completeBash(scripts.bash, 'blogctl --base-url http://x.test wp sites show ', env),
    );
  });

  it('completes when a person presses TAB in a real terminal', async (ctx) => {
    ctx.skip(Boolean(noTmux), noTmux);
    const term = await tmux.open({ env });
    term.type(`source ${scripts.bash}`);
    term.press('Enter');
    // The prompt after `source` first: keys typed while it runs are echoed before that prompt, off its line.
    await term.waitFor(/blogctl\.bash\n\$\s*$/m);
    term.type('blogctl wp pub');
    term.press('Tab');
    // (capture-pane drops trailing blanks: the space TAB adds shows once more is typed.)
    await term.waitFor(/^\$ blogctl wp publish$/m);
    term.type('--status=dr');
    term.press('Tab');
    await term.waitFor(/^\$ blogctl wp publish --status=draft$/m);
    term.type('--site ');
    term.press('Tab', 'Tab');
    const screen = await term.waitFor(/^alpha\s+beta$/m);
    expect(screen).toMatch(/^\$ blogctl wp publish --status=draft --site$/m);
    console.log(`bash, TAB pressed in a terminal:\n${screen}`);
    term.close();
  });
});

describe('zsh', () => {
  beforeAll(async () => {
    if (!unavailable.zsh) zsh = await ZshCompleter.start(tmux, dir, env, work());
  }, 60_000);

  it.for(CASES)('completes "$line"', async (c, ctx) => {
    ctx.skip(Boolean(unavailable.zsh), unavailable.zsh);
    check('zsh', c, await zsh!.complete(c.line));
  });

  it('completes a value glued with "="', async (ctx) => {
    ctx.skip(Boolean(unavailable.zsh), unavailable.zsh);
    check(
      'zsh',
      { line: '', exactly: ['pending', 'private', 'publish'] },
      await zsh!.complete('blogctl wp publish --status=p'),
    );
    check('zsh', { line: '', exactly: ['alpha', 'beta'] }, await zsh!.complete('blogctl wp publish --site='));
    check(
      'zsh',
      { line: '', exactly: ['title', 'targetAudience', 'toneStyle', 'topicKeywords'] },
      await zsh!.complete('blogctl blog list --json=id,t'),
    );
    check('zsh', { line: '', exactly: ['-createdAt'] }, await zsh!.complete(SORT_DESCENDING));
    // compset keeps "id," as the prefix: the words offered are the fields after it.
    check(
      'zsh',
      { line: '', exactly: ['title', 'targetAudience', 'toneStyle', 'topicKeywords'] },
      await zsh!.complete(AFTER_COMMA),
    );
  });
});

describe('fish', () => {
  /** fish's candidates with their descriptions, `word\tdescription` as `complete -C` prints them. */
  const described = (line: string): string[] => {
    const result = spawnSync(
      'fish',
      ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', scripts.fish, line],
      {
        encoding: 'utf8',
        env,
        timeout: 20_000,
      },
    );
    expect(result.status, result.stderr).toBe(0);
    return result.stdout.split('\n').filter(Boolean);
  };

  it("offers site ids and field names bare, the option's description beside the option only", (ctx) => {
    ctx.skip(Boolean(unavailable.fish), unavailable.fish);
    expect(described('blogctl wp publish --title Hello --site ').sort()).toEqual(['alpha', 'beta']);
    expect(described('blogctl blog create -k espresso --publish ').sort()).toEqual(['alpha', 'beta']);
    expect(described('blogctl blog list --json wordC')).toEqual(['wordCount']);
    expect(described('blogctl wp publish --si')).toEqual([expect.stringMatching(/^--site\t\S/)]);
  });

  it.for(CASES)('completes "$line"', (c, ctx) => {
    ctx.skip(Boolean(unavailable.fish), unavailable.fish);
    check('fish', c, completeFish(scripts.fish, c.line, env, work()));
  });

  it('completes a value glued with "="', (ctx) => {
    ctx.skip(Boolean(unavailable.fish), unavailable.fish);
    const got = completeFish(scripts.fish, 'blogctl wp publish --status=p', env);
    check('fish', { line: '', exactly: ['--status=pending', '--status=private', '--status=publish'] }, got);
    check(
      'fish',
      {
        line: '',
        exactly: [
          '--json=id,title',
          '--json=id,targetAudience',
          '--json=id,toneStyle',
          '--json=id,topicKeywords',
        ],
      },
      completeFish(scripts.fish, 'blogctl blog list --json=id,t', env),
    );
    check(
      'fish',
      { line: '', exactly: ['id,title', 'id,targetAudience', 'id,toneStyle', 'id,topicKeywords'] },
      completeFish(scripts.fish, AFTER_COMMA, env),
    );
    // fish reads a word that starts with "-" as an option, even as an option's value: glued, it completes.
    check(
      'fish',
      { line: '', exactly: ['--sort=-createdAt'] },
      completeFish(scripts.fish, 'blogctl blog list --sort=-cr', env),
    );
  });
});
