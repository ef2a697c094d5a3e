/**
 * The engine's configuration: one typed object, built once by the host (src/config/engine-environment.ts from
 * the environment, the CLI's flags and the editor's settings) and handed to each engine process when it
 * starts, so nothing in the engine reads the environment.
 */
import type { CacheLimits } from '../util/data-dir-caches';

/** How many engine processes may run at once, in all and for jobs (the host's engine scheduler, jobs/engine-scheduler.ts). */
export interface EngineLimits {
  /** Engine processes alive at once, idle ones included. */
  maxProcesses: number;
  /** Of those, how many may run queued jobs at the same time (the rest stay free for interactive and analysis work). */
  maxJobProcesses: number;
}

export interface EngineConfig {
  /** ffmpeg to run: a path or a bare name; `wasm` for the WebAssembly build; unset: `ffmpeg` on the search path, else WebAssembly. */
  ffmpeg?: string;
  /** ffprobe to run; unset: beside a configured ffmpeg, else on the search path. */
  ffprobe?: string;
  /** Where bare tool names are looked up (the PATH the host started with). */
  searchPath: string;
  /** whisper.cpp threads; unset: the core count up to 8. */
  sttThreads?: number;
  /** Synthesis post-processing in a worker thread (false: on the engine's main thread; same results, slower). */
  ttsThread: boolean;
  /** The Silero VAD model (whisper.cpp format); unset: the newest in the models folder. */
  vadModel?: string;
  /** Every task takes this many times as long as it really did (≥ 1): a slow machine on demand, for tests. */
  slowdown: number;
  /** How many engine processes run at once; unset: from the core count (jobs/engine-scheduler.ts). */
  limits?: EngineLimits;
  /** The data directory caches' limits for engine code that prunes them (the audiobook cache); unset: the defaults. */
  cacheLimits?: CacheLimits;
  /** Tests only: every speaker embedding is the same fixed vector, so matching can be checked with random-weight models. */
  fixedSpeakerEmbedding?: boolean;
}

/** The command-line flag that carries the configuration to an engine process (as JSON). */
export const ENGINE_CONFIG_FLAG = '--engine-config';

let configured: EngineConfig | undefined;

/**
 * Sets the configuration of the process that runs engine code: the engine worker's entry, once, from its
 * command line; a test or bench that runs engine code in its own process, from its entry (undefined: none).
 * The server side never calls it: it passes the configuration its entry built to each engine process.
 */
export function configureEngine(config: EngineConfig | undefined): void {
  configured = config;
}

/** The configuration engine code runs with in this process (deep readers: the media toolchain, threads); unset: no ffmpeg on a search path. */
export function engineConfig(): EngineConfig {
  return configured ?? { searchPath: '', ttsThread: true, slowdown: 1 };
}

/** Reads the configuration an engine process was started with from its arguments; undefined when there is none. */
export function engineConfigFromArgs(argv: readonly string[]): EngineConfig | undefined {
  const at = argv.indexOf(ENGINE_CONFIG_FLAG);
  if (at < 0 || at + 1 >= argv.length) return undefined;
  return JSON.parse(argv[at + 1]) as EngineConfig;
}
