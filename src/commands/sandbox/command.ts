// `blogctl sandbox`: a local implementation of the service, in the foreground until Ctrl-C.
import { defineVerb, option, verb, type InputOf } from '../define.js';

function declare() {
  return verb('sandbox', {
    description: 'run a local implementation of the service (no account needed)',
    jsonFields: 'none',
    notes: `
What it accepts:
  Bodies up to 5 MB (413), nesting objects and arrays up to 256 levels (400).
  A request answered before its body is read (a 401) gets Connection: close;
  the rest of its body is never read.
  A POST's Idempotency-Key replays the first answer for the same body (24 h);
  another body with the same key gets 422.
  At most 20 keywords of 100 characters (400); each key's records up to
  --quota MB (507). A change is answered once it is on disk; one the disk
  refuses gets 507 and is kept nowhere.
Keys: --api-key-file FILE (one a line, mode 0600) or BLOGCTL_SANDBOX_KEYS=a,b;
  --api-key shows the key in ps and shell history.
Beyond loopback (--host 0.0.0.0, ::, a LAN address):
  It prints the address it listens on and warns that other machines can reach
  it. The publish relay refuses sites on loopback, link-local and private
  addresses (400) unless --allow-private-relay.`,
    examples: [
      'blogctl sandbox   # generates a key and prints it',
      'blogctl sandbox --port 0 --data ./sandbox.json --publish-shape alt',
      'blogctl sandbox --host 0.0.0.0 --api-key-file ~/.sandbox-keys   # reachable from the LAN',
      'blogctl sandbox --provider-url http://127.0.0.1:11434/v1 --model llama3.2   # posts written by a local model',
    ],
  })
    .option('--port <port>', 'port to listen on', '4010')
    .option(
      '--host <host>',
      'address to listen on; beyond loopback (0.0.0.0, ::, a LAN address) other machines can reach it',
      '127.0.0.1',
    )
    .option(
      '--api-key-file <file>',
      'accepted API keys, one a line, in a file only you can read (0600); or env BLOGCTL_SANDBOX_KEYS',
    )
    .option(
      '--api-key <key>',
      'accepted API key (repeatable); visible in ps and shell history: prefer --api-key-file',
      (v: string, p: string[] = []) => [...p, v],
    )
    .option('--data <file>', 'persist state in this JSON file (default: memory only)')
    .option('--latency <ms>', 'simulated generation time for create-blog', '0')
    .option('--quota <MB>', "storage each API key's records may take (507 beyond it)", '100')
    .addOption(
      option('--delete-status <status>', 'status of a successful delete')
        .choices(['200', '204'] as const)
        .default('200'),
    )
    .addOption(
      option(
        '--publish-shape <shape>',
        'publish response shape: typed {isPublished, link, id, status, type} or alt {success, postUrl, postId}',
      )
        .choices(['typed', 'alt'] as const)
        .default('typed'),
    )
    .option(
      '--allow-private-relay',
      'listening beyond loopback, still relay publishes to loopback, link-local and private addresses (refused by default)',
    )
    .option(
      '--provider-url <url>',
      'write posts with a model: an OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1 (env BLOGCTL_PROVIDER_URL)',
    )
    .option('--model <name>', "the provider's model, e.g. llama3.2 (env BLOGCTL_MODEL)")
    .option(
      '--provider-key-stdin',
      "read the provider key from stdin's first line, for requests that bring none (env BLOGCTL_PROVIDER_API_KEY)",
    )
    .option(
      '--prompts <dir>',
      'prompt files that replace the shipped ones by name (env BLOGCTL_PROMPTS_DIR)',
    );
}

export type Input = InputOf<typeof declare>;
export const sandbox = defineVerb(declare, () => import('./action.js'));
