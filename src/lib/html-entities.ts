// Text as WordPress sends it: term names and titles come HTML-escaped (`Food &amp; Drink`, `&#8217;`,
// `Caf&eacute;`). The one decoder: HTML's own character references (the `entities` package), every named
// one, numeric ones, and the legacy forms a browser reads without a semicolon.
import { decodeHTML } from 'entities';

/** The text an HTML-escaped string shows. */
export function decodeEntities(text: string): string {
  return decodeHTML(text);
}
