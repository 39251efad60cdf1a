// Real terminals and real shells for process tests. Each Terminal is a tmux session (a real pseudo-terminal
// running a real shell) on a private tmux server, driven with send-keys and read with capture-pane, the way a
// person types and reads; everything waits by polling, never by sleeping a fixed time. The shell helpers
// below complete a command line in bash, zsh and fish the way each does when a person presses TAB.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canRun, missingTools } from './tools.js';
import { waitFor } from './wait.js';

const TMUX = ['/usr/bin/tmux', '/usr/local/bin/tmux'].find((p) => existsSync(p)) ?? 'tmux';

export function tmuxAvailable(): boolean {
  return spawnSync(TMUX, ['-V'], { encoding: 'utf8' }).status === 0;
}

export interface TerminalOptions {
  /** The whole environment of the shell (nothing else leaks in: the shell starts under `env -i`). */
  env: Record<string, string>;
  cwd?: string;
  cols?: number;
  rows?: number;
  /** The program to run; default an interactive bash without rc files and with a plain `$ ` prompt. */
  command?: string[];
}

/** One private tmux server (socket `blogctl-test-<pid>-<n>`) holding any number of terminals. */
export class TmuxServer {
  private static count = 0;
  readonly socket = `blogctl-test-${process.pid}-${TmuxServer.count++}`;
  private sessions = 0;

  tmux(args: string[]): string {
    // A TMUX variable from a developer's own tmux would point the client at the wrong server.
    const env = { ...process.env };
    delete env['TMUX'];
    return execFileSync(TMUX, ['-L', this.socket, ...args], { encoding: 'utf8', env });
  }

  async open(options: TerminalOptions): Promise<Terminal> {
    if (this.sessions === 0) {
      // tmux ends a server when its last session closes: a test closing its terminal as the next one opens
      // then met "server exited unexpectedly". This server lives until kill().
      this.tmux(['start-server', ';', 'set-option', '-s', 'exit-empty', 'off']);
    }
    const name = `t${this.sessions++}`;
    const envArgs = Object.entries(options.env).map(([k, v]) => `${k}=${v}`);
    const command = options.command ?? ['/bin/bash', '--noprofile', '--norc'];
    this.tmux([
      'new-session',
      '-d',
      '-s',
      name,
      '-x',
      String(options.cols ?? 100),
      '-y',
      String(options.rows ?? 30),
      ...(options.cwd ? ['-c', options.cwd] : []),
      '/usr/bin/env',
      '-i',
      'PS1=$ ',
      'TERM=xterm-256color',
      // No history file: a shell writing one as the server ends would race the test's clean-up.
      'HISTFILE=',
      ...envArgs,
      ...command,
    ]);
    const terminal = new Terminal(this, name);
    if (!options.command) await terminal.waitFor(/^\$ ?$/m);
    return terminal;
  }

  /** Ends every session of this server and the server itself (only ours: the socket is private). */
  kill(): void {
    try {
      this.tmux(['kill-server']);
    } catch {
      // Never started, or already gone (the server ends with its last session).
    }
    // tmux leaves its socket file behind: ${TMUX_TMPDIR:-/tmp}/tmux-<uid>/<name>.
    rmSync(join(process.env['TMUX_TMPDIR'] || '/tmp', `tmux-${process.getuid?.() ?? 0}`, this.socket), {
      force: true,
    });
  }
}

export class Terminal {
  private runs = 0;

  constructor(
    private readonly server: TmuxServer,
    readonly name: string,
  ) {}

  /** Types text literally (no key names interpreted). */
  type(text: string): void {
    this.server.tmux(['send-keys', '-t', this.name, '-l', '--', text]);
  }

  /** Presses keys by tmux name: Enter, Tab, Up, Down, C-c, C-u, … */
  press(...keys: string[]): void {
    this.server.tmux(['send-keys', '-t', this.name, ...keys]);
  }

