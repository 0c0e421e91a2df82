/**
 * Line sources for the readers: a whole text (a File's text passed through the worker, a file read in Node),
 * its UTF-8 bytes (the command line reads the file without decoding it), or any iterable of lines (e.g. a line
 * splitter over a stream). Yields [1-based line number, line] with a trailing '\r' removed.
 */
export type LineSource = string | Uint8Array | Iterable<string>;

/**
 * Decodes a line of UTF-8 bytes as the whole text would be decoded: invalid bytes become U+FFFD, and a
 * byte-order mark is kept (a caller that wants a leading one dropped drops it from the bytes). Decoding line by
 * line gives the text the whole decode gives, since a newline byte never belongs to a multi-byte sequence and
 * always ends an invalid one.
 */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The text of bytes[start, end). */
export function decodeLine(bytes: Uint8Array, start: number, end: number): string {
  return utf8.decode(bytes.subarray(start, end));
}

export function* numberedLines(source: LineSource): Generator<[number, string]> {
  let n = 0;
  if (source instanceof Uint8Array) {
    let start = 0;
    const len = source.length;
    while (start < len) {
      let end = source.indexOf(10, start);
      if (end < 0) end = len;
      let line = decodeLine(source, start, end);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      yield [++n, line];
      start = end + 1;
    }
    return;
  }
  if (typeof source === 'string') {
    let start = 0;
    const len = source.length;
    while (start < len) {
      let end = source.indexOf('\n', start);
      if (end < 0) end = len;
      let line = source.slice(start, end);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      yield [++n, line];
      start = end + 1;
    }
    return;
  }
  for (let line of source) {
    if (line.endsWith('\n')) line = line.slice(0, -1);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    yield [++n, line];
  }
}

/** True for lines the readers ignore: empty or whitespace only. */
export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}
