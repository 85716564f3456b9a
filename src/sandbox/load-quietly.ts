// Node 22 prints "SQLite is an experimental feature" when node:sqlite loads (24.15 no longer
// does): a line a sandbox user can do nothing about, so it alone is not printed.
export async function loadQuietly<T>(load: () => Promise<T>): Promise<T> {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
    if (String(warning).startsWith("SQLite is an experimental feature")) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return await load();
  } finally {
    process.emitWarning = emitWarning;
  }
}