  /**
   * The visible screen as text: wrapped lines joined, trailing blanks of each line and of the screen dropped.
   * With `escapes`, colours and attributes are kept as the SGR sequences tmux writes for them (`-e`).
   */
  screen(options: { escapes?: boolean } = {}): string {
    const text = this.server.tmux([
      'capture-pane',
      '-p',
      '-J',
      ...(options.escapes ? ['-e'] : []),
      '-t',
      this.name,
    ]);
    return `${text
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n')
      .trimEnd()}\n`;
  }

  /** Polls the screen until it matches; fails with the screen in the message. */
  async waitFor(pattern: RegExp | string, timeoutMs = 15_000): Promise<string> {
    return this.waitUntil(
      (screen) => (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)),
      String(pattern),
      timeoutMs,
    );
  }

  /** Waits until `check(screen)` is true; fails with the last screen in the message. */
  async waitUntil(check: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
    let screen = '';
    await waitFor(
      () => check((screen = this.screen())),
      () => `${what}; the screen:\n${screen}`,
      { timeoutMs, everyMs: 40 },
    );
    return screen;
  }

  /**
   * Runs a command line in the shell, followed by `echo "EXIT<n>:$?"` so its exit code can be read back
   * (numbered, so an earlier run's line on the same screen is never mistaken for this one's).
   */
  run(commandLine: string): void {
    this.runs += 1;
    this.type(`${commandLine}; echo "EXIT${this.runs}:$?"`);
    this.press('Enter');
  }

  /** Waits for the exit-code line of the latest run(). */
  async exitCode(timeoutMs = 20_000): Promise<number> {
    const line = new RegExp(`^EXIT${this.runs}:(\\d+)$`, 'm');
    const screen = await this.waitFor(line, timeoutMs);
    return Number(line.exec(screen)![1]);
  }

  close(): void {
    try {
      this.server.tmux(['kill-session', '-t', this.name]);
    } catch {
      // Already gone.
    }
  }
}

/** The escape character that starts every terminal control sequence. */
export const ESC = '\u001b';

/**
 * The SGR sequences of a screen captured with escapes that set a colour or an attribute (bold, dim, …);
 * plain resets (`ESC[0m`, `ESC[39m`, `ESC[49m`) set nothing.
 */
export function styleCodes(screen: string): string[] {
  return [...screen.matchAll(new RegExp(`${ESC}\\[([0-9;]*)m`, 'g'))]
    .filter((m) => m[1]!.split(';').some((p) => !['', '0', '39', '49'].includes(p)))
    .map((m) => m[0]);
}

/** Prints a screen framed, so the test output shows what a person saw. */
export function showScreen(title: string, screen: string): void {
  const lines = screen.replace(/\s+$/, '').split('\n');
  const width = Math.max(title.length + 4, ...lines.map((l) => l.length)) + 2;
  console.log(
    [
      `┌─ ${title} ${'─'.repeat(Math.max(0, width - title.length - 3))}┐`,
      ...lines.map((l) => `│ ${l.padEnd(width - 1)}│`),
      `└${'─'.repeat(width + 1)}┘`,
    ].join('\n'),
  );
}

// ---- Shells ----

export type ShellName = 'bash' | 'zsh' | 'fish';

/**
 * The shells that are not installed here, and why: their completion tests are skipped (announced on stderr),
 * or, with BLOGCTL_TEST_REQUIRE_TOOLS set (as `.ci/run` sets it), the run fails. Nothing is installed here.
 */
export function missingShells(env: NodeJS.ProcessEnv = process.env): Partial<Record<ShellName, string>> {
  const tools = Object.fromEntries(
    (['bash', 'zsh', 'fish'] as const).map((s) => [s, canRun(s, ['-c', 'exit 0'])]),
  );
  return missingTools('the completion tests of each shell', tools, env) as Partial<Record<ShellName, string>>;
}

/** The words bash hands a completion function: split at blanks, then at COMP_WORDBREAKS' '=' and ':'. */
export function bashWords(line: string): string[] {
  const words = line
    .trim()
    .split(/\s+/)
    .flatMap((w) => w.split(/([=:])/))
    .filter(Boolean);
  if (/\s$/.test(line)) words.push('');
  return words;
}

