// Files that a crash at any moment leaves either as they were or whole in their new form: a temporary file
// in the same directory, fsynced, renamed over the target, then the directory fsynced so the rename itself
// survives. A leaf module: the sandbox's store and the config store (config.json, credentials.json) use it.
import { closeSync, constants, fsyncSync, openSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `path` with `text` atomically; the file is created with `mode` (0600: it may hold secrets). `text`
 * may come in pieces (the sandbox's snapshot, record by record): no string then holds the whole file.
 *
 * `exclusive`: the file is made only where nothing is (not even a dangling symbolic link): the whole file
 * appears at once or the call fails with EEXIST, and what was there is left as it was. A rename replaces
 * what it finds, so the temporary file is hard-linked to `path` instead (link(2) never follows or replaces).
 */
export async function atomicWriteFile(
  path: string,
  text: string | Uint8Array | Iterable<string>,
  mode = 0o600,
  options: { exclusive?: boolean } = {},
): Promise<number> {
  // Fetched here, not imported: the config store imports this module on every command's start-up path, and
  // node:fs/promises (with Node's file streams) and node:crypto cost milliseconds to commands that write
  // nothing.
  const { copyFile, link, open, rename, unlink } = process.getBuiltinModule('node:fs/promises');
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
    } else if (text instanceof Uint8Array) {
      await file.writeFile(text);
      bytes = text.byteLength;
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
    if (options.exclusive) {
      try {
        await link(temp, path);
      } catch (error) {
        // A file system without hard links (FAT, some network shares): an exclusive copy still never
        // replaces or follows what is there, though a crash may then leave the file cut short.
        if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        await copyFile(temp, path, COPYFILE_EXCL);
      }
      await unlink(temp);
    } else await rename(temp, path);
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

const COPYFILE_EXCL = constants.COPYFILE_EXCL;
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

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
