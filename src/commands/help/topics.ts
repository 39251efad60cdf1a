// `blogctl help environment` and `blogctl help exit-codes`.
import { DEFAULT_HELP_WIDTH, formatRows, wrapText } from '../../output/wrap.js';

export const EXIT_CODES: [number, string, string][] = [
  [0, 'success', ''],
  [
    1,
    'unexpected error',
    'a bug or an unforeseen condition (run with --debug); --jq failing on the output of a command that ran',
  ],
  [
    2,
    'usage or validation error',
    'bad flag, file or value, missing parameter, or missing --yes; nothing was sent',
  ],
  [3, 'cancelled', 'a confirmation was declined'],
  [4, 'authentication', 'HTTP 401/403, no API key, or WordPress rejected the Application Password'],
  [5, 'not found', 'HTTP 404: an unknown blog id, site or account profile, or resource'],
  [6, 'rejected', 'another 4xx, isPublished: false, or a post slug held by a post blogctl did not make'],
  [
    7,
    'unavailable',
    '5xx, network failure, timeout, a redirect (never followed), or an answer that is not what the specification says',
  ],
  [
    8,
    'out of step',
    'wp publish --exit-code: the site differs from the sources (a dry run would change posts, or posts were left as they were)',
  ],
  [
    9,
    'write failed',
    'stdout, stderr, a config file, a --save file or the --sandbox state could not be written (a full disk, a read-only file system, no permission, an I/O error, a closed descriptor)',
  ],
  [130, 'interrupted', 'Ctrl-C (SIGINT) or SIGTERM; in-flight requests were aborted, config left intact'],
];

