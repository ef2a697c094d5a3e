import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { curlLine, speechCurlLine } from '../../src/editor/walkthrough/curl-line';
import { milestoneOfJob } from '../../src/editor/walkthrough/milestones';
import { recommendSttModel, recommendVoice } from '../../src/editor/walkthrough/recommend';
import type { JobRecord, JobRecordBase } from '../../src/jobs/types';
import { builtinCatalog } from '../../src/models/catalog';

const GIB = 1024 ** 3;
const catalog = builtinCatalog().models;

describe('the walkthrough', () => {
  it('recommends a whisper model sized for the memory, English-only for English', () => {
    assert.equal(recommendSttModel(catalog, 'en', 2 * GIB)?.id, 'whisper-tiny-en-q5_1');
    assert.equal(recommendSttModel(catalog, 'en-GB', 6 * GIB)?.id, 'whisper-base-en-q5_1');
    assert.equal(recommendSttModel(catalog, 'de', 16 * GIB)?.id, 'whisper-small-q5_1');
    assert.equal(recommendSttModel(catalog, 'pt-BR', 4 * GIB)?.id, 'whisper-base-q5_1');
  });

  it('recommends a catalog voice of the same region first, then of the same language, else none', () => {
    assert.equal(recommendVoice(catalog, 'de-DE')?.languages[0], 'de-DE');
    assert.equal(recommendVoice(catalog, 'fr-CA')?.languages[0], 'fr-FR');
    assert.ok(recommendVoice(catalog, 'en')?.languages.some((tag) => tag.startsWith('en-')));
    assert.equal(recommendVoice(catalog, 'xx'), undefined);
  });

  it('makes a curl command that a shell reads back as the intended arguments, quotes and all', () => {
    const line = curlLine('http://127.0.0.1:17860/v1', "ssk_local_it's", 'voice-1');
    const args = JSON.parse(
      execFileSync(
        'sh',
        ['-c', `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${line.replace(/^curl /, '')}`],
        { encoding: 'utf8' },
      ),
    );
    assert.deepEqual(args.slice(0, 4), ['-s', '-X', 'POST', 'http://127.0.0.1:17860/v1/tts/jobs']);
    assert.equal(args[5], "Authorization: Bearer ssk_local_it's");
    assert.equal(JSON.parse(args[9]).voiceId, 'voice-1');
  });

  it('makes the OpenAI-style one-liner first: /audio/speech into speech.mp3, quotes and all', () => {
    const line = speechCurlLine('http://127.0.0.1:17860/v1', "ssk_local_it's");
    const args = JSON.parse(
      execFileSync(
        'sh',
        ['-c', `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${line.replace(/^curl /, '')}`],
        { encoding: 'utf8' },
      ),
    );
    assert.deepEqual(args.slice(0, 2), ['-s', 'http://127.0.0.1:17860/v1/audio/speech']);
    assert.equal(args[3], "Authorization: Bearer ssk_local_it's");
    assert.deepEqual(JSON.parse(args[7]), {
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hello from the terminal, through the Speech Studio Local API.',
    });
    assert.deepEqual(args.slice(8), ['-o', 'speech.mp3']);
  });

  it('counts succeeded editor jobs by kind and any Local API job', () => {
    const job = (fields: Partial<JobRecordBase> & Pick<JobRecord, 'input'>): JobRecord =>
      ({ status: 'succeeded', origin: 'editor', ...fields }) as JobRecord;
    const tts = (inputFormat?: 'txt' | 'srt' | 'vtt') =>
      ({ kind: 'tts', options: { inputFormat }, characters: 1, voice: {} }) as JobRecord['input'];
    assert.equal(milestoneOfJob(job({ input: tts() })), 'heard');
    assert.equal(milestoneOfJob(job({ input: tts('srt') })), 'narratedSubtitles');
    assert.equal(milestoneOfJob(job({ input: { kind: 'stt' } as JobRecord['input'] })), 'transcribed');
    assert.equal(milestoneOfJob(job({ input: tts(), status: 'failed' })), undefined);
    assert.equal(milestoneOfJob(job({ input: tts(), origin: 'remote' })), undefined);
    assert.equal(milestoneOfJob(job({ input: tts(), origin: 'api', status: 'queued' })), 'calledApi');
  });
});
