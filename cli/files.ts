/** Files the command line reads and writes, with every failure a one-line message in the user's words. */
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { UsageError } from './args';

function reason(e: unknown, file: string): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `no such file or folder: "${file}"`;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied: "${file}"`;
  if (code === 'EISDIR') return `"${file}" is a directory`;
  if (code === 'EROFS') return `"${file}" is on a read-only file system`;
  return `"${file}": ${(e as Error).message}`;
}

/**
 * A UTF-8 text file, as a browser's File.text() reads it: a leading byte-order mark is dropped (editors on
 * Windows write one), so a file the lab accepts in the browser is accepted here too.
 */
export function readTextFile(file: string, what: string): string {
  try {
    if (statSync(file).isDirectory()) throw new UsageError(`"${file}" is a directory, not ${what}`);
    const text = readFileSync(file, 'utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${what}: ${reason(e, file)}`);
  }
}

/**
 * A file's bytes, for readers that scan UTF-8 without decoding it (the trace readers): a leading byte-order
 * mark is dropped, as readTextFile drops it, so both accept the same files.
 */
export function readBytesFile(file: string, what: string): Uint8Array {
  try {
    if (statSync(file).isDirectory()) throw new UsageError(`"${file}" is a directory, not ${what}`);
    const bytes = readFileSync(file);
    return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${what}: ${reason(e, file)}`);
  }
}

/** Open `file` for writing now, so an unwritable path fails before any work, not after minutes of it. */
export function openForWriting(file: string, what: string): number {
  try {
    return openSync(file, 'w');
  } catch (e) {
    throw new UsageError(`cannot write ${what}: ${reason(e, file)}`);
  }
}

export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    /* already closed */
  }
}
