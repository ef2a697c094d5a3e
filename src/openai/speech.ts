/**
 * POST /audio/speech: translates OpenAI's request into a Local API TTS request, admits it exactly as
 * POST /tts/jobs does (same validator, voice and queue checks), runs it as a live Local API job and streams
 * the audio as the engine writes it. A client that goes away cancels the job.
 */
import { jsonBody } from '../http/request-body';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { Readable } from 'node:stream';
import { ApiError, invalidRequest } from '../contract/errors';
import type { OpenAiSpeechFormat } from '../contract/openapi-openai';
import { TTS_SPEED, type OutputFormat } from '../contract/openapi';
import type { ExtraOutputFormat } from '../engine-api/protocol';
import { admitTts } from '../jobs/admission';
import { admitSsml, looksLikeSsml, ssmlAudioFolders } from '../jobs/ssml-admission';
import type { AppDeps } from '../jobs/app-deps';
import { requireFeature } from '../http/security';
import { cancelJobWhenClientLeaves } from '../http/client-gone';
import { openSse } from '../http/sse';
import { JobEndedError, streamingWav, tailJobOutput } from './audio-stream';
import type { OpenAiDoor } from './door';
import { openAiErrorOf } from './errors';
import { resolveVoice } from '../voices/voice-map';

/** OpenAI's model names for speech; our engine names pick that engine's voices. */
const OPENAI_TTS_MODELS = /^(tts-1(-hd)?|gpt-4o-mini-tts(-[\w-]+)?)$/;
const ENGINE_MODELS = new Set(['espeak-ng', 'flite', 'svox-pico', 'sherpa-onnx']);
/** OpenAI's audio comes at 24 kHz; `pcm` is defined as 24 kHz 16-bit mono. */
const SAMPLE_RATE = 24_000;

/**
 * The Local API's output format each OpenAI format is admitted as, and the engine's own format for the two the
 * Local API does not offer (the engine encodes opus and pcm itself, with the wav request's rate and channels).
 */
const ENGINE_FORMAT: Record<OpenAiSpeechFormat, OutputFormat> = {
  mp3: 'mp3',
  aac: 'aac',
  flac: 'flac',
  wav: 'wav',
  pcm: 'wav',
  opus: 'wav',
};
const ENCODE_AS: Partial<Record<OpenAiSpeechFormat, ExtraOutputFormat>> = { pcm: 'pcm', opus: 'opus' };
const CONTENT_TYPE: Record<OpenAiSpeechFormat, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

export const JOB_ID_HEADER = 'X-Speech-Studio-Job-Id';
export const IGNORED_HEADER = 'X-Speech-Studio-Ignored';

function shaped(source: AsyncIterable<Buffer>, format: OpenAiSpeechFormat): AsyncIterable<Buffer> {
  return format === 'wav' ? streamingWav(source) : source;
}

export function speechRoute(router: Router, deps: AppDeps, door: OpenAiDoor): void {
  const parseJson = jsonBody();
  router.post(
    '/audio/speech',
    requireFeature(deps.entitlements, 'tts'),
    async (ctx, next) => {
      if (!ctx.is('application/json'))
        throw invalidRequest('body: must be JSON sent with Content-Type: application/json');
      await next();
    },
    parseJson,
    (ctx) => createSpeech(ctx, deps, door),
  );
}