/**
 * bash: sources the script, sets COMP_LINE, COMP_POINT, COMP_WORDS and COMP_CWORD exactly as readline would,
 * calls the function `complete -p blogctl` names and prints COMPREPLY.
 */
export function completeBash(
  script: string,
  line: string,
  env: Record<string, string>,
  cwd?: string,
): string[] {
  const program = `
source "$1"; shift
COMP_LINE=$1; COMP_POINT=\${#1}; shift
COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 ))
fn=$(complete -p blogctl | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
COMPREPLY=()
"$fn" blogctl "\${COMP_WORDS[COMP_CWORD]}" "\${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync(
    'bash',
    ['--norc', '--noprofile', '-c', program, 'bash', script, line, ...bashWords(line)],
    { encoding: 'utf8', env, cwd, timeout: 20_000 },
  );
  if (result.status !== 0) throw new Error(`bash failed (${result.status}): ${result.stderr}`);
  return lines(result.stdout);
}

/** fish: its own completion engine, `complete -C`, on the line as typed; descriptions dropped. */
export function completeFish(
  script: string,
  line: string,
  env: Record<string, string>,
  cwd?: string,
): string[] {
  const result = spawnSync(
    'fish',
    ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', script, line],
    { encoding: 'utf8', env, cwd, timeout: 20_000 },
  );
  if (result.status !== 0) throw new Error(`fish failed (${result.status}): ${result.stderr}`);
  return lines(result.stdout).map((l) => l.split('\t')[0]!);
}

/**
 * zsh: an interactive zsh in a real terminal, with compinit and the script on $fpath. TAB is bound to a widget
 * that runs the normal completion with `compadd` wrapped to record what would be offered (the well-known
 * capture technique: calls with -O/-A/-D are compsys' own bookkeeping and pass through), then marks the end.
 */
export class ZshCompleter {
  private constructor(
    private readonly terminal: Terminal,
    private readonly capture: string,
  ) {}

  static async start(
    server: TmuxServer,
    dir: string,
    env: Record<string, string>,
    cwd?: string,
  ): Promise<ZshCompleter> {
    const zdotdir = join(dir, 'zdot');
    mkdirSync(zdotdir, { recursive: true });
    const capture = join(dir, 'zsh-capture.txt');
    writeFileSync(capture, '');
    writeFileSync(
      join(zdotdir, '.zshrc'),
      `fpath=(${JSON.stringify(join(dir, 'zsh'))} $fpath)
autoload -Uz compinit && compinit -u -D
PROMPT='%% '
compadd() {
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
    builtin compadd "$@"
    return $?
  fi
  local -a __hits
  builtin compadd -A __hits "$@"
  (( $#__hits )) && print -rl -- $__hits >> ${JSON.stringify(capture)}
  return 0
}
__capture_complete() {
  zle complete-word
  print -r -- '--END--' >> ${JSON.stringify(capture)}
}
zle -N __capture_complete
bindkey -e
bindkey '^I' __capture_complete
`,
    );
    const terminal = await server.open({
      env: { ...env, ZDOTDIR: zdotdir },
      command: ['zsh', '-i'],
      cols: 160,
      ...(cwd && { cwd }),
    });
    await terminal.waitFor(/^% ?$/m);
    return new ZshCompleter(terminal, capture);
  }

  async complete(line: string): Promise<string[]> {
    writeFileSync(this.capture, '');
    this.terminal.type(line);
    this.terminal.press('Tab');
    let text = '';
    await waitFor(
      () => (text = readFileSync(this.capture, 'utf8')).includes('--END--'),
      () => `zsh's completion of "${line}"; the screen:\n${this.terminal.screen()}`,
      { timeoutMs: 15_000, everyMs: 30 },
    );
    this.terminal.press('C-u');
    return lines(text.replace('--END--', ''));
  }
}

function lines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim() !== '');
}
