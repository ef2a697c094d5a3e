/**
 * GET /models and GET /models/{id}: the installed STT models (whisper.cpp and Parakeet) and the TTS engines that have ready
 * voices, as OpenAI model objects, plus the OpenAI names they answer to (`whisper-1`, `tts-1`, …).
 */
import type Router from '@koa/router';
import { promises as fs } from 'node:fs';
import { ApiError } from '../contract/errors';
import { listSttModels } from '../models/installed-models';
import type { VoiceLibrary } from '../voices/library';
import type { AppDeps } from '../jobs/app-deps';

export interface OpenAiModel {
  id: string;
  object: 'model';
  /** Unix seconds: the file's time for installed models, 0 for what ships with Speech Studio. */
  created: number;
  owned_by: string;
  /** Ours: what the model does, and for aliases which model answers. */
  kind: 'speech-to-text' | 'text-to-speech';
  alias_of?: string;
  voices?: number;
  /** Ours: the languages a Parakeet model covers (a whisper model takes any language it knows). */
  languages?: readonly string[];
}

/** Ready voices per engine, from one reading of the voice library (a reading per voice took seconds). */
function readyVoicesByEngine(voices: VoiceLibrary): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { voice, engine } of voices.entries()) {
    if (voice.availability === 'ready') counts.set(engine, (counts.get(engine) ?? 0) + 1);
  }
  return counts;
}

export async function listOpenAiModels(deps: AppDeps): Promise<OpenAiModel[]> {
  const models: OpenAiModel[] = [];
  const stt = await listSttModels(deps.dataDir);
  for (const model of stt) {
    const stat = await fs.stat(model.path).catch(() => undefined);
    const created = Math.floor((stat?.mtimeMs ?? 0) / 1000);
    models.push(
      model.engine === 'parakeet'
        ? {
            id: model.name,
            object: 'model',
            created,
            owned_by: 'parakeet',
            kind: 'speech-to-text',
            languages: model.languages ?? [],
          }
        : { id: model.name, object: 'model', created, owned_by: 'whisper.cpp', kind: 'speech-to-text' },
    );
  }
  if (stt.length > 0) {
    const preferred = deps.preferredSttModel?.();
    const best = stt.some((model) => model.engine === 'parakeet')
      ? 'the installed model that fits the language best: Parakeet for its languages, else the largest whisper model'
      : 'the largest installed whisper model that fits the language';
    models.push({
      id: 'whisper-1',
      object: 'model',
      created: 0,
      owned_by: 'speech-studio',
      kind: 'speech-to-text',
      alias_of: preferred ?? best,
    });
  }
  const engines = readyVoicesByEngine(deps.voices);
  for (const [engine, count] of [...engines].sort(([a], [b]) => a.localeCompare(b))) {
    models.push({
      id: engine,
      object: 'model',
      created: 0,
      owned_by: 'speech-studio',
      kind: 'text-to-speech',
      voices: count,
    });
  }
  if (engines.size > 0) {
    for (const id of ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']) {
      models.push({
        id,
        object: 'model',
        created: 0,
        owned_by: 'speech-studio',
        kind: 'text-to-speech',
        alias_of: 'the voice named in the request (OpenAI voice names map to ready voices)',
      });
    }
  }
  return models;
}

export function modelsRoute(router: Router, deps: AppDeps): void {
  router.get('/models', async (ctx) => {
    ctx.body = { object: 'list', data: await listOpenAiModels(deps) };
  });
  router.get('/models/:id', async (ctx) => {
    const model = (await listOpenAiModels(deps)).find((candidate) => candidate.id === ctx.params.id);
    if (!model)
      throw new ApiError(
        'NOT_FOUND',
        `model: no model ${JSON.stringify(ctx.params.id.slice(0, 100))} is installed (see GET /models).`,
      );
    ctx.body = model;
  });
}
