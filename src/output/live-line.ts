// The one live line blogctl draws on a terminal (a spinner with its text), through ora, loaded only when one
// is shown. It is drawn only while the terminal's width is usable (terminal-width.ts): ora counts the lines
// to clear by dividing by the width, and at 0 columns it clears forever. Started on a usable width, a live
// line that sees the terminal resized to an unusable one stops itself and stays stopped; what the command
// prints is unchanged either way.
import type { Writable } from 'node:stream';
import { usableWidth } from './terminal-width.js';

export interface LiveLine {
  /** Whether the line is being drawn (false once stopped, by stop() or by an unusable width). */
  readonly drawing: boolean;
  text(text: string): void;
  /** Ends the line (idempotent). */
  stop(): void;
}

type TerminalStream = Writable & {
  isTTY?: boolean;
  columns?: number;
  on?(event: 'resize', listener: () => void): unknown;
};

/** A live line on `stream`, or undefined when the terminal's width is not usable now. */
export async function startLiveLine(
  stream: TerminalStream,
  options: { text: string; color: boolean },
): Promise<LiveLine | undefined> {
  if (usableWidth(stream.columns) === undefined) return undefined;
  const { default: ora } = await import('ora');
  // Checked again: the terminal may have been resized while ora loaded.
  if (usableWidth(stream.columns) === undefined) return undefined;
  const spinner = ora({
    text: options.text,
    stream,
    // ora paints its frames through chalk, which asks about stdout and not --no-color or CLICOLOR=0.
    color: options.color ? 'cyan' : false,
    // ora's own check asks about the stream, CI and TERM; the caller has decided (a terminal, not --quiet),
    // and the width is checked here.
    isEnabled: true,
    discardStdin: false,
  }).start();
  let drawing = true;
  // Node refreshes a terminal stream's columns and then emits 'resize', before ora draws again.
  const onResize = (): void => {
    if (usableWidth(stream.columns) === undefined) stop();
  };
  const stop = (): void => {
    if (!drawing) return;
    drawing = false;
    stream.off?.('resize', onResize);
    spinner.stop();
  };
  stream.on?.('resize', onResize);
  return {
    get drawing() {
      return drawing;
    },
    text(text) {
      if (drawing) spinner.text = text;
    },
    stop,
  };
}
