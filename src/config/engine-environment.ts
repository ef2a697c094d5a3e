/**
 * The engine configuration builder: the one place that reads the engine's environment variables
 * (docs/configuration.md lists them all). The CLI and the editor build the configuration here once, add their
 * flags and settings over it, and the host hands it to every engine process it starts.
 */
import type { EngineConfig } from '../engine-api/engine-config';
import { checkEngineLimits, defaultEngineLimits, type EngineLimits } from '../jobs/engine-scheduler';
import { configuredCacheLimits } from '../util/data-dir-caches';
import { silentLogger } from '../util/log';

export const ENGINE_ENV = {
  ffmpeg: 'SPEECH_STUDIO_FFMPEG',
  ffprobe: 'SPEECH_STUDIO_FFPROBE',
  threads: 'SPEECH_STUDIO_THREADS',
  ttsThread: 'SPEECH_STUDIO_TTS_THREAD',
  vadModel: 'SPEECH_STUDIO_VAD_MODEL',
  slowdown: 'SPEECH_STUDIO_ENGINE_SLOWDOWN',
  processes: 'SPEECH_STUDIO_ENGINE_PROCESSES',
} as const;

/** Tests alone set it to 1: every speaker embedding is the same vector (EngineConfig.fixedSpeakerEmbedding). */
export const FIXED_EMBEDDING_ENV = 'SPEECH_STUDIO_TEST_FIXED_SPEAKER_EMBEDDING';

const positiveInteger = (text: string | undefined): number | undefined => {
  const value = Number.parseInt(text ?? '', 10);
  return Number.isInteger(value) && value > 0 ? value : undefined;
};

/**
 * `SPEECH_STUDIO_ENGINE_PROCESSES`: `N` (N processes, N − 1 of them for jobs) or `N/J` (N processes, J for jobs);
 * unset: from the core count. A malformed value is an error at start, not a silent default.
 */
export function engineLimitsFrom(text: string | undefined): EngineLimits | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  const match = /^(\d+)(?:\/(\d+))?$/.exec(trimmed);
  if (!match)
    throw new TypeError(
      `Expected ${ENGINE_ENV.processes} to be N or N/J (whole numbers), got ${JSON.stringify(trimmed)}`,
    );
  const maxProcesses = Number(match[1]);
  const maxJobProcesses = match[2] === undefined ? Math.max(1, maxProcesses - 1) : Number(match[2]);
  return checkEngineLimits({ maxProcesses, maxJobProcesses });
}

/** The engine configuration the environment describes, with `over` (flags, settings) winning. */
export function engineConfigFromEnvironment(
  env: NodeJS.ProcessEnv = process.env,
  over: Partial<EngineConfig> = {},
): EngineConfig {
  const text = (name: string): string | undefined => env[name]?.trim() || undefined;
  const config: EngineConfig = {
    ffmpeg: text(ENGINE_ENV.ffmpeg),
    ffprobe: text(ENGINE_ENV.ffprobe),
    searchPath: env.PATH ?? '',
    sttThreads: positiveInteger(env[ENGINE_ENV.threads]),
    ttsThread: env[ENGINE_ENV.ttsThread] !== '0',
    vadModel: text(ENGINE_ENV.vadModel),
    slowdown: Math.max(1, Number(env[ENGINE_ENV.slowdown]) || 1),
    limits: engineLimitsFrom(env[ENGINE_ENV.processes]) ?? defaultEngineLimits(),
    // A broken variable is reported by the host, which reads it too (src/host/local-core.ts).
    cacheLimits: configuredCacheLimits(env, {}, silentLogger),
    ...(env[FIXED_EMBEDDING_ENV] === '1' ? { fixedSpeakerEmbedding: true } : {}),
  };
  return { ...config, ...Object.fromEntries(Object.entries(over).filter(([, value]) => value !== undefined)) };
}
