// `blog create`'s parameters: the -f file, then flags over it, then the provider key, then prompts.
import type { Deps } from '../../../factory.js';
import { registerSecret } from '../../../output/redact.js';
import {
  BlogParamsError,
  applyCustomValues,
  draftBlogParams,
  finishBlogParams,
  missingFields,
  missingFlags,
  parseBlogParamsFile,
} from '../../../blogs/params.js';
import { UsageError } from '../../../errors.js';
import type { BlogParams } from '../../../schemas/blog.js';
import { readText } from '../../../lib/input-files.js';
import type { Flags } from './command.js';

/**
 * The -f file, then flags over it, then the provider key, then prompts for what is still missing — or one
 * error naming every missing flag when nobody can be asked. Everything is validated before anything is sent.
 */
export async function resolveCreateParams(
  opts: Flags,
  deps: Pick<Deps, 'io' | 'env' | 'readStdin' | 'prompter'>,
): Promise<BlogParams> {
  const { io } = deps;
  if (opts.providerKeyStdin && opts.file === '-') {
    throw new UsageError(
      '--provider-key-stdin and -f - both read stdin: pass the parameters as a file path, or the key in BLOGCTL_PROVIDER_API_KEY',
    );
  }
  try {
    const file = opts.file === undefined ? undefined : await readParamsFile(opts.file, deps);
    if (file && typeof file.params['externalProviderApiKey'] === 'string')
      registerSecret(file.params['externalProviderApiKey']);
    const draft = draftBlogParams(opts, file);

    const providerKey = await readProviderKey(opts, deps);
    if (providerKey) {
      draft.params.externalProviderApiKey = providerKey.key;
      draft.origins.externalProviderApiKey = providerKey.source;
    }

    const missing = missingFields(draft.params);
    if (missing.length) {
      if (!io.canPrompt) {
        throw new UsageError(
          `missing required parameters: ${missingFlags(missing)} (cannot ask: ${io.noInputReason})`,
          {
            hints: [
              'pass them as flags or in a -f params.json file; nothing was sent (see blogctl blog create --help)',
            ],
          },
        );
      }
      const { askMissingParams } = await import('../../../blogs/prompts.js');
      await askMissingParams(draft, missing, deps.prompter());
      applyCustomValues(draft, opts);
    }
    return finishBlogParams(draft);
  } catch (error) {
    if (error instanceof BlogParamsError) throw new UsageError(error.message);
    throw error;
  }
}

async function readParamsFile(
  path: string,
  deps: Pick<Deps, 'readStdin'>,
): Promise<{ params: Record<string, unknown>; label: string }> {
  const label = path === '-' ? '-f - (stdin)' : path;
  return { params: parseBlogParamsFile(await readText(path, '-f', deps), label), label };
}

/** The provider key never comes from argv: --provider-key-stdin (first line) wins over BLOGCTL_PROVIDER_API_KEY. */
async function readProviderKey(
  opts: Flags,
  deps: Pick<Deps, 'io' | 'env' | 'readStdin' | 'prompter'>,
): Promise<{ key: string; source: string } | undefined> {
  let key: string | undefined;
  let source = 'BLOGCTL_PROVIDER_API_KEY';
  if (opts.providerKeyStdin) {
    source = '--provider-key-stdin';
    if (deps.io.stdinIsTTY) {
      // Reading a terminal would echo the key as it is typed: ask with a hidden prompt instead.
      if (!deps.io.canPrompt)
        throw new UsageError(`--provider-key-stdin: pipe the key in (cannot ask: ${deps.io.noInputReason})`);
      key = await deps
        .prompter()
        .password('Provider API key', { validate: (v) => (v.trim() ? true : 'enter the key') });
    } else {
      key = (await deps.readStdin()).split(/\r?\n/)[0];
    }
    key = key?.trim();
    if (!key) throw new UsageError('--provider-key-stdin: no key on the first line of stdin');
  } else {
    key = deps.env['BLOGCTL_PROVIDER_API_KEY']?.trim() || undefined;
  }
  if (!key) return undefined;
  registerSecret(key);
  return { key, source };
}
