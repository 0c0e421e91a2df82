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

/** Run `fn` with the engine's error output captured; returns its result or throws with the captured reason. */
export async function captureEngineErrors<T>(
  fn: () => Promise<T>,
): Promise<{ value: T } | { error: string }> {
  const lines: string[] = [];
  sink = lines;
  try {
    return { value: await fn() };
  } catch {
    return { error: engineReason(lines) };
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
