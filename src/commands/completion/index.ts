// `blogctl completion bash|zsh|fish` and the hidden `blogctl __complete <kind>` the scripts call for values
// only the local config knows. Both load their implementation when they run.
import { Argument, type Command } from 'commander';
import { examples, jsonFields, lazyAction, type App } from '../define.js';

export const COMPLETE_COMMAND = '__complete';

export function registerCompletion(program: Command, app: App): void {
  examples(
    jsonFields(
      program
        .command('completion')
        .description('print a tab-completion script for bash, zsh or fish')
        .addArgument(new Argument('<shell>', 'the shell to complete in').choices(['bash', 'zsh', 'fish']))
        .action(lazyAction(app, () => import('./generate.js'))),
      'none',
    ),
    [
      'source <(blogctl completion bash)',
      'mkdir -p ~/.local/share/bash-completion/completions && blogctl completion bash > ~/.local/share/bash-completion/completions/blogctl   # needs the bash-completion package',
      'mkdir -p ~/.zfunc && blogctl completion zsh > ~/.zfunc/_blogctl   # with fpath=(~/.zfunc $fpath) before compinit',
      'mkdir -p ~/.config/fish/completions && blogctl completion fish > ~/.config/fish/completions/blogctl.fish',
    ],
  );

  // Hidden from --help and from the scripts. A completion must never print an error into the person's
  // prompt, so the command accepts anything and prints nothing it cannot be sure of.
  jsonFields(
    program
      .command(`${COMPLETE_COMMAND} [kind]`, { hidden: true })
      .description('print site ids or profile names from the local config, one per line')
      .allowUnknownOption()
      .allowExcessArguments()
      .action(lazyAction(app, () => import('./dynamic.js'))),
    'none',
  );
}
