/**
 * The grammar engine (emscripten) binds console.error when it loads and prints "[FATAL] …" and "Aborted()"
 * there when a schema cannot be compiled. Imported before the engine, this routes those lines into a buffer
 * while a compile runs, so the learner gets the engine's own reason as a message and the console stays clean.
 */
const original = console.error.bind(console);
let sink: string[] | null = null;

console.error = (...args: unknown[]) => {
  if (sink) sink.push(args.map(String).join(' '));
  else original(...args);
};

/**
 * Run `fn` with the engine's error output captured; returns its result, or the captured reason and whether the
 * engine itself crashed (a WebAssembly RuntimeError such as "memory access out of bounds" with no reason given:
 * its stack overflowed into its memory, and every later call into that engine instance fails too).
 */
export async function captureEngineErrors<T>(
  fn: () => Promise<T>,
): Promise<{ value: T } | { error: string; crashed: boolean }> {
  const lines: string[] = [];
  sink = lines;
  try {
    return { value: await fn() };
  } catch (e) {
    // A refused schema aborts with a "[FATAL] …" line and the engine carries on; a RuntimeError with no such
    // line is the engine itself failing (measured: "memory access out of bounds" past its stack).
    const crashed =
      e instanceof Error && e.name === 'RuntimeError' && !lines.some((l) => l.includes('[FATAL]'));
    return { error: engineReason(lines), crashed };
  } finally {
    sink = null;
  }
}

/** "[FATAL] /path/json_schema_converter.cc:902: Unsupported type \"strin\"" → "Unsupported type \"strin\"". */
export function engineReason(lines: readonly string[]): string {
  const fatal = lines.find((l) => l.includes('[FATAL]'));
  if (!fatal) return 'the grammar engine stopped without giving a reason';
  return fatal
    .replace(/^.*\[FATAL\]\s*/, '')
    .replace(/^\S+\.(cc|h|cpp):\d+:\s*/, '')
    .replace(/^Check failed: \(.*?\) is false:\s*/, '')
    .trim();
}
