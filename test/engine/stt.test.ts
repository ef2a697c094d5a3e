import assert from 'node:assert/strict';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SttOptions } from '../../src/contract/types';
import { UserFacingError, type EnginePhase, type SttTask } from '../../src/engine-api/protocol';
import { readWavSamples } from '../../src/audio/wav-reader';
import { runSttTask } from '../../src/engine/stt/run-stt';
import { detectSpeech } from '../../src/engine/stt/speech-vad';
import { renderTranscript } from '../../src/subtitles/render';
import type { Transcript } from '../../src/subtitles/types';
import { encodeAudio, encodeVideoWithoutAudio, writeEmptyWav } from '../helpers/media-fixtures';
import { assertMonotonicCues, parseSrt, parseVtt } from '../helpers/subtitles';
import { writeMultilingualWhisper } from '../helpers/multilingual-whisper';
import { installSttModel, sttEngineUnderTest } from '../helpers/stt-engine';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';
import { configureTestEngine } from '../helpers/engine-config';

const engine = sttEngineUnderTest();
const WHISPER_MODEL = 'ggml-synthetic-random.bin';
const JFK_SECONDS = 11;
const defaults: SttOptions = { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto' };

interface Run {
  transcript: Transcript;
  result: Record<string, unknown>;
  backend: string;
  progress: Array<[EnginePhase, number]>;
}

describe(`runSttTask with ${engine.transcriptBackend} (random-weight model: structure only, never words)`, () => {
  let root = '';
  let fixtures = '';
  /** `<data>/models/{whisper,vad,diarization}` as the product installs them. */
  let fullModel = '';
  /** Only the model: no VAD, no diarization. */
  let bareModel = '';
  /** A multilingual variant of the synthetic model, with VAD. */
  let multilingualModel = '';
  let jobCount = 0;
  let restoreConfig = (): void => undefined;

  before(async () => {
    restoreConfig = configureTestEngine({ sttThreads: 2 });
    root = await tempDir('speech-studio-stt-');
    fixtures = path.join(root, 'fixtures');
    await mkdir(fixtures);
    fullModel = await installModels(path.join(root, 'full'), { vad: true, diarization: true });
    bareModel = await installModels(path.join(root, 'bare'), { vad: false, diarization: false });
    // Only whisper has languages to detect: the Parakeet pass skips that test and needs no such model.
    if (engine.detectsLanguage) {
      multilingualModel = await writeMultilingualWhisper(
        path.dirname(await installModels(path.join(root, 'multilingual'), { vad: true, diarization: false })),
      );
    }
  });

  after(async () => {
    restoreConfig();
    await rm(root, { recursive: true, force: true });
  });

  async function transcribe(inputPath: string, options: Partial<SttOptions> = {}, modelPath = fullModel): Promise<Run> {
    const workDir = path.join(root, 'jobs', String((jobCount += 1)));
    const task: SttTask = { kind: 'stt', inputPath, workDir, modelPath, options: { ...defaults, ...options } };
    const progress: Array<[EnginePhase, number]> = [];
    const outcome = await runSttTask(task, (phase, value) => progress.push([phase, value]));
    const transcript = JSON.parse(await readFile(path.join(workDir, 'transcript.json'), 'utf8')) as Transcript;
    return { transcript, result: outcome.result, backend: outcome.backend, progress };
  }

  // The recognizer hears the same samples from every container, video or not (stt-decode.test.ts compares them
  // with the recording, on both ffmpegs), and test/api/stt-jobs.test.ts transcribes every container and an MP4
  // with a video track end to end through the engine process; here WAV proves the task's transcript, outcome
  // and progress.
  it('transcribes wav to a structurally valid transcript', async () => {
    const input = await encodeAudio(testModel('audio/jfk.wav'), fixtures, 'wav', 'jfk-wav');
    const run = await transcribe(input);
    assertOutcome(run, { durationSeconds: JFK_SECONDS, speakerCount: null });
    assertTranscript(run.transcript, 0, run.transcript.durationSeconds);
    assert.ok(run.transcript.segments.length > 0, 'the random model still yields segments on speech');
    assertProgress(run.progress, ['decoding', 'loading_model', 'transcribing', 'postprocessing']);
  });

  it(
    "times words by whisper's token timestamps; no word and no cue starts in a pause VAD found",
    { skip: engine.wordTiming !== 'recognizer' },
    async () => {
      const run = await transcribe(testModel('audio/jfk.wav'));
      const { transcript } = run;
      assert.equal(transcript.wordTiming, 'recognizer');
      const words = transcript.segments.flatMap((segment) => segment.words);
      assert.ok(words.length > 0);
      for (const word of words) assert.equal(word.timing, undefined, `${word.text} is timed by the recognizer`);
      const { samples } = readWavSamples(await readFile(testModel('audio/jfk.wav')));
      const speech = await detectSpeech(samples, testModel('vad/ggml-silero-v6.2.0.bin'), 2);
      const inSpeech = (seconds: number): boolean =>
        speech.some((range) => seconds >= range.start - 0.001 && seconds <= range.end + 0.001);
      for (const word of words)
        assert.ok(inSpeech(word.start), `word "${word.text}" starts at ${word.start}, inside speech`);
      const cues = parseSrt(renderTranscript(transcript, 'srt').body);
      const wordStarts = new Set(words.map((word) => word.start));
      for (const cue of cues) {
        assert.ok(wordStarts.has(cue.start), `cue at ${cue.start} starts where a word starts`);
        assert.ok(inSpeech(cue.start), `cue at ${cue.start} starts inside speech`);
      }
    },
  );

  it('keeps timestamps relative to the original file when cropped', async () => {
    const run = await transcribe(testModel('audio/jfk.wav'), { cropStartSeconds: 2, cropEndSeconds: 8 });
    assertOutcome(run, { durationSeconds: JFK_SECONDS, speakerCount: null });
    assertTranscript(run.transcript, 2, 8);
    assert.ok(run.transcript.segments.length > 0);
  });

  it(
    "estimates word times within Parakeet's spans; no cue starts in a pause VAD found",
    { skip: engine.name !== 'parakeet' },
    async () => {
      const { transcript } = await transcribe(testModel('audio/jfk.wav'));
      assert.equal(transcript.wordTiming, 'estimated');
      const words = transcript.segments.flatMap((segment) => segment.words);
      assert.ok(words.length > 0);
      for (const word of words) assert.equal(word.timing, 'estimated');
      const { samples } = readWavSamples(await readFile(testModel('audio/jfk.wav')));
      const speech = await detectSpeech(samples, testModel('vad/ggml-silero-v6.2.0.bin'), 2);
      const inSpeech = (seconds: number): boolean =>
        speech.some((range) => seconds >= range.start - 0.001 && seconds <= range.end + 0.001);
      for (const cue of parseSrt(renderTranscript(transcript, 'srt').body))
        assert.ok(inSpeech(cue.start), `cue at ${cue.start} starts inside speech`);
    },
  );

  it(
    'reports language "und" for auto with Parakeet, which does not say what it heard',
    { skip: engine.name !== 'parakeet' },
    async () => {
      const run = await transcribe(testModel('audio/jfk.wav'), { language: 'auto' });
      assert.equal(run.result.language, 'und');
      assert.ok(run.transcript.segments.length > 0);
      assert.ok(!run.progress.some(([phase]) => phase === 'detecting_language'), 'no language detection step');
    },
  );

  it(
    'switches between a Parakeet and a whisper model in one engine process',
    { skip: engine.name !== 'parakeet' },
    async () => {
      const whisperDir = path.join(root, 'whisper-too');
      const whisper = await installSttModel(whisperDir, {
        ...engine,
        name: 'whisper',
        folder: 'whisper',
        modelName: WHISPER_MODEL,
      });
      assert.equal((await transcribe(testModel('audio/jfk.wav'), {}, whisper)).backend, 'whisper.cpp');
      assert.equal((await transcribe(testModel('audio/jfk.wav'))).backend, engine.backend);
    },
  );

  it('detects a language for auto and reports it', { skip: !engine.detectsLanguage }, async () => {
    // Only a multilingual model has languages to detect (the shared synthetic model is English-only).
    const run = await transcribe(testModel('audio/jfk.wav'), { language: 'auto' }, multilingualModel);
    assert.match(String(run.result.language), /^[a-z]{2,3}$/);
    assert.equal(run.transcript.language, run.result.language);
    assert.ok(run.progress.some(([phase]) => phase === 'detecting_language'));
  });

  it('transcribes without VAD when no VAD model is installed (and swaps the loaded model)', async () => {
    const run = await transcribe(testModel('audio/jfk.wav'), {}, bareModel);
    assertOutcome(run, { durationSeconds: JFK_SECONDS, speakerCount: null });
    assertTranscript(run.transcript, 0, JFK_SECONDS);
  });

  it('gives an empty transcript, language "und", for audio where VAD finds no speech', async () => {
    const run = await transcribe(testModel('audio/noise-no-speech.wav'), { language: 'auto' });
    assert.equal(run.result.segmentCount, 0);
    assert.equal(run.result.language, 'und');
    assert.equal(renderTranscript(run.transcript, 'srt').body, '');
  });

  it('strips punctuation from segments and words when punctuation is off', async () => {
    const run = await transcribe(testModel('audio/jfk.wav'), { punctuation: false });
    for (const segment of run.transcript.segments) {
      assert.doesNotMatch(segment.text, /[.,!?;:"]/);
      for (const word of segment.words) assert.doesNotMatch(word.text, /[.,!?;:"]/);
    }
  });

  it('labels segments and words with speakers when diarization models are installed', async () => {
    const input = testModel('audio/multispeaker/pyannote-sample.wav');
    const run = await transcribe(input, { diarizationEnabled: true, speakerCountMode: 'exact', speakerCount: 2 });
    const { transcript } = run;
    assert.ok(Array.isArray(transcript.speakers));
    assert.equal(run.result.speakerCount, transcript.speakers.length);
    assert.deepEqual(
      transcript.speakers,
      transcript.speakers.map((_, i) => `Speaker ${i + 1}`),
    );
    assert.ok(transcript.segments.length > 0);
    for (const segment of transcript.segments) {
      assert.ok(transcript.speakers.includes(String(segment.speaker)), `segment speaker ${segment.speaker}`);
      for (const word of segment.words) assert.ok(transcript.speakers.includes(String(word.speaker)));
    }
    assertTranscript(transcript, 0, transcript.durationSeconds);
    assertProgress(run.progress, ['decoding', 'loading_model', 'transcribing', 'diarizing', 'postprocessing']);
    assert.match(renderTranscript(transcript, 'txt').body, /^Speaker \d+: /);
  });

  it('skips diarization, speakerCount null, when the diarization models are not installed', async () => {
    const run = await transcribe(testModel('audio/jfk.wav'), { diarizationEnabled: true }, bareModel);
    assert.equal(run.result.speakerCount, null);
    assert.equal(run.transcript.speakers, null);
  });

  describe('refuses unusable input with a sentence for the user', () => {
    it('a text file named .mp3', async () => {
      const input = path.join(fixtures, 'not-audio.mp3');
      await writeFile(input, 'This is not audio, just some text pretending to be an MP3 file.\n'.repeat(20));
      await assert.rejects(transcribe(input), userError(/^The file is not a media file ffmpeg can read: \S/));
    });

    it('a video without audio', async () => {
      await assert.rejects(
        transcribe(await encodeVideoWithoutAudio(fixtures)),
        userError(/^The file has no audio stream\.$/),
      );
    });

    it('a WAV with no samples', async () => {
      await assert.rejects(
        transcribe(await writeEmptyWav(fixtures)),
        userError(/^The file contains no audio \(0 seconds\)\.$/),
      );
    });

    it('a crop that starts after the end', async () => {
      await assert.rejects(
        transcribe(testModel('audio/jfk.wav'), { cropStartSeconds: 20 }),
        userError(/^The crop start \(20 s\) is at or beyond the end of the file \(11 s\)\.$/),
      );
    });

    it('a language whisper does not know', async () => {
      await assert.rejects(
        transcribe(testModel('audio/jfk.wav'), { language: 'xx' }),
        userError(/cannot transcribe the language "xx"/),
      );
    });

    it('a missing ffmpeg or ffprobe', async () => {
      const ffmpeg = path.join(root, 'no-such-dir', 'ffmpeg');
      let restore = configureTestEngine({ sttThreads: 2, ffmpeg });
      try {
        await assert.rejects(transcribe(testModel('audio/jfk.wav')), userError(/^ffmpeg was not found \(its ffprobe/));
        restore();
        restore = configureTestEngine({ sttThreads: 2, ffmpeg, ffprobe: 'ffprobe' });
        await assert.rejects(transcribe(testModel('audio/jfk.wav')), userError(/^ffmpeg was not found; install it/));
      } finally {
        restore();
      }
    });

    it('a language the Parakeet model does not cover', { skip: engine.name !== 'parakeet' }, async () => {
      await assert.rejects(
        transcribe(testModel('audio/jfk.wav'), { language: 'ja' }),
        userError(/cannot transcribe "ja"; it covers en, bg/),
      );
    });

    it('a model that is not installed', async () => {
      const missing = path.join(root, 'full', 'models', 'whisper', 'ggml-missing.bin');
      await assert.rejects(transcribe(testModel('audio/jfk.wav'), {}, missing), userError(/is not installed/));
    });
  });
});

async function installModels(dataDir: string, parts: { vad: boolean; diarization: boolean }): Promise<string> {
  const models = path.join(dataDir, 'models');
  const model = await installSttModel(dataDir);
  if (parts.vad) {
    await mkdir(path.join(models, 'vad'));
    await symlink(testModel('vad/ggml-silero-v6.2.0.bin'), path.join(models, 'vad', 'ggml-silero-v6.2.0.bin'));
  }
  if (parts.diarization) {
    await mkdir(path.join(models, 'diarization'));
    for (const name of ['segmentation.onnx', 'embedding.onnx']) {
      await symlink(testModel(`sherpa-synthetic/diarization/${name}`), path.join(models, 'diarization', name));
    }
  }
  return model;
}

function userError(message: RegExp) {
  return (error: unknown): boolean => {
    assert.ok(error instanceof UserFacingError, `expected a UserFacingError, got ${String(error)}`);
    assert.match(error.message, message);
    return true;
  };
}

function assertOutcome(run: Run, expected: { durationSeconds: number; speakerCount: null }): void {
  assert.equal(run.backend, engine.backend);
  const { result, transcript } = run;
  // Lossy codecs pad a few frames; the length is still the file's, not the speech's.
  assert.ok(
    Math.abs(Number(result.durationSeconds) - expected.durationSeconds) < 0.2,
    `duration ${String(result.durationSeconds)}`,
  );
  assert.deepEqual(result, {
    language: transcript.language,
    durationSeconds: transcript.durationSeconds,
    segmentCount: transcript.segments.length,
    speakerCount: expected.speakerCount,
    transcriptFormats: ['txt', 'srt', 'vtt', 'json-simple', 'json-full'],
    model: engine.modelName,
  });
  assert.equal(transcript.backend, engine.transcriptBackend);
  assert.equal(transcript.model, engine.modelName);
}

/** Segments ordered, non-overlapping, inside [from, to]; words inside their segment; every format renders. */
function assertTranscript(transcript: Transcript, from: number, to: number): void {
  let previousEnd = from;
  for (const segment of transcript.segments) {
    assert.ok(segment.start < segment.end, `start < end: ${segment.start} ${segment.end}`);
    assert.ok(segment.start >= previousEnd, `ordered: ${segment.start} >= ${previousEnd}`);
    assert.ok(segment.end <= to, `within the audio: ${segment.end} <= ${to}`);
    assert.ok(segment.text.length > 0);
    assert.ok(segment.words.length > 0);
    for (const word of segment.words) {
      assert.ok(word.start >= segment.start && word.end <= segment.end && word.start <= word.end);
      assert.ok(word.text.length > 0);
    }
    previousEnd = segment.end;
  }
  assertMonotonicCues(parseSrt(renderTranscript(transcript, 'srt').body));
  assertMonotonicCues(parseVtt(renderTranscript(transcript, 'vtt').body));
  assert.equal(
    JSON.parse(renderTranscript(transcript, 'json-simple').body).segments.length,
    transcript.segments.length,
  );
}

function assertProgress(progress: ReadonlyArray<[EnginePhase, number]>, phases: readonly EnginePhase[]): void {
  const values = progress.map(([, value]) => value);
  assert.deepEqual(
    values,
    [...values].sort((a, b) => a - b),
    'progress only rises',
  );
  assert.ok(
    values.every((value) => value >= 0 && value <= 99),
    'progress stays in 0–99',
  );
  const seen = [...new Set(progress.map(([phase]) => phase))].filter((phase) => phase !== 'detecting_language');
  assert.deepEqual(seen, phases);
}
