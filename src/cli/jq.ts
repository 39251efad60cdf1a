// --jq: the command's JSON goes into a buffer instead of stdout, and jq's results over it to stdout when the
// command is done. Nothing of jq loads unless --jq is on the command line.
import type { Command } from 'commander';
import type { GlobalOptions } from '../factory.js';
import type { IO, IOOptions } from '../output/io.js';
import type { JqCapture } from '../output/jq.js';

export interface JqStage {
  /**
   * For the preAction hook: --jq implies --json (a field list, when given, is applied first), set before any
   * action reads the options; the expression is checked here, before the command does anything.
   */
  start(program: Command): Promise<void>;
  /** The IO a command gets with --jq, or undefined without it. */
  io(globals: GlobalOptions, env: NodeJS.ProcessEnv): IO | undefined;
  /** jq's results over what the command printed (nothing when it printed nothing); once. */
  print(): Promise<void>;
}

export function jqStage(signal: AbortSignal, given: { io?: IO }): JqStage {
  let jq: { expression: string; capture: JqCapture; IO: typeof import('../output/io.js').IO } | undefined;
  return {
    async start(program) {
      const expression = program.getOptionValue('jq') as string | undefined;
      if (expression === undefined || jq) return;
      const [jqOutput, { IO }, { wantsJson: jsonGiven }] = await Promise.all([
        import('../output/jq.js'),
        import('../output/io.js'),
        import('../output/json.js'),
      ]);
      await jqOutput.checkJq(expression, signal);
      if (!jsonGiven(program.getOptionValue('json') as GlobalOptions['json']))
        program.setOptionValue('json', true);
      jq = { expression, capture: jqOutput.jqStdout(), IO };
    },
    io(globals, env) {
      return jq && jqIO(jq.IO, globals, env, jq.capture.stream, given.io);
    },
    async print() {
      const { expression } = jq ?? {};
      const document = jq?.capture.text();
      // Once: a failure here is reported, not filtered again.
      jq = undefined;
      if (expression === undefined || document === undefined) return;
      const [{ runJq }, { redact }] = await Promise.all([
        import('../output/jq.js'),
        import('../output/redact.js'),
      ]);
      const output = await runJq(expression, document, signal);
      const stdout = given.io?.stdout ?? process.stdout;
      // jq's text results are the data's values printed as they are: on a terminal, no control character in
      // them is obeyed, colour codes included (blogctl paints nothing of jq's output).
      const safe = stdout.isTTY ? (await import('../output/terminal-text.js')).visible : undefined;
      stdout.write(safe ? safe(redact(output)) : redact(output));
    },
  };
}

/**
 * The IO a command gets with --jq: its stdout is the buffer jq reads; everything else is what it would have
 * had (the given IO's stdin and stderr in tests, the process's otherwise).
 */
function jqIO(
  IOClass: typeof import('../output/io.js').IO,
  globals: GlobalOptions,
  env: NodeJS.ProcessEnv,
  stdout: IOOptions['stdout'],
  given?: IO,
): IO {
  return new IOClass({
    ...(given && { stdin: given.stdin, stderr: given.stderr }),
    stdout,
    env,
    noColor: globals.color === false,
    noInput: globals.input === false,
    quiet: Boolean(globals.quiet),
    debug: Boolean(globals.debug),
  });
}
