// What a terminal is given of text that came from elsewhere (a blog's title or content, a file name, a
// server's message): its control characters made visible instead of obeyed. A title holding OSC 52 would
// otherwise write the reader's clipboard, ESC[2J clear the screen, a lone CR or a bidi override disguise a
// line. A control character is shown in caret notation (ESC as ^[, DEL as ^?, a C1 character as ^[ and its
// 7-bit form), a bidi control as <U+XXXX>. Line breaks (LF, CRLF) and tabs stay. --json and piped output
// never pass through here: the data stays exact there.

/* eslint-disable no-control-regex */
/**
 * The SGR sequences paintAnsi() writes (ansi.ts: bold, dim, red, green, yellow, cyan, and their closes): the
 * only escape sequences blogctl itself writes through IO, and harmless from anyone (no conceal, no cursor).
 */
const SGR = '\\u001b\\[(?:1|2|22|31|32|33|36|39)m';
const CONTROLS =
  '\\r\\n|[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]';
const CONTROL = new RegExp(CONTROLS, 'g');
const CONTROL_OR_SGR = new RegExp(`${SGR}|${CONTROLS}`, 'g');
const ANY = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/* eslint-enable no-control-regex */

function shown(match: string): string {
  if (match === '\r\n' || match.length > 1) return match;
  const code = match.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
  if (code === 0x7f) return '^?';
  if (code <= 0x9f) return `^[${String.fromCharCode(code - 64)}`;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** A value for a terminal: every control character shown, none obeyed (line breaks and tabs stay). */
export function visible(text: string): string {
  return ANY.test(text) ? text.replace(CONTROL, (m) => (m === '\r\n' ? m : shown(m))) : text;
}

/**
 * Text for a terminal that may hold blogctl's own colours: those SGR sequences stay, every other control
 * character is shown, not obeyed. Everything IO writes to a terminal passes through here.
 */
export function terminalSafe(text: string): string {
  return ANY.test(text) ? text.replace(CONTROL_OR_SGR, shown) : text;
}
