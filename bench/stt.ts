/**
 * Recognizers side by side: the same HiFi-TTS clips (../shared/models/audio/hifitts-6097, with reference
 * texts) go through runSttTask with each model, in the engine code the product runs, and each model's
 * real-time factor (processing time / audio duration) is printed beside the others; for a real model also
 * its corpus word error rate against the references. `SPEECH_STUDIO_BENCH_STT_MODELS=a.bin,b.bin` names real
 * models (whisper ggml or Parakeet GGUF); the synthetic random-weight models always run, and their WER
 * (their words match nothing) is printed as meaningless. `SPEECH_STUDIO_BENCH_STT_CLIPS=N` (default 12; 58
 * for the whole set) bounds the clips.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SttOptions } from '../src/contract/types';
import { runSttTask } from '../src/engine/stt/run-stt';
import { sttModelKind } from '../src/engine/stt/stt-model-kind';
import type { Transcript } from '../src/subtitles/types';
import { corpusWordErrors } from '../src/text/word-error-rate';
import { testModel, testModelsDir } from '../test/helpers/test-models';
import { figure, type Figure } from './report';

const OPTIONS: SttOptions = { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto' };

interface Clip {
  file: string;
  text: string;
  duration: number;
}

interface BenchModel {
  file: string;
  synthetic: boolean;
}

async function hifiClips(limit: number): Promise<Clip[]> {
  const dir = path.join(testModelsDir(), 'audio', 'hifitts-6097');
  const lines = (await readFile(path.join(dir, 'manifest.jsonl'), 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '');
  return lines.slice(0, limit).map((line) => {
    const entry = JSON.parse(line) as { audio_filepath: string; text: string; duration: number };
    return { file: path.join(dir, entry.audio_filepath), text: entry.text, duration: entry.duration };
  });
}

/** The synthetic models this checkout can make or find: whisper's always, Parakeet's once its generator exists. */
async function syntheticModels(): Promise<BenchModel[]> {
  const models: BenchModel[] = [{ file: testModel('whisper', 'ggml-synthetic-random.bin'), synthetic: true }];
  const generator = path.join(__dirname, '..', 'test', 'helpers', 'parakeet-model.ts');
  if (existsSync(generator)) {
    const { syntheticParakeetModel } = (await import(generator)) as { syntheticParakeetModel: () => Promise<string> };
    models.push({ file: await syntheticParakeetModel(), synthetic: true });
  }
  return models;
}

async function transcribeClips(
  model: BenchModel,
  clips: readonly Clip[],
  scratch: string,
): Promise<{ seconds: number; texts: string[] }> {
  const texts: string[] = [];
  let seconds = 0;
  for (const [index, clip] of clips.entries()) {
    const workDir = path.join(scratch, `${path.basename(model.file)}-${index}`);
    await mkdir(workDir, { recursive: true });
    const started = performance.now();
    await runSttTask(
      { kind: 'stt', inputPath: clip.file, workDir, modelPath: model.file, options: OPTIONS },
      () => undefined,
    );
    seconds += (performance.now() - started) / 1000;
    const transcript = JSON.parse(await readFile(path.join(workDir, 'transcript.json'), 'utf8')) as Transcript;
    texts.push(transcript.text);
  }
  return { seconds, texts };
}

export async function runSttBench(): Promise<Figure[]> {
  const clips = await hifiClips(Number(process.env.SPEECH_STUDIO_BENCH_STT_CLIPS ?? 12));
  const audioSeconds = clips.reduce((sum, clip) => sum + clip.duration, 0);
  const real = (process.env.SPEECH_STUDIO_BENCH_STT_MODELS ?? '')
    .split(',')
    .filter((file) => file.trim() !== '')
    .map((file) => ({ file: path.resolve(file.trim()), synthetic: false }));
  const models = [...real, ...(await syntheticModels())];
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'speech-bench-stt-'));
  const figures: Figure[] = [];
  try {
    for (const model of models) {
      const kind = sttModelKind(model.file) ?? 'unknown format';
      const { seconds, texts } = await transcribeClips(model, clips, scratch);
      const label = `${kind} ${path.basename(model.file)}`;
      const about = `${clips.length} HiFi-TTS clips, ${audioSeconds.toFixed(1)} s of audio, ${os.cpus().length} cores${model.synthetic ? ', synthetic random weights' : ''}`;
      figures.push(figure('stt', `real-time factor, ${label}`, seconds / audioSeconds, '×', undefined, about));
      const errors = corpusWordErrors(clips.map((clip, i) => ({ reference: clip.text, hypothesis: texts[i] })));
      const werDetail = model.synthetic
        ? 'MEANINGLESS: random weights recognize nothing; name a real model in SPEECH_STUDIO_BENCH_STT_MODELS'
        : `${errors.substitutions} substituted, ${errors.deletions} deleted, ${errors.insertions} inserted of ${errors.referenceWords} words`;
      figures.push(figure('stt', `word error rate, ${label}`, errors.wer * 100, '%', undefined, werDetail));
    }
    return figures;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
