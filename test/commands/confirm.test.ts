// The one confirmation of a destructive command (src/commands/confirm.ts): every command that asks before
// destroying asks through it, so --yes, the refusal without a terminal and a "no" mean the same everywhere.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirmOrYes, type Confirmation } from '../../src/commands/confirm.js';
import { CancelledError, UsageError } from '../../src/errors.js';
import { IO } from '../../src/output/io.js';
import type { Prompter } from '../../src/prompts/prompter.js';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

function io(tty: boolean): IO {
  const make = () => Object.assign(new PassThrough(), { isTTY: tty, columns: 80 });
  return new IO({ stdin: make(), stdout: make(), stderr: make(), env: { NO_COLOR: '1' } });
}

/** A prompter that answers every confirm with `answer` and records the order of events. */
function answering(answer: boolean, events: string[]): () => Prompter {
  const unexpected = () => Promise.reject(new Error('unexpected prompt'));
  return () => ({
    input: unexpected,
    password: unexpected,
    select: unexpected,
    confirm: async (message) => {
      events.push(`asked: ${message}`);
      return answer;
    },
  });
}

function confirmation(events: string[], yes?: boolean): Confirmation {
  return {
    yes,
    command: 'thing remove',
    action: 'remove a thing',
    question: 'Remove it?',
    untouched: 'nothing was removed',
    beforeAsking: async () => {
      events.push('shown');
    },
  };
}

describe('confirmOrYes', () => {
  it('shows what is at stake just before the question, and only when a person is asked', async () => {
    const events: string[] = [];
    await confirmOrYes(confirmation(events), { io: io(true), prompter: answering(true, events) });
    expect(events).toEqual(['shown', 'asked: Remove it?']);

    const declined: string[] = [];
    const error = await confirmOrYes(confirmation(declined), {
      io: io(true),
      prompter: answering(false, declined),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CancelledError);
    expect((error as CancelledError).message).toBe('cancelled: nothing was removed');

    // Without a terminal: the refusal naming --yes, with nothing looked up or shown for a question never asked.
    const unasked: string[] = [];
    const refusal = await confirmOrYes(confirmation(unasked), {
      io: io(false),
      prompter: answering(true, unasked),
    }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(UsageError);
    expect((refusal as UsageError).message).toBe(
      'thing remove needs --yes to remove a thing without asking (cannot ask: stdin is not a terminal); nothing was removed',
    );
    expect(unasked).toEqual([]);

    const yes: string[] = [];
    await confirmOrYes(confirmation(yes, true), { io: io(false), prompter: answering(false, yes) });
    expect(yes).toEqual([]);
  });

  it('is the only place a command asks a yes/no question', () => {
    const root = join(import.meta.dirname, '../../src/commands');
    const askers = (readdirSync(root, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && f !== 'confirm.ts')
      .filter((f) => /\.confirm\(/.test(readFileSync(join(root, f), 'utf8')));
    expect(askers).toEqual([]);
  });
});

describe('the destructive commands refuse alike without a terminal', () => {
  it('blog delete and wp settings replace name --yes and what was left untouched (exit 2)', async () => {
    // Nothing is reached: the base URL goes nowhere, and the refusal comes before any request.
    const dir = tempConfigDir();
    const env = { BLOGCTL_CONFIG_DIR: dir, BLOGCTL_BASE_URL: 'http://127.0.0.1:9', BLOGCTL_API_KEY: 'k' };
    const deleted = await runInProcess(['blog', 'delete', 'b1', 'b2'], { env });
    expect(deleted).toMatchObject({ code: 2, stdout: '' });
    expect(deleted.stderr).toBe(
      'error: blog delete needs --yes to delete without asking (cannot ask: stdin is not a terminal); nothing was deleted\n',
    );

    const sites = join(dir, 'sites.json');
    writeFileSync(sites, '[]');
    const replaced = await runInProcess(['wp', 'settings', 'replace', '-f', sites], { env });
    expect(replaced).toMatchObject({ code: 2, stdout: '' });
    expect(replaced.stderr).toBe(
      "error: wp settings replace needs --yes to replace the service's whole WordPress site list without asking (cannot ask: stdin is not a terminal); the WordPress site list was not changed\n",
    );
  });
});
