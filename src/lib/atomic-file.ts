// Files that a crash at any moment leaves either as they were or whole in their new form: a temporary file
// in the same directory, fsynced, renamed over the target, then the directory fsynced so the rename itself
// survives. A leaf module: the sandbox's store and the config store (config.json, credentials.json) use it.
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `path` with `text` atomically; the file is created with `mode` (0600: it may hold secrets). `text`
 * may come in pieces (the sandbox's snapshot, record by record): no string then holds the whole file.
 */
export async function atomicWriteFile(
  path: string,
  text: string | Iterable<string>,
  mode = 0o600,
): Promise<number> {
  // Fetched here, not imported: the config store imports this module on every command's start-up path, and
  // node:fs/promises (with Node's file streams) and node:crypto cost milliseconds to commands that write
  // nothing.
  const { open, rename, unlink } = process.getBuiltinModule('node:fs/promises');
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  const dir = dirname(path);
  // `.<name>.<pid>.<hex>.tmp`: the sandbox removes those of dead processes (removeStaleTempFiles).
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const file = await open(temp, 'wx', mode);
  let bytes = 0;
  try {
    if (typeof text === 'string') {
      await file.writeFile(text, 'utf8');
      bytes = Buffer.byteLength(text);
    } else {
      let chunk: string[] = [];
      let chunkLength = 0;
      const flush = async (): Promise<void> => {
        const buffer = Buffer.from(chunk.join(''), 'utf8');
        chunk = [];
        chunkLength = 0;
        await file.writeFile(buffer);
        bytes += buffer.length;
      };
      for (const piece of text) {
        chunk.push(piece);
        chunkLength += piece.length;
        if (chunkLength >= WRITE_CHUNK) await flush();
      }
      if (chunkLength) await flush();
    }
    await file.sync();
  } catch (error) {
    await file.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await file.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  // In the thread pool, like the file's own fsync: many records written at once (a batch publish) must not
  // take turns on the main thread.
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!platformCannotSync(error)) throw error;
  } finally {
    await handle?.close();
  }
  return bytes;
}

/** Pieces are gathered up to this many characters before each write. */
const WRITE_CHUNK = 1 << 20;

/**
 * Makes a directory's entries (a rename, a new file) durable, on the main thread, for a synchronous writer
 * (atomicWriteFile does the same in the thread pool). Some platforms (Windows) cannot open or fsync a directory;
 * what was written is on disk all the same, so those refusals are ignored.
 */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (error) {
    if (!platformCannotSync(error)) throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function platformCannotSync(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EISDIR' || code === 'EPERM' || code === 'EINVAL' || code === 'EACCES';
}
