// `blogctl [command...] --help` is printed two ways: by commander through run() (cli.ts), and from the pages
// taken when dist/ is built (helpTree(), dist/help.json) by printHelp (src/help-entry.ts), which bin/ uses so
// that asking for help does not load the parser. Both must print the same for every command at every width.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { helpTree, run, type HelpTree } from '../../src/cli.js';
import { helpPath, printHelp } from '../../src/help-entry.js';
import { IO } from '../../src/output/io.js';
import { cliEnv } from '../helpers/cli.js';
import { declaredFields } from '../helpers/command-tree.js';

/** A stdout that says it is a terminal `columns` wide (undefined: a pipe), and what was written to it. */
function terminal(columns?: number): PassThrough & { text: () => string } {
  const stream = Object.assign(new PassThrough(), columns ? { isTTY: true, columns } : {});
  let out = '';
  stream.setEncoding('utf8').on('data', (d: string) => (out += d));
  return Object.assign(stream, { text: () => out });
}

async function viaParser(args: string[], columns?: number): Promise<string> {
  const stdout = terminal(columns);
  const env = cliEnv();
  const io = new IO({ stdin: new PassThrough(), stdout, stderr: new PassThrough(), env });
  expect(await run(['node', 'blogctl', ...args], { env, io })).toBe(0);
  await new Promise((resolve) => setImmediate(resolve));
  return stdout.text();
}

async function viaPages(args: string[], tree: HelpTree, columns?: number): Promise<string> {
  const stdout = terminal(columns);
  const printed = printHelp(args, stdout, JSON.parse(JSON.stringify(tree)) as HelpTree);
  expect(printed, `printHelp(${args.join(' ')}) left it to the parser`).toBeDefined();
  expect(await printed).toBe(0);
  await new Promise((resolve) => setImmediate(resolve));
  return stdout.text();
}

function paths(tree: HelpTree, at: string[] = []): string[][] {
  return [at, ...Object.entries(tree.commands).flatMap(([name, sub]) => paths(sub, [...at, name]))];
}

describe('help from the pages taken at build time', async () => {
  const tree = await helpTree();
  const all = paths(tree);

  it('covers every command of the tree', () => {
    expect(all.length).toBeGreaterThan(30);
    expect(all).toContainEqual(['wp', 'publish']);
    expect(all).toContainEqual(['wp', 'sites', 'remove']);
    expect(all).toContainEqual(['sandbox']);
  });

  it('prints what the parser prints, for every command, piped and on terminals from 20 to 200 columns', async () => {
    for (const path of all)
      for (const columns of [undefined, 20, 33, 47, 60, 80, 101, 200]) {
        const expected = await viaParser([...path, '--help'], columns);
        expect(expected, `blogctl ${path.join(' ')} --help`).toMatch(/^Usage: blogctl/);
        expect(await viaPages([...path, '--help'], tree, columns), `${path.join(' ')} at ${columns}`).toBe(
          expected,
        );
      }
  }, 120_000);

  it('prints `-h`, `help <command>` and an alias as the parser does', async () => {
    for (const args of [
      ['-h'],
      ['wp', 'publish', '-h'],
      ['help'],
      ['help', 'wp', 'publish'],
      ['wp', 'sites', 'rm', '--help'],
      ['help', '--help'],
    ])
      expect(await viaPages(args, tree, 72), args.join(' ')).toBe(await viaParser(args, 72));
  });

  it('leaves to the parser every command line that is not a plain request for help', () => {
    for (const args of [
      [],
      ['--version'],
      ['--sandbox', '--help'],
      ['blog', 'list', '--json', '--help'],
      ['blog', 'show', 'abc123', '--help'],
      ['--help', 'blog'],
      ['completion', 'bash', '--help'],
      ['help', 'exit-codes'],
      ['help', 'environment'],
      ['nosuch', '--help'],
      ['wp', 'nosuch', '-h'],
      ['constructor', '--help'],
      ['__proto__', '--help'],
    ])
      expect(
        helpPath(args) === undefined || printHelp(args, terminal(), tree) === undefined,
        `blogctl ${args.join(' ')}`,
      ).toBe(true);
  });

  it('leaves help to the parser when the pages are not what the build writes', () => {
    for (const damaged of [
      {},
      [],
      null,
      { pieces: [1], commands: {}, aliases: {} },
      { pieces: [{ usage: 'x' }] },
    ])
      expect(printHelp(['--help'], terminal(), damaged as unknown as HelpTree), JSON.stringify(damaged)).toBe(
        undefined,
      );
  });
});

describe("what a command's help tells", async () => {
  const tree = await helpTree();
  const all = paths(tree).filter((p) => p.length > 0);
  const page = (path: string[]) => viaPages([...path, '--help'], tree);
  const section = (text: string, title: string): string | undefined =>
    new RegExp(`^${title}\\n((?:  .*\\n)+)`, 'm').exec(text)?.[1];

  it('lists the flags every command inherits, under "Inherited flags:" (not --version, which only the root takes)', async () => {
    for (const path of all) {
      const inherited = section(await page(path), 'Inherited flags:');
      expect(inherited, path.join(' ')).toBeDefined();
      for (const flag of ['--json [fields]', '--jq <expression>', '-q, --quiet', '--no-input', '--sandbox'])
        expect(inherited, `${path.join(' ')}: ${flag}`).toContain(flag);
      expect(inherited).not.toContain('--version');
    }
    expect(section(await page([]), 'Inherited flags:')).toBeUndefined();
  });

  it('lists the fields `--json` offers, under "JSON fields:", for every command that has them', async () => {
    const declared = await declaredFields();
    const withFields = all.filter((p) => declared[p.join(' ')]);
    expect(withFields.length).toBeGreaterThan(20);
    for (const path of withFields) {
      const fields = section(await page(path), 'JSON fields:');
      expect(fields, path.join(' ')).toBeDefined();
      expect(fields!.split(/[\s,]+/).filter(Boolean)).toEqual(declared[path.join(' ')]);
    }
    expect(section(await page(['completion']), 'JSON fields:')).toBeUndefined();
  });

  it("says how to install completions into the user's own folders, and what bash needs", async () => {
    const text = await page(['completion']);
    expect(text).not.toContain('fpath[1]');
    expect(text).toContain('~/.zfunc/_blogctl');
    expect(text).toMatch(/bash-completion\s+package/);
  });
});