async function createSpeech(ctx: Context, deps: AppDeps, door: OpenAiDoor): Promise<void> {
  const checked = door.validators.speech(ctx.request.body);
  if (!checked.ok) throw invalidRequest(checked.message);
  const body = checked.value;
  const ignored: string[] = [];

  const engine = ENGINE_MODELS.has(body.model) ? body.model : undefined;
  if (!engine && !OPENAI_TTS_MODELS.test(body.model)) {
    throw invalidRequest(
      `model: ${JSON.stringify(body.model)} is not a speech model here; use tts-1, tts-1-hd, gpt-4o-mini-tts or ${[...ENGINE_MODELS].join(', ')}`,
    );
  }
  const wanted = typeof body.voice === 'string' ? body.voice : body.voice.id;
  const match = resolveVoice(deps.voices, wanted, door.voiceOverrides, engine);
  if (!match.found) {
    throw invalidRequest(
      `voice: no voice ${JSON.stringify(wanted.slice(0, 100))}; use an OpenAI voice name (alloy, ash, coral, echo, fable, nova, onyx, sage, shimmer, …) or a voice id or exact name from GET /voices`,
    );
  }
  if (engine && match.entry.engine !== engine) {
    throw invalidRequest(
      `voice: ${match.entry.voice.name} is a ${match.entry.engine} voice, not one of the model ${engine}`,
    );
  }
  const speed = Math.min(TTS_SPEED.max, Math.max(TTS_SPEED.min, body.speed));
  if (speed !== body.speed) ignored.push(`speed ${body.speed} clamped to ${speed}`);
  if (body.instructions !== undefined) ignored.push('instructions');
  for (const key of Object.keys(body)) {
    if (!['model', 'input', 'voice', 'instructions', 'response_format', 'speed', 'stream_format'].includes(key))
      ignored.push(key);
  }

  const format = body.response_format;
  const engineFormat = ENGINE_FORMAT[format];
  // The Local API's request, through the Local API's own validator: one set of rules for both doors.
  const admitted = admitTts(
    deps.validators,
    {
      voiceId: match.entry.voice.id,
      text: body.input,
      outputFormat: engineFormat,
      sampleRate: SAMPLE_RATE,
      bitrateKbps: engineFormat === 'mp3' || engineFormat === 'aac' ? 128 : null,
      speed,
    },
    deps.voices,
  );
  // An input that starts with <speak> is SSML (docs/ssml.md); the core reads it, this door only passes it on.
  const ssml = looksLikeSsml(body.input)
    ? await admitSsml(body.input, deps.voices, ssmlAudioFolders(deps), 'input')
    : undefined;
  // The job service takes the queue place itself and gives it back if the job cannot be created.
  const job = await deps.jobs.createTtsJob({
    origin: 'api',
    ...admitted,
    name: `OpenAI speech (${format}): ${snippet(body.input)}`,
    live: true,
    encodeAs: ENCODE_AS[format],
    ...(ssml ? { ssml } : {}),
  });
  if (ignored.length > 0)
    deps.log.info(`POST /audio/speech (job ${job.id}): accepted but not honoured: ${ignored.join('; ')}`);

  const gone = cancelJobWhenClientLeaves(ctx, deps.jobs, job.id);
  ctx.set(JOB_ID_HEADER, job.id);
  if (ignored.length > 0) ctx.set(IGNORED_HEADER, ignored.join('; ').slice(0, 500));
  const audio = shaped(tailJobOutput(deps.jobs, job.id, gone), format);

  if (body.stream_format === 'sse') {
    const sse = openSse(ctx);
    void (async () => {
      try {
        for await (const chunk of audio) {
          if (!sse.send({ data: { type: 'speech.audio.delta', audio: chunk.toString('base64') } })) await sse.drained();
          if (sse.closed) return;
        }
        const characters = body.input.length;
        sse.send({
          data: {
            type: 'speech.audio.done',
            usage: { input_tokens: characters, output_tokens: 0, total_tokens: characters },
          },
        });
      } catch (error) {
        if (!sse.closed)
          sse.send({
            event: 'error',
            data: openAiErrorOf(new ApiError('INTERNAL_ERROR', describeFailure(error)), deps.log),
          });
      } finally {
        sse.end();
      }
    })();
    return;
  }

  // The status is only committed with the first bytes, so a job that fails before any audio gets an error answer.
  const iterator = audio[Symbol.asyncIterator]();
  let first: IteratorResult<Buffer>;
  try {
    first = await iterator.next();
  } catch (error) {
    throw new ApiError('INTERNAL_ERROR', `The speech job ${job.id} did not produce audio: ${describeFailure(error)}`);
  }
  ctx.type = CONTENT_TYPE[format];
  ctx.body = Readable.from(
    (async function* () {
      try {
        if (first.done) return;
        yield first.value;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      } finally {
        await iterator.return?.(undefined);
      }
    })(),
    { objectMode: false },
  );
}

function describeFailure(error: unknown): string {
  if (error instanceof JobEndedError) return error.job.status === 'cancelled' ? 'the job was cancelled' : error.message;
  return error instanceof Error ? error.message : String(error);
}

function snippet(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}