export const ENVIRONMENT: [string, string][] = [
  ['BLOGCTL_API_KEY', 'API key; wins over the stored key of the profile'],
  ['BLOGCTL_BASE_URL', 'service base URL (flag --base-url wins)'],
  [
    'BLOGCTL_PROFILE',
    'account profile to use (flag --profile wins); it must exist, otherwise exit 5 (auth login creates one), unless BLOGCTL_API_KEY is set',
  ],
  [
    'BLOGCTL_CONFIG_DIR',
    'where config.json and credentials.json live (default $XDG_CONFIG_HOME/blogctl or ~/.config/blogctl)',
  ],
  ['BLOGCTL_TIMEOUT', 'response timeout in seconds (flag --timeout wins)'],
  ['BLOGCTL_RETRIES', 'retries for requests that are safe to repeat (flag --retries wins)'],
  ['BLOGCTL_DEBUG', 'like --debug: log requests to stderr, secrets redacted'],
  ['BLOGCTL_NO_INPUT', 'like --no-input: never prompt'],
  ['BLOGCTL_SANDBOX', 'like --sandbox: use the in-process sandbox'],
  [
    'BLOGCTL_WP_PASSWORD',
    'WordPress Application Password (wp sites add/verify/set-password, wp publish, wp settings update --with-credentials): after --password-stdin, before the password stored for the site',
  ],
  ['BLOGCTL_SITE', 'site profile used when no --site is given (wins over config default-site)'],
  [
    'BLOGCTL_POST_PASSWORD',
    "the post's password (a password-protected post) for wp publish and blog create --publish, when neither --post-password nor --post-password-stdin is given; it stands for the flag, over front matter",
  ],
  [
    'BLOGCTL_PROVIDER_API_KEY',
    'your own text-generation provider key for blog create; blogctl sandbox: the key for requests that bring none',
  ],
  [
    'BLOGCTL_PROVIDER_URL, BLOGCTL_MODEL',
    'the sandbox (--sandbox, blogctl sandbox) writes posts with this model of this OpenAI-compatible provider, e.g. http://127.0.0.1:11434/v1 (Ollama)',
  ],
  [
    'BLOGCTL_PROMPTS_DIR',
    'with a provider: prompt files that replace the shipped ones by name (like --prompts)',
  ],
  [
    'BLOGCTL_PROVIDER_TIMEOUT, BLOGCTL_PROVIDER_RETRY_MAX_MS',
    'with a provider: seconds per call (default 300); bound on retrying a 429 or 5xx, in ms (default 120000)',
  ],
  [
    'BLOGCTL_PROVIDER_RETRY_BASE_MS',
    'with a provider: first backoff step in ms when it gives no Retry-After (default 1000)',
  ],
  [
    'BLOGCTL_PROVIDER_MAX_CALLS, BLOGCTL_PROVIDER_DEADLINE',
    'with a provider: provider calls for one post, retries included (default 24/36/48 for short/medium/long); seconds for one post in all (default 1800)',
  ],
  [
    'BLOGCTL_GENERATIONS_PER_KEY, BLOGCTL_GENERATIONS_TOTAL',
    'with a provider: posts written at once per API key (default 2) and in all (default 8); past either, 429 with Retry-After',
  ],
  [
    'BLOGCTL_KEYRING',
    'BLOGCTL_KEYRING=1 keeps API keys and Application Passwords in the OS keyring (3 s bound; falls back to the 0600 file)',
  ],
  [
    'BLOGCTL_SAFE_DIRECTORIES',
    'folders (":"-separated) or * trusted to hold a blogctl.yml whoever owns them (else another user\'s or a world-writable folder is skipped)',
  ],
  ['BLOGCTL_SANDBOX_KEYS', 'blogctl sandbox: comma-separated accepted API keys'],
  ['BLOGCTL_SANDBOX_SECRET', 'blogctl sandbox: key material for encrypting stored Application Passwords'],
  [
    'BLOGCTL_RETRY_BASE_MS',
    'first retry backoff step in ms (default 250; doubles each attempt, full jitter)',
  ],
  ['BLOGCTL_RETRY_MAX_WAIT_MS', 'cap on the total time spent waiting between retries (default 30000)'],
  ['BLOGCTL_MAX_RESPONSE_MB', 'largest response body accepted, in MiB (default 100)'],
  ['BLOGCTL_MAX_LIST_MB', 'largest list answer (blog list) as a whole, in MiB (default 256)'],
  ['BLOGCTL_MAX_LIST_ITEMS', 'most items in a list answer (default 100000)'],
  ['NO_COLOR', 'disable colour (any non-empty value)'],
  ['CLICOLOR', 'CLICOLOR=0 disables colour'],
  ['FORCE_COLOR', 'force colour on (1) or off (0) even when not a terminal'],
  ['TERM', 'TERM=dumb disables colour'],
  ['COLUMNS', 'table width when the terminal does not report one (default 80)'],
  [
    'BLOGCTL_PAGER, PAGER',
    'the pager for blog show on a terminal (BLOGCTL_PAGER first; default less -FRX; empty or cat: none)',
  ],
  ['LESS, LV', "the pager's own options; when unset, blogctl passes LESS=FRX and LV=-c, as gh does"],
  [
    'LESSCHARSET, LESSCHARDEF',
    "less's charset; when neither is set, blogctl passes LESSCHARSET=utf-8 (its text is UTF-8 whatever the locale)",
  ],
  ['CI', 'when set, never prompt (like --no-input)'],
  ['GITHUB_ACTIONS', 'true: input errors also printed as workflow-command annotations (stderr)'],
  [
    'GITHUB_SERVER_URL, GITHUB_REPOSITORY, GITHUB_SHA',
    'wp publish --markdown: link each source to its file at that commit',
  ],
  ['HTTP_PROXY, HTTPS_PROXY, NO_PROXY', 'proxy settings, honoured for every request'],
  ['http_proxy, https_proxy, no_proxy', 'the same; the lowercase form wins when both are set'],
  ['XDG_CONFIG_HOME', 'base of the default config dir'],
  ['NODE_COMPILE_CACHE', "where Node (22 and later) keeps its compile cache of blogctl's code (Node's own)"],
  ['NODE_DISABLE_COMPILE_CACHE', "1 turns Node's compile cache off"],
  [
    'NODE_EXTRA_CA_CERTS',
    'a PEM file of extra certificate authorities (a company proxy, a self-signed site)',
  ],
];

/** The text of a help topic, wrapped to `width` columns; undefined for a topic that does not exist. */
export function helpTopic(topic: string, width = DEFAULT_HELP_WIDTH): string | undefined {
  const t = topic.trim().toLowerCase();
  if (t === 'exit-codes' || t === 'exit codes' || t === 'exitcodes') {
    const rows = EXIT_CODES.map(
      ([code, name, why]) => [`${String(code).padStart(3)}  ${name}`, why] as const,
    );
    return `Exit codes\n\n${formatRows(rows, width).join('\n')}\n\n${wrapText(
      'Errors are one line on stderr (a script gets any advice folded into it); on a terminal, advice and per-item details follow it as a list. With --json anywhere on the line (parse errors included) the error is also one JSON object on stderr: {"error", "message", "exitCode", "status"?, "endpoint"?, "serviceMessage"?, "code"?, "hints"?, "details"?}.',
      width,
    )}\n`;
  }
  if (t === 'environment' || t === 'env') {
    return `Environment variables\n\n${wrapText(
      'Precedence: flag, then environment, then the selected profile, then defaults.',
      width,
    )}\n\n${formatRows(ENVIRONMENT, width).join('\n')}\n`;
  }
  return undefined;
}
