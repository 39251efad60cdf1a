// The man page, dist/blogctl.1 (scripts/man.mjs, run by the build): package.json names it, it documents every
// command and option of the tree with each command's --json fields, the exit codes and the environment, and
// roff reads it cleanly. That npm ships it and links it on `npm install -g`: test/process/pack.test.ts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { jsonFieldsByPath } from '../../src/commands/define.js';
import { ENVIRONMENT, EXIT_CODES } from '../../src/commands/help/topics.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PAGE = join(ROOT, 'dist', 'blogctl.1');
const page = readFileSync(PAGE, 'utf8');
const program = buildProgram({ deps: () => Promise.reject(new Error('no command runs')), stopOnSignal() {} });

/** Every visible command below `cmd` with its full name (commander's implicit `help` of a group left out). */
function commands(cmd: Command, prefix = 'blogctl'): [string, Command][] {
  return cmd.commands
    .filter((c) => !(c as Command & { _hidden?: boolean })._hidden)
    .flatMap((c) => [
      [`${prefix} ${c.name()}`, c] as [string, Command],
      ...commands(c, `${prefix} ${c.name()}`),
    ]);
}

/** The man page's text for a roff name: hyphens are written \-. */
const roff = (text: string): string => text.replace(/-/g, '\\-');

/** The section of the page about one command: from its heading to the next. */
function section(name: string): string {
  const start = page.indexOf(`.SS "${name}"\n`);
  expect(start, `no section for ${name}`).toBeGreaterThan(-1);
  const next = page.indexOf('\n.S', start + 1);
  return page.slice(start, next === -1 ? undefined : next);
}

describe('dist/blogctl.1', () => {
  it('is what package.json names for `man blogctl`', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man?: string[] };
    expect(pkg.man).toEqual(['./dist/blogctl.1']);
  });

  it('is a man page in section 1 with the usual sections, in order', () => {
    expect(page.split('\n')[0]).toMatch(/^\.TH BLOGCTL 1 /);
    const sections = [...page.matchAll(/^\.SH (.*)$/gm)].map((m) => m[1]);
    expect(sections).toEqual([
      'NAME',
      'SYNOPSIS',
      'DESCRIPTION',
      'OPTIONS',
      'COMMANDS',
      '"EXIT STATUS"',
      'ENVIRONMENT',
      'FILES',
      '"SEE ALSO"',
    ]);
    // Plain ASCII (anything else as \[uXXXX]), and no text line that roff would read as a request.
    expect(page).toMatch(/^[\t\n -~]*$/);
    for (const line of page.split('\n'))
      if (/^[.']/.test(line)) expect(line, line).toMatch(/^\.(TH|SH|SS|TP|PP|B|I|nf|fi)( |$)/);
  });

  it('lists the --json fields each command declares', async () => {
    const declared = await jsonFieldsByPath(program);
    expect(Object.keys(declared).length).toBeGreaterThan(20);
    for (const [path, fields] of Object.entries(declared))
      expect(section(`blogctl ${path}`), path).toContain(`\n.PP\nJSON fields: ${fields.join(', ')}.\n`);
    expect(section('blogctl completion')).not.toContain('JSON fields:');
  });

  it('documents every command with its options and examples', () => {
    const all = commands(program);
    expect(all.length).toBeGreaterThan(20);
    for (const [name, cmd] of all) {
      const text = section(name);
      for (const option of cmd.options.filter((o) => !o.hidden))
        expect(text, `${name} ${option.long}`).toContain(roff(option.long ?? option.short!));
      // The examples its --help shows.
      let help = '';
      cmd.configureOutput({ writeOut: (s) => (help += s), writeErr: () => {} });
      cmd.outputHelp();
      for (const example of help.split('\n').filter((l) => l.startsWith('  $ ')))
        expect(text, name).toContain(example.replace(/\\/g, '\\e'));
    }
    // The global options, once.
    for (const option of program.options)
      expect(page.split('.SH COMMANDS')[0], option.long).toContain(`.B ${roff(option.flags)}`);
  });

  it('lists every exit code and environment variable', () => {
    const exit = page.slice(page.indexOf('.SH "EXIT STATUS"'), page.indexOf('.SH ENVIRONMENT'));
    for (const [code, meaning] of EXIT_CODES)
      expect(exit).toMatch(new RegExp(`^\\.B ${code}\\n${meaning}`, 'm'));
    const environment = page.slice(page.indexOf('.SH ENVIRONMENT'), page.indexOf('.SH FILES'));
    for (const [name] of ENVIRONMENT) expect(environment).toContain(`.B ${roff(name)}\n`);
  });

  it('renders without a warning, every command in it (groff, where installed)', () => {
    const groff = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-P', '-cbou', PAGE], {
      encoding: 'utf8',
      env: { ...process.env, MANWIDTH: '80' },
    });
    if (groff.error) {
      // Not installed (CI installs only what its tests need): the structure above is what is checked.
      console.warn(`\n!!! groff is not installed: the man page was not rendered (${groff.error.message})\n`);
      return;
    }
    expect(groff.status, groff.stderr).toBe(0);
    expect(groff.stderr).toBe('');
    const text = groff.stdout;
    for (const [name] of commands(program)) expect(text).toContain(name);
  });
});
