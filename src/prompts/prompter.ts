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

export function inquirerPrompter(streams: { input: Readable; output: Writable }): Prompter {
  const context = { input: streams.input, output: streams.output, clearPromptOnDone: false };
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
          { message, mask: true, ...(options.validate && { validate: options.validate }) },
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
            ...(options.default !== undefined && { default: options.default }),
          },
          context,
        );
      }),
    confirm: (message, options = {}) =>
      guard(async () => {
        const { confirm } = await import('@inquirer/prompts');
        return confirm({ message, default: options.default ?? false }, context);
      }),
  };
}
