// The Prompter a command asks through. The inquirer implementation writes to stderr (stdout stays data)
// and turns Ctrl-C into InterruptedError (exit 130). Commands ask only when io.canPrompt says a person is there.
import type { Readable, Writable } from 'node:stream';
import { InterruptedError } from '../errors.js';

export interface Choice<T extends string = string> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  input(
    message: string,
    options?: { default?: string; validate?: (value: string) => true | string },
  ): Promise<string>;
  password(message: string, options?: { validate?: (value: string) => true | string }): Promise<string>;
  select<T extends string>(message: string, choices: Choice<T>[], options?: { default?: T }): Promise<T>;
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
}

/**
 * inquirer's look without colour or bold: its defaults paint with node:util's styleText, which knows nothing of
 * --no-color or CLICOLOR=0 and asks about stdout, not the stderr the prompts are on. Only the styling goes;
 * the marks and the words stay (`?`, `✔`, `> error`, `(default)`, `y/N`).
 */
const plain = (text: string): string => text;
const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  spinner: { interval: 80, frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] },
  style: {
    answer: plain,
    message: plain,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: plain,
    highlight: plain,
    key: (text: string) => `<${text}>`,
    // select
    disabled: plain,
    description: plain,
    keysHelpTip: (keys: [string, string][]) => keys.map(([key, action]) => `${key} ${action}`).join(' • '),
    // confirm: the default answer's letter upper-cased, as inquirer does without colour
    confirmDefault: (text: string) => text.charAt(0).toUpperCase() + text.slice(1),
  },
};

export interface PrompterStreams {
  input: Readable;
  output: Writable;
  /** The CLI's colour decision for the output stream (IO.colorErr); false gives the plain theme. */
  color?: boolean;
}

export function inquirerPrompter(streams: PrompterStreams): Prompter {
  const context = { input: streams.input, output: streams.output, clearPromptOnDone: false };
  const theme = streams.color === false ? { theme: PLAIN_THEME } : {};
  const guard = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) {
        throw new InterruptedError();
      }
      throw error;
    }
  };
  return {
    input: (message, options = {}) =>
      guard(async () => {
        const { input } = await import('@inquirer/prompts');
        return input(
          {
            message,
            ...theme,
            ...(options.default !== undefined && { default: options.default }),
            ...(options.validate && { validate: options.validate }),
          },
          context,
        );
      }),
    password: (message, options = {}) =>
      guard(async () => {
        const { password } = await import('@inquirer/prompts');
        return password(
          {
            message,
            mask: true,
            // inquirer ≥ 8.7 reveals the typed secret on Ctrl-T (and says so under the prompt): a secret typed
            // here must never be shown, not even on request, as the screen may be shared or recorded.
            toggleMask: false,
            ...theme,
            ...(options.validate && { validate: options.validate }),
          },
          context,
        );
      }),
    select: <T extends string>(message: string, choices: Choice<T>[], options: { default?: T } = {}) =>
      guard(async () => {
        const { select } = await import('@inquirer/prompts');
        return select<T>(
          {
            message,
            choices,
            pageSize: 12,
            ...theme,
            ...(options.default !== undefined && { default: options.default }),
          },
          context,
        );
      }),
    confirm: (message, options = {}) =>
      guard(async () => {
        const { confirm } = await import('@inquirer/prompts');
        return confirm({ message, default: options.default ?? false, ...theme }, context);
      }),
  };
}
