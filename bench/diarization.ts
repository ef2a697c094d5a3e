/**
 * `npm run bench -- diarization`: the diarization error rate (bench/der.ts, no collar) of the diarization
 * models on every RTTM-annotated sample of the test models (`audio/multispeaker/*.rttm` beside its `.wav`).
 * The models: SPEECH_STUDIO_BENCH_DIARIZATION_DIR (a folder with segmentation.onnx and embedding.onnx, e.g.
 * `<data-dir>/models/diarization`), else the random-weight test models, whose figure means nothing and says so.
 * The diarizer runs in this bench process (the engine's own code), never in a server.
 */
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decodeToPcm16 } from '../src/engine/media/decode-pcm16';
import { mediaToolchain } from '../src/engine/media/media-toolchain';
import { diarizeSpeakers } from '../src/engine/stt/diarize';
import { testModel } from '../test/helpers/test-models';
import { diarizationErrorRate, parseRttm } from './der';
import { figure } from './report';

export const DIARIZATION_DIR_ENV = 'SPEECH_STUDIO_BENCH_DIARIZATION_DIR';

export async function runDiarizationBench(): Promise<unknown> {
  const configured = process.env[DIARIZATION_DIR_ENV]?.trim();
  const dir = configured || testModel('sherpa-synthetic', 'diarization');
  const models = { segmentation: path.join(dir, 'segmentation.onnx'), embedding: path.join(dir, 'embedding.onnx') };
  const meaning = configured
    ? `models in ${dir}`
    : 'random-weight test models: MEANINGLESS, set SPEECH_STUDIO_BENCH_DIARIZATION_DIR for real ones';
  const samples = testModel('audio', 'multispeaker');
  const annotated = (await readdir(samples)).filter((name) => name.endsWith('.rttm')).sort();
  if (annotated.length === 0) throw new Error(`No RTTM-annotated samples in ${samples}`);
  const figures = [];
  for (const rttm of annotated) {
    const wav = path.join(samples, rttm.replace(/\.rttm$/, '.wav'));
    const reference = parseRttm(await readFile(path.join(samples, rttm), 'utf8'));
    const pcm = await decodeToPcm16(wav, mediaToolchain());
    const started = performance.now();
    const turns = await diarizeSpeakers(pcm, models, {
      speakerCountMode: 'auto',
      threads: Math.min(2, os.availableParallelism()),
    });
    const seconds = (performance.now() - started) / 1000;
    const score = diarizationErrorRate(
      reference,
      turns.map((turn) => ({ start: turn.start, end: turn.end, speaker: String(turn.speaker) })),
    );
    const found = new Set(turns.map((turn) => turn.speaker)).size;
    const expected = new Set(reference.map((turn) => turn.speaker)).size;
    figures.push(
      figure(
        'diarize',
        `DER, ${rttm.replace(/\.rttm$/, '')}`,
        score.der * 100,
        '%',
        undefined,
        `missed ${score.missed.toFixed(1)} s, false alarm ${score.falseAlarm.toFixed(1)} s, confusion ${score.confusion.toFixed(1)} s of ${score.referenceSeconds.toFixed(1)} s; ` +
          `${found} speakers found, ${expected} annotated; ${meaning}`,
      ),
    );
    figures.push(
      figure(
        'diarize',
        `real-time factor, ${rttm.replace(/\.rttm$/, '')}`,
        seconds / (pcm.length / 16_000),
        '×',
        undefined,
        `load ${os.loadavg()[0].toFixed(2)}`,
      ),
    );
  }
  return figures;
}
