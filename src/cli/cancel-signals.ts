/**
 * Ctrl+C (SIGINT) and SIGTERM as one abort signal for a command's work, so the work is cancelled and cleaned
 * up (no partial file, no staging folder) instead of the process dying where it stands; and the exit code a
 * shell expects of a command ended by the signal it received, 128 + its number: 130 for SIGINT, 143 for SIGTERM.
 */

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

type CancelSignal = keyof typeof EXIT_CODES;

/** Listens from construction until `dispose`; a second signal finds no listener and ends the process at once. */
export class CancelSignals {
  private readonly controller = new AbortController();
  private received: CancelSignal | undefined;
  private readonly onInterrupt = (): void => this.receive('SIGINT');
  private readonly onTerminate = (): void => this.receive('SIGTERM');

  constructor() {
    process.once('SIGINT', this.onInterrupt);
    process.once('SIGTERM', this.onTerminate);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The exit code for the signal received first (130 when none was, for a cancellation from elsewhere). */
  get exitCode(): number {
    return EXIT_CODES[this.received ?? 'SIGINT'];
  }

  dispose(): void {
    process.off('SIGINT', this.onInterrupt);
    process.off('SIGTERM', this.onTerminate);
  }

  private receive(name: CancelSignal): void {
    this.received ??= name;
    this.controller.abort();
  }
}

/** A command's work that was cancelled by a signal: its exit code, and nothing else to print. */
export class CliCancelled {
  constructor(readonly exitCode: number) {}
}
