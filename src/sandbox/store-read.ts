// A data file read without a store: what it and its logs hold together (for tests and tools), the refusal
// of a file that cannot be read (never overwritten), and the records set aside when they cannot be loaded.
import { open } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { readBytesIfExists } from './persist.js';
import type { TenantData } from './store-format.js';
import { parseStore, type Rejected } from './store-load.js';
import type { IdempotencyRecord } from './store.js';

/** What the data file and its logs hold together, read without changing either (for tests and tools). */
export async function readStoreFiles(dataFile: string): Promise<{
  version: 1 | 2 | 3 | undefined;
  generation: number;
  keyCheck: string | undefined;
  tenants: Record<
    string,
    Omit<TenantData, 'idempotency'> & { idempotency: Record<string, IdempotencyRecord> }
  >;
  rejected: Rejected[];
}> {
  const parsed = parseStore(
    dataFile,
    await readBytesIfExists(dataFile),
    await readBytesIfExists(`${dataFile}.log`),
    refuse,
    await readBytesIfExists(`${dataFile}.log.old`),
  );
  const { version, generation, keyCheck, rejected } = parsed;
  const tenants = Object.fromEntries(
    [...parsed.tenants].map(([id, t]) => [id, { ...t, idempotency: Object.fromEntries(t.idempotency) }]),
  );
  return { version, generation, keyCheck, tenants, rejected };
}

export function refuse(file: string, why: string): never {
  throw new UsageError(
    `the sandbox data file ${file} ${why}; refusing to start so it is not overwritten (fix it, move it away, or pass another --data file)`,
  );
}

/**
 * Appends the records to `<data>.rejected` (0600: they may hold sealed passwords), on disk before the store
 * is rewritten without them.
 */
export async function setAside(dataFile: string, rejected: Rejected[]): Promise<string> {
  const file = `${dataFile}.rejected`;
  const at = new Date().toISOString();
  const lines = rejected.map(({ where, problem, record }) => {
    try {
      return `${JSON.stringify({ at, where, problem, record })}\n`;
    } catch {
      return `${JSON.stringify({ at, where, problem, record: 'too deep to write back as JSON' })}\n`;
    }
  });
  const handle = await open(file, 'a', 0o600);
  try {
    await handle.appendFile(lines.join(''), 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return file;
}
