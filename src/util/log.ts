/** The logging seam: the CLI writes to stderr, the extension to its LogOutputChannel. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const consoleLogger: Logger = {
  info: (message) => console.error(`[info] ${message}`),
  warn: (message) => console.error(`[warn] ${message}`),
  error: (message) => console.error(`[error] ${message}`),
};

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A message for a thrown value that may not be an Error. */
export function describeThrown(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  return typeof thrown === 'string' ? thrown : (JSON.stringify(thrown) ?? String(thrown));
}
