// A message that several items of a batch share is said once, with the items listed, rather than once per
// item: forty files naming the same unknown category make one line, not forty.

export interface MessageGroup {
  message: string;
  /** The items that had the message, in the order they were given. */
  items: string[];
}

/** The distinct messages of `entries` ([item, message] pairs), each with its items, in first-seen order. */
export function groupMessages(entries: Iterable<readonly [item: string, message: string]>): MessageGroup[] {
  const groups = new Map<string, string[]>();
  for (const [item, message] of entries) {
    const items = groups.get(message);
    if (items) {
      if (!items.includes(item)) items.push(item);
    } else groups.set(message, [item]);
  }
  return [...groups].map(([message, items]) => ({ message, items }));
}

/** `a, b, c` or, past `max`, `a, b, c and 37 more`. */
export function listItems(items: readonly string[], max = 10): string {
  const shown = items.slice(0, Math.max(1, max)).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/**
 * One line per distinct message: `item: message` when one item had it, `message (3 files: a, b, c)` when
 * several did. `noun` names the items (`file`, `post`), made plural with an `s`.
 */
export function groupedLines(
  entries: Iterable<readonly [item: string, message: string]>,
  noun: string,
  max = 10,
): string[] {
  return groupMessages(entries).map(({ message, items }) =>
    items.length === 1
      ? `${items[0]}: ${message}`
      : `${message} (${items.length} ${noun}s: ${listItems(items, max)})`,
  );
}

/**
 * A batch's message as [item, message]: the message without the `item: ` it may start with, so that the
 * same message about several items can be grouped.
 */
export function itemMessage(item: string, message: string): [string, string] {
  return [item, message.startsWith(`${item}: `) ? message.slice(item.length + 2) : message];
}
