// Commander's parse errors in blogctl's own form. Every error line is `error: <what>: <problem>`: it names the
// flag, argument or command word first, as given; the problem is lower case, without a final full stop; a
// value is in double quotes; advice ("did you mean …", the usage) goes to the hints, which report.ts shows
// under the line on a terminal and folds into it in a log. Commander says what failed by its error code; the
// names and values are read back from its message, whose wording is fixed for each code within a major
// version (test/commands/error-wording.test.ts runs every code this handles, so a change shows there).
import type { Command, CommanderError } from 'commander';
import { UsageError } from '../errors.js';

/** `blogctl wp publish`: the command as a person types it. */
function commandLine(cmd: Command | undefined): string {
  const names: string[] = [];
  for (let c: Command | null | undefined = cmd; c; c = c.parent) names.unshift(c.name());
  return names.length ? names.join(' ') : 'blogctl';
}

/** Commander's "(Did you mean x?)" or "(Did you mean one of x, y?)", as a hint. */
function suggestion(message: string): string[] {
  const m = /\(Did you mean (one of )?(.+?)\?\)/.exec(message);
  if (!m) return [];
  return [m[1] ? `did you mean one of ${m[2]}?` : `did you mean ${m[2]}?`];
}

/** `--status <status>` → `--status`; `-s, --site <id>` → `--site`. */
function flagOf(flags: string): string {
  const words = flags.split(/[ ,|]+/).filter((w) => w.startsWith('-'));
  return words.find((w) => w.startsWith('--')) ?? words[0] ?? flags;
}

/** What an argParser or a choice list said of a value, in our form: `"nope" must be one of a, b`. */
function invalidValue(value: string, reason: string): string {
  const choices = /^Allowed choices are (.*?)\.?$/.exec(reason.trim());
  if (choices) return `"${value}" must be one of ${choices[1]}`;
  return `"${value}": ${reason.trim().replace(/\.$/, '')}`;
}

/** The line (and advice) commander's error stands for, as a UsageError (exit 2). */
export function usageErrorOf(error: CommanderError, failedIn: Command | undefined): UsageError {
  const raw = error.message.replace(/^error: /, '').trim();
  const hints = suggestion(raw);
  const text = raw.replace(/\s*\(Did you mean .*?\?\)\s*$/s, '').replace(/\s*\n\s*/g, ' ');
  const where = commandLine(failedIn);
  const usage = failedIn ? [`usage: ${where} ${failedIn.usage()}`] : [];
  let m: RegExpExecArray | null;
  switch (error.code) {
    case 'commander.unknownOption':
      if ((m = /^unknown option '(.*)'$/.exec(text)))
        return new UsageError(`${m[1]}: not a flag of ${where}`, {
          hints: hints.length ? hints : [`the flags: ${where} --help`],
        });
      break;
    case 'commander.unknownCommand':
      if ((m = /^unknown command '(.*)'$/.exec(text)))
        return new UsageError(`"${m[1]}": not a command of ${where}`, {
          hints: hints.length ? hints : [`the commands: ${where} --help`],
        });
      break;
    case 'commander.missingArgument':
      if ((m = /^missing required argument '(.*)'$/.exec(text)))
        return new UsageError(`<${m[1]}>: missing`, { hints: usage });
      break;
    case 'commander.optionMissingArgument':
      if ((m = /^option '(.*)' argument missing$/.exec(text)))
        return new UsageError(`${flagOf(m[1]!)}: missing its value`, { hints: [`usage: ${m[1]}`] });
      break;
    case 'commander.missingMandatoryOptionValue':
      if ((m = /^required option '(.*)' not specified$/.exec(text)))
        return new UsageError(`${flagOf(m[1]!)}: required`, { hints: [`usage: ${m[1]}`] });
      break;
    case 'commander.conflictingOption':
      if ((m = /^option '(.*)' cannot be used with option '(.*)'$/.exec(text)))
        return new UsageError(`${flagOf(m[1]!)}: cannot be used with ${flagOf(m[2]!)}`);
      break;
    case 'commander.excessArguments':
      if ((m = /^too many arguments(?: for '.*')?\. Expected (\d+) arguments? but got (\d+)\.$/.exec(text))) {
        const expected = Number(m[1]);
        const extra = failedIn?.args.slice(expected) ?? [];
        const takes = expected === 0 ? 'takes no arguments' : `takes ${expected} at most`;
        return new UsageError(
          extra.length
            ? `${extra.map((a) => `"${a}"`).join(', ')}: too many arguments: ${where} ${takes}`
            : `${where}: too many arguments: it ${takes}, got ${m[2]}`,
          { hints: usage },
        );
      }
      break;
    case 'commander.invalidArgument':
      if (
        (m = /^option '(.*?)' (?:argument|value) '(.*?)'(?: from env '(.*?)')? is invalid\. (.*)$/s.exec(
          text,
        ))
      ) {
        const [, flags, value, envVar, reason] = m;
        const flag = flagOf(flags!);
        // A parser of ours names the flag itself (`--site given twice …`): its sentence stands as it is.
        if (!envVar && reason!.startsWith(flag)) return new UsageError(reason!.replace(/\.$/, ''));
        return new UsageError(`${envVar ?? flag}: ${invalidValue(value!, reason!)}`);
      }
      if ((m = /^command-argument value '(.*?)' is invalid for argument '(.*?)'\. (.*)$/s.exec(text)))
        return new UsageError(`<${m[2]}>: ${invalidValue(m[1]!, m[3]!)}`, { hints: usage });
      break;
  }
  // Any other of commander's errors: its sentence in our case and punctuation.
  return new UsageError(text.replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase()).replace(/\.$/, ''), {
    hints,
  });
}
