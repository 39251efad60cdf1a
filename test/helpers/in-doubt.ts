// What a config dir's in-doubt log (`in-doubt.jsonl`) leaves in doubt, read the way its format says and not
// through src/: a site and source is in doubt when its latest complete line is a `doubt` line. A torn last
// line (no newline) does not count.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const IN_DOUBT_LOG = 'in-doubt.jsonl';

/** The source keys in doubt in the log's text, in the order their doubt lines were written. */
export function outstandingKeys(text: string): string[] {
  const latest = new Map<string, { kind: unknown; sourceKey: string }>();
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  for (const line of complete.split('\n')) {
    let value: { kind?: unknown; site?: unknown; sourceKey?: unknown };
    try {
      value = JSON.parse(line) as typeof value;
    } catch {
      continue;
    }
    if (typeof value?.site !== 'string' || typeof value.sourceKey !== 'string') continue;
    const key = `${value.site}\n${value.sourceKey}`;
    latest.delete(key);
    latest.set(key, { kind: value.kind, sourceKey: value.sourceKey });
  }
  return [...latest.values()].filter((l) => l.kind === 'doubt').map((l) => l.sourceKey);
}

/** The source keys a config dir leaves in doubt (none when it has no in-doubt log). */
export function inDoubtKeys(dir: string): string[] {
  const path = join(dir, IN_DOUBT_LOG);
  return existsSync(path) ? outstandingKeys(readFileSync(path, 'utf8')) : [];
}
