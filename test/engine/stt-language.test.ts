/**
 * The language of an STT job: whisper decodes with the language asked for, and the job reports that
 * language, never one left over from an earlier job's detection. Random-weight models: languages only.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SttOptions } from '../../src/contract/types';
import { UserFacingError, type EnginePhase } from '../../src/engine-api/protocol';
import { runSttTask } from '../../src/engine/stt/run-stt';
import { decodeToPcm16 } from '../../src/engine/media/decode-pcm16';
import { findMediaTools } from '../../src/engine/media/ffmpeg';
import { readWhisperModelHeader } from '../../src/engine/stt/whisper-model-header';
import { loadWhisperModel, transcribePcm16 } from '../../src/engine/stt/whisper-session';
import { renderTranscript } from '../../src/subtitles/render';
import type { Transcript } from '../../src/subtitles/types';
import { writeMultilingualWhisper } from '../helpers/multilingual-whisper';
import { tempDir } from '../helpers/temp';
import { testModel } from '../helpers/test-models';
import { configureTestEngine } from '../helpers/engine-config';

const defaults: SttOptions = { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto' };

describe('the language of an STT job', () => {
  let root = '';
  let multilingual = '';
  let englishOnly = '';
  let jobs = 0;
  let restoreConfig = (): void => undefined;

  before(async () => {
    restoreConfig = configureTestEngine({ sttThreads: 2 });
    root = await tempDir('speech-studio-stt-language-');
    const whisperDir = path.join(root, 'models', 'whisper');
    await mkdir(whisperDir, { recursive: true });
    multilingual = await writeMultilingualWhisper(whisperDir);
    englishOnly = path.join(whisperDir, 'ggml-synthetic-random.bin');
    await symlink(testModel('whisper', 'ggml-synthetic-random.bin'), englishOnly);
  });

  after(async () => {
    restoreConfig();
    await rm(root, { recursive: true, force: true });
  });

  async function transcribe(modelPath: string, language: string) {
    const workDir = path.join(root, 'jobs', String((jobs += 1)));
    const progress: EnginePhase[] = [];
    const outcome = await runSttTask(
      { kind: 'stt', inputPath: testModel('audio/jfk.wav'), workDir, modelPath, options: { ...defaults, language } },
      (phase) => progress.push(phase),
    );
    const transcript = JSON.parse(await readFile(path.join(workDir, 'transcript.json'), 'utf8')) as Transcript;
    return { result: outcome.result, transcript, progress };
  }

  it('tells the two test models apart by their vocabulary', async () => {
    assert.deepEqual(await readWhisperModelHeader(multilingual), { vocabularySize: 51_865, multilingual: true });
    assert.deepEqual(await readWhisperModelHeader(englishOnly), { vocabularySize: 51_864, multilingual: false });
  });

  it('whisper puts the asked language in its decoder prompt, also right after an auto job detected another', async () => {
    const pcm = await decodeToPcm16(testModel('audio/jfk.wav'), findMediaTools());
    const context = await loadWhisperModel(multilingual);
    const run = (language: string) => transcribePcm16(context, pcm, { language, multilingual: true, threads: 2 });

    const detected = await run('auto');
    assert.match(String(detected.promptLanguage), /^[a-z]{2,3}$/);
    assert.equal(detected.language, detected.promptLanguage);
    // Pick languages the detection did not land on, so a stale language id cannot pass for them.
    for (const language of ['fr', 'de', 'en', 'ja'].filter((code) => code !== detected.promptLanguage)) {
      const output = await run(language);
      assert.equal(output.promptLanguage, language, `the language token in whisper's prompt for ${language}`);
      assert.equal(output.language, language);
    }
  });

  it('reports the asked language in the result and in every transcript, after an auto job', async () => {
    const auto = await transcribe(multilingual, 'auto');
    assert.ok(auto.progress.includes('detecting_language'));
    assert.match(String(auto.result.language), /^[a-z]{2,3}$/);
    const wanted = auto.result.language === 'fr' ? 'de' : 'fr';
    const asked = await transcribe(multilingual, wanted);
    assert.equal(asked.result.language, wanted);
    assert.equal(asked.transcript.language, wanted);
    assert.equal(JSON.parse(renderTranscript(asked.transcript, 'json-simple').body).language, wanted);
    assert.ok(!asked.progress.includes('detecting_language'), 'no detection runs when a language is given');
    // A BCP-47 tag is decoded (and reported) as whisper's code for it.
    assert.equal((await transcribe(multilingual, 'pt-BR')).result.language, 'pt');
  });

  it('an English-only model reports en for auto (no detection) and for en after it', async () => {
    // whisper's detection on a model without language tokens used to report noise ("su"), and every later
    // job on that model repeated it.
    const auto = await transcribe(englishOnly, 'auto');
    assert.equal(auto.result.language, 'en');
    assert.ok(!auto.progress.includes('detecting_language'), 'an English-only model has no languages to detect');
    const english = await transcribe(englishOnly, 'en');
    assert.equal(english.result.language, 'en');
    assert.equal(english.transcript.language, 'en');
  });

  it('an English-only model refuses another language with a sentence instead of answering in English', async () => {
    await assert.rejects(transcribe(englishOnly, 'fr'), (error: unknown) => {
      assert.ok(error instanceof UserFacingError, String(error));
      assert.match(
        error.message,
        /^The speech-to-text model ggml-synthetic-random\.bin is English-only, so it cannot transcribe "fr"/,
      );
      return true;
    });
  });
});
