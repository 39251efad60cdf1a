// `blogctl completion bash|zsh|fish`: the script, written from the command tree of the running version.
import { argument, defineVerb, verb, type InputOf } from '../define.js';

function declare() {
  return verb('completion', {
    description: 'print a tab-completion script for bash, zsh or fish',
    jsonFields: 'none',
    examples: [
      'source <(blogctl completion bash)',
      'mkdir -p ~/.local/share/bash-completion/completions && blogctl completion bash > ~/.local/share/bash-completion/completions/blogctl   # needs the bash-completion package',
      'mkdir -p ~/.zfunc && blogctl completion zsh > ~/.zfunc/_blogctl   # with fpath=(~/.zfunc $fpath) before compinit',
      'mkdir -p ~/.config/fish/completions && blogctl completion fish > ~/.config/fish/completions/blogctl.fish',
    ],
  }).addArgument(argument('<shell>', 'the shell to complete in').choices(['bash', 'zsh', 'fish'] as const));
}

export type Input = InputOf<typeof declare>;
export const completion = defineVerb(declare, () => import('./action.js'));
