/**
 * A live transcription session's settings, read from either form OpenAI's SDK sends: the GA `session.update`
 * (`session.audio.input.{format, transcription, turn_detection, noise_reduction}`) and the beta
 * `transcription_session.update` (flat `input_audio_format`, `input_audio_transcription`, `turn_detection`,
 * `input_audio_noise_reduction`), and written back in the form the client used.
 */
import type { InputFormat } from './audio-input';

export interface TurnDetection {
  threshold: number;
  silenceMs: number;
  prefixPaddingMs: number;
}

export interface SessionConfig {
  format: InputFormat;
  /** OpenAI's model name (the default model) or an installed model's file name or catalog id. */
  model: string;
  language?: string;
  prompt?: string;
  /** null: the client commits each utterance itself. */
  turnDetection: TurnDetection | null;
  /** Set: the engine cleans each look's audio with GTCRN before VAD and recognition (docs/realtime.md); null: untouched. */
  noiseReduction: 'near_field' | 'far_field' | null;
}

export type SessionForm = 'ga' | 'beta';

export const DEFAULT_TURN_DETECTION: TurnDetection = { threshold: 0.5, silenceMs: 500, prefixPaddingMs: 300 };

export const defaultConfig = (): SessionConfig => ({
  format: 'pcm16-24k',
  model: 'gpt-4o-transcribe',
  turnDetection: { ...DEFAULT_TURN_DETECTION },
  noiseReduction: null,
});

/** A field the client got wrong: `param` names it as the client sent it. */
export class ConfigProblem extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
  }
}

type Fields = Record<string, unknown>;
const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Applies a GA `session.update`'s `session` to `config`, or throws a ConfigProblem. */
export function applyGaSession(config: SessionConfig, session: unknown): SessionConfig {
  if (!isObject(session)) throw new ConfigProblem('session', 'session must be an object.');
  if (session.type !== undefined && session.type !== 'transcription') {
    throw new ConfigProblem(
      'session.type',
      `This server only runs transcription sessions: session.type must be "transcription", not ${JSON.stringify(session.type)}.`,
    );
  }
  const next = { ...config };
  const audio = session.audio;
  if (audio === undefined) return next;
  if (!isObject(audio)) throw new ConfigProblem('session.audio', 'session.audio must be an object.');
  const input = audio.input;
  if (input === undefined) return next;
  if (!isObject(input)) throw new ConfigProblem('session.audio.input', 'session.audio.input must be an object.');
  if (input.format !== undefined) next.format = gaFormat(input.format);
  if (input.transcription !== undefined)
    Object.assign(next, transcription(input.transcription, 'session.audio.input.transcription'));
  if (input.turn_detection !== undefined)
    next.turnDetection = turnDetection(input.turn_detection, 'session.audio.input.turn_detection');
  if (input.noise_reduction !== undefined)
    next.noiseReduction = noiseReduction(input.noise_reduction, 'session.audio.input.noise_reduction');
  return next;
}

/** Applies a beta `transcription_session.update`'s `session` to `config`, or throws a ConfigProblem. */
export function applyBetaSession(config: SessionConfig, session: unknown): SessionConfig {
  if (!isObject(session)) throw new ConfigProblem('session', 'session must be an object.');
  const next = { ...config };
  if (session.input_audio_format !== undefined)
    next.format = betaFormat(session.input_audio_format, session.input_audio_sample_rate);
  if (session.input_audio_transcription !== undefined)
    Object.assign(next, transcription(session.input_audio_transcription, 'session.input_audio_transcription'));
  if (session.turn_detection !== undefined)
    next.turnDetection = turnDetection(session.turn_detection, 'session.turn_detection');
  if (session.input_audio_noise_reduction !== undefined)
    next.noiseReduction = noiseReduction(session.input_audio_noise_reduction, 'session.input_audio_noise_reduction');
  return next;
}

function gaFormat(format: unknown): InputFormat {
  const param = 'session.audio.input.format';
  if (!isObject(format))
    throw new ConfigProblem(param, `${param} must be an object such as {"type": "audio/pcm", "rate": 24000}.`);
  if (format.type === 'audio/pcmu') return 'g711_ulaw';
  if (format.type === 'audio/pcma') return 'g711_alaw';
  if (format.type === 'audio/pcm' || format.type === undefined) return pcmRate(format.rate, `${param}.rate`);
  throw new ConfigProblem(
    `${param}.type`,
    `The input audio format ${JSON.stringify(format.type)} is not supported: use audio/pcm, audio/pcmu or audio/pcma.`,
  );
}

function betaFormat(format: unknown, rate: unknown): InputFormat {
  if (format === 'g711_ulaw') return 'g711_ulaw';
  if (format === 'g711_alaw') return 'g711_alaw';
  if (format === 'pcm16') return pcmRate(rate, 'session.input_audio_sample_rate');
  throw new ConfigProblem(
    'session.input_audio_format',
    `The input audio format ${JSON.stringify(format)} is not supported: use pcm16, g711_ulaw or g711_alaw.`,
  );
}

