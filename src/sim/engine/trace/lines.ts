/**
 * Line sources for the readers: a whole text (a File's text passed through the worker, a file read in Node)
 * or any iterable of lines (e.g. a line splitter over a stream). Yields [1-based line number, line] with a
 * trailing '\r' removed.
 */
export type LineSource = string | Iterable<string>;

export function* numberedLines(source: LineSource): Generator<[number, string]> {
  let n = 0;
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