function pcmRate(rate: unknown, param: string): InputFormat {
  if (rate === undefined || rate === 24_000) return 'pcm16-24k';
  if (rate === 16_000) return 'pcm16-16k';
  throw new ConfigProblem(param, `PCM input must be 24000 Hz (or 16000 Hz), not ${JSON.stringify(rate)}.`);
}

function transcription(value: unknown, param: string): Pick<SessionConfig, 'model' | 'language' | 'prompt'> {
  if (value === null) return { model: 'gpt-4o-transcribe', language: undefined, prompt: undefined };
  if (!isObject(value)) throw new ConfigProblem(param, `${param} must be an object.`);
  const { model, language, prompt } = value;
  if (model !== undefined && (typeof model !== 'string' || model.length === 0 || model.length > 200))
    throw new ConfigProblem(`${param}.model`, `${param}.model must be a model name.`);
  if (
    language !== undefined &&
    language !== null &&
    (typeof language !== 'string' || !/^[A-Za-z0-9-]{1,35}$/.test(language))
  ) {
    throw new ConfigProblem(`${param}.language`, `${param}.language must be a language code such as en.`);
  }
  if (prompt !== undefined && prompt !== null && (typeof prompt !== 'string' || prompt.length > 1024))
    throw new ConfigProblem(`${param}.prompt`, `${param}.prompt must be a text of at most 1024 characters.`);
  return {
    model: typeof model === 'string' ? model : 'gpt-4o-transcribe',
    language: typeof language === 'string' ? language : undefined,
    prompt: typeof prompt === 'string' && prompt !== '' ? prompt : undefined,
  };
}

function turnDetection(value: unknown, param: string): TurnDetection | null {
  if (value === null) return null;
  if (!isObject(value)) throw new ConfigProblem(param, `${param} must be an object or null.`);
  // semantic_vad is served by the same voice activity detection (its eagerness has nothing to act on here).
  if (value.type !== undefined && value.type !== 'server_vad' && value.type !== 'semantic_vad') {
    throw new ConfigProblem(
      `${param}.type`,
      `${param}.type must be server_vad (or semantic_vad), not ${JSON.stringify(value.type)}.`,
    );
  }
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = value[name];
    if (raw === undefined || raw === null) return fallback;
    if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < min || raw > max)
      throw new ConfigProblem(`${param}.${name}`, `${param}.${name} must be a number from ${min} to ${max}.`);
    return raw;
  };
  return {
    threshold: number('threshold', DEFAULT_TURN_DETECTION.threshold, 0, 1),
    silenceMs: number('silence_duration_ms', DEFAULT_TURN_DETECTION.silenceMs, 0, 10_000),
    prefixPaddingMs: number('prefix_padding_ms', DEFAULT_TURN_DETECTION.prefixPaddingMs, 0, 5_000),
  };
}

function noiseReduction(value: unknown, param: string): SessionConfig['noiseReduction'] {
  if (value === null) return null;
  if (isObject(value) && (value.type === 'near_field' || value.type === 'far_field')) return value.type;
  throw new ConfigProblem(param, `${param} must be null or {"type": "near_field" | "far_field"}.`);
}

/** The session as the client sees it in `session.created/updated` or `transcription_session.created/updated`. */
export function describeSession(id: string, config: SessionConfig, form: SessionForm): Record<string, unknown> {
  const transcriptionOut = { model: config.model, language: config.language ?? null, prompt: config.prompt ?? '' };
  const turn = config.turnDetection && {
    type: 'server_vad',
    threshold: config.turnDetection.threshold,
    silence_duration_ms: config.turnDetection.silenceMs,
    prefix_padding_ms: config.turnDetection.prefixPaddingMs,
  };
  const noise = config.noiseReduction && { type: config.noiseReduction };
  if (form === 'beta') {
    return {
      id,
      object: 'realtime.transcription_session',
      input_audio_format: config.format.startsWith('pcm16') ? 'pcm16' : config.format,
      ...(config.format === 'pcm16-16k' ? { input_audio_sample_rate: 16_000 } : {}),
      input_audio_transcription: transcriptionOut,
      turn_detection: turn,
      input_audio_noise_reduction: noise,
      include: [],
    };
  }
  const format =
    config.format === 'g711_ulaw'
      ? { type: 'audio/pcmu' }
      : config.format === 'g711_alaw'
        ? { type: 'audio/pcma' }
        : { type: 'audio/pcm', rate: config.format === 'pcm16-16k' ? 16_000 : 24_000 };
  return {
    type: 'transcription',
    object: 'realtime.transcription_session',
    id,
    audio: { input: { format, transcription: transcriptionOut, turn_detection: turn, noise_reduction: noise } },
    include: [],
  };
}
