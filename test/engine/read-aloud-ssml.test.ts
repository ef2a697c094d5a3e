/**
 * Read Aloud on SSML: an `.ssml` document and the ```ssml blocks of Markdown are cut into parts at their
 * pauses, each part highlighted where its markup is written, and spoken by the SSML recorder in the engine
 * (real espeak-ng): the break as exact leading silence, one timed "word" per step, what was skipped reported.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { SpeakTask, TtsVoiceRef } from '../../src/engine-api/protocol';
import { checkTask } from '../../src/engine/task-check';
import { speakSentence } from '../../src/engine/tts/speak-sentence';
import { firstAudibleIndex } from '../../src/engine/audio/silence-trimmer';
import { EngineHost } from '../../src/jobs/engine-host';
import { ClockPlayer } from '../../src/read-aloud/clock-player';
import { engineSynthesizer } from '../../src/read-aloud/engine-speaker';
import { ReadingSession, type SentenceAudio } from '../../src/read-aloud/reading-session';
import { resync } from '../../src/read-aloud/resync';
import { readingParts, SsmlReadingError } from '../../src/text/reading-parts';
import { sourceRange, type ReadingSentence } from '../../src/text/reading-sentences';
import { silentLogger } from '../../src/util/log';
import { ENGINE_WORKER } from '../helpers/server';
import { engineConfigFromEnvironment } from '../../src/config/engine-environment';

const espeak: TtsVoiceRef = {
  engine: 'espeak-ng',
  engineVoiceId: 'gmw/en-US',
  languageCode: 'en-US',
  name: 'English (America)',
};
const NO_MARKUP = { voices: {}, audio: {} };

const DOCUMENT = [
  '<speak>',
  '  The answer is <say-as interpret-as="cardinal">42</say-as>.<break time="700ms"/>',
  '  <prosody rate="slow">Slowly</prosody> now, <sub alias="World Wide Web">WWW</sub>.',
  '  <s>A <phoneme alphabet="ipa" ph="ʕa">word</phoneme> last.</s>',
  '</speak>',
].join('\n');

const written = (source: string, sentence: ReadingSentence): string => source.slice(sentence.start, sentence.end);

function partTask(sentence: ReadingSentence): SpeakTask {
  const { source, from, to } = sentence.ssml!;
  return { kind: 'speak', text: sentence.text, voice: espeak, speed: 1, ssml: { source, from, to, markup: NO_MARKUP } };
}

describe('the parts Read Aloud cuts from SSML', () => {
  it('an .ssml document: a part per pause, each written where its markup is, its steps found by what they say', () => {
    const parts = readingParts(DOCUMENT, { languageId: 'ssml', language: 'en-US' });
    assert.deepEqual(
      parts.map((part) => part.text),
      ['The answer is forty-two .', 'Slowly now, World Wide Web .', 'A word last.'],
    );
    assert.equal(written(DOCUMENT, parts[0]), 'The answer is <say-as interpret-as="cardinal">42</say-as>.');
    assert.equal(
      written(DOCUMENT, parts[1]),
      'Slowly</prosody> now, <sub alias="World Wide Web">WWW</sub>.',
      'from the first word said to the last',
    );
    assert.deepEqual(
      parts.map((part) => part.ssml!.startsWithPause),
      [false, true, true],
      'the break and the sentence open their parts',
    );
    // A run in one style is one step (the engine says it in one go): its words light up its whole markup.
    const at = (part: ReadingSentence, word: string) => {
      const start = part.text.indexOf(word);
      const range = sourceRange(part, start, start + word.length)!;
      return DOCUMENT.slice(range.start, range.end);
    };
    assert.equal(at(parts[0], 'forty'), 'The answer is <say-as interpret-as="cardinal">42</say-as>.');
    assert.equal(at(parts[1], 'Slowly'), 'Slowly');
    assert.equal(at(parts[1], 'Web'), 'now, <sub alias="World Wide Web">WWW</sub>.', 'a run in one style is one step');
    assert.equal(at(parts[2], 'word'), '<phoneme alphabet="ipa" ph="ʕa">word</phoneme>');
  });

  it('Markdown: prose as sentences and each ```ssml block by its markup, in document order; CRLF offsets hold', () => {
    const markdown = `# Title\r\n\r\nFirst prose.\r\n\r\n\`\`\`ssml\r\n${DOCUMENT.replace(/\n/g, '\r\n')}\r\n\`\`\`\r\n\r\nLast prose.\r\n`;
    const parts = readingParts(markdown, { languageId: 'markdown', language: 'en-US' });
    assert.deepEqual(
      parts.map((part) => part.text),
      [
        'Title',
        'First prose.',
        'The answer is forty-two .',
        'Slowly now, World Wide Web .',
        'A word last.',
        'Last prose.',
      ],
    );
    assert.equal(
      written(markdown, parts[4]),
      '<s>A <phoneme alphabet="ipa" ph="ʕa">word</phoneme> last.</s>'.slice(3, -4),
    );
    const selected = readingParts(markdown, {
      languageId: 'markdown',
      language: 'en-US',
      from: markdown.indexOf('Slowly'),
      to: markdown.indexOf('Slowly') + 3,
    });
    assert.deepEqual(
      selected.map((part) => part.text),
      ['Slowly now, World Wide Web .'],
      'a selection reads the parts it touches',
    );
  });

  it('malformed SSML is refused at its document line and column, or left silent while it is typed', () => {
    const markdown = 'Prose.\n\n```ssml\n<speak>\n  <break time="soon"/>\n</speak>\n```\n';
    assert.throws(
      () => readingParts(markdown, { languageId: 'markdown' }),
      (error: unknown) => {
        assert.ok(error instanceof SsmlReadingError);
        assert.deepEqual([error.line, error.column], [4, 2]);
        assert.match(error.message, /line 5, column 3: <break time="soon">/);
        return true;
      },
    );
    assert.deepEqual(
      readingParts(markdown, { languageId: 'markdown', malformed: 'silent' }).map((part) => part.text),
      ['Prose.'],
    );
  });

  it('an edit of a block remakes its parts after the one playing, even when their words did not change', () => {
    const before = readingParts(DOCUMENT, { languageId: 'ssml' });
    const at = DOCUMENT.indexOf('700ms');
    const text = DOCUMENT.replace('700ms', '900ms');
    const next = resync({
      sentences: before,
      current: 0,
      end: DOCUMENT.length,
      changes: [{ rangeOffset: at, rangeLength: 3, text: '900' }],
      split: (from, to) => readingParts(text, { languageId: 'ssml', from, to, malformed: 'silent' }),
    });
    assert.equal(next.sentences[1].text, before[1].text);
    assert.equal(next.remakeFrom, 1, 'the part after the longer break is made again');
  });

  it('a part task is checked like every task', async () => {
    const [part] = readingParts(DOCUMENT, { languageId: 'ssml' });
    assert.equal((await checkTask(partTask(part))).kind, 'speak');
    await assert.rejects(
      checkTask({ ...partTask(part), ssml: { source: DOCUMENT, from: 2, to: 1, markup: NO_MARKUP } }),
      /not a range of steps/,
    );
    await assert.rejects(
      checkTask({
        ...partTask(part),
        ssml: { source: DOCUMENT, from: 0, to: 1, markup: { voices: {}, audio: { x: 'relative.wav' } } },
      }),
      /not absolute/,
    );
  });
});

describe('a part spoken by espeak-ng', () => {
  const parts = readingParts(DOCUMENT, { languageId: 'ssml', language: 'en-US' });

  it('opens with its break as silence (±20 ms) and times each step in order', async () => {
    const { result } = await speakSentence(partTask(parts[1]));
    const samples = new Int16Array(Buffer.from(result.pcm, 'base64').buffer.slice(0));
    const silence = firstAudibleIndex(samples) / result.sampleRate;
    assert.ok(Math.abs(silence - 0.7) <= 0.02, `700 ms before the first sound (got ${Math.round(silence * 1000)} ms)`);
    const words = result.words!;
    assert.deepEqual(
      words.map((word) => parts[1].text.slice(word.start, word.end)),
      ['Slowly', 'now, World Wide Web .'],
    );
    assert.ok(
      Math.abs(words[0].startSeconds - 0.69) <= 0.02,
      `the first step starts after the break (${words[0].startSeconds})`,
    );
    const starts = words.map((word) => word.startSeconds);
    assert.deepEqual(
      starts,
      [...starts].sort((a, b) => a - b),
    );
    assert.ok(starts.at(-1)! < result.durationSeconds);
    assert.deepEqual(result.ignored, {}, 'espeak-ng honours all of it');
  });

  it('says the say-as expansion, and reports a phoneme it has no symbol for', async () => {
    const answer = await speakSentence(partTask(parts[0]));
    const said = await speakSentence({ kind: 'speak', text: 'The answer is forty-two.', voice: espeak, speed: 1 });
    assert.ok(
      Math.abs(answer.result.durationSeconds - said.result.durationSeconds) < 0.35,
      `${answer.result.durationSeconds} vs ${said.result.durationSeconds} s`,
    );
    const last = await speakSentence(partTask(parts[2]));
    assert.match(last.result.ignored?.['ssml phoneme'] ?? '', /no phoneme for a symbol in "ʕa"/);
  });
});

describe('an SSML reading through the engine process', () => {
  const host = new EngineHost({
    workerPath: ENGINE_WORKER,
    log: silentLogger,
    config: () => engineConfigFromEnvironment(),
  });
  after(() => host.close());

  it('plays every part in order, with the markup admitted once and the skipped phoneme reported', async () => {
    const parts = readingParts(DOCUMENT, { languageId: 'ssml', language: 'en-US' });
    const admitted: string[] = [];
    const player = new ClockPlayer();
    const pauses: number[] = [];
    const enqueue = player.enqueue.bind(player);
    player.enqueue = (index, made, pauseSeconds) => (pauses.push(pauseSeconds), enqueue(index, made, pauseSeconds));
    const synthesize = engineSynthesizer(host, espeak, [], async (source) => (admitted.push(source), NO_MARKUP));
    const session = new ReadingSession(parts, { synthesize, player, pauseSeconds: 0.05 });
    const audio: SentenceAudio[] = [];
    session.on('audio', (_index, made) => audio.push(made));
    player.connect(session);
    const done = new Promise<string>((resolve) =>
      session.on('state', (state) => (state === 'finished' || state === 'stopped') && resolve(state)),
    );
    session.start();
    assert.equal(await done, 'finished');
    assert.deepEqual(
      player.played.map((played) => played.index),
      [0, 1, 2],
    );
    assert.equal(admitted.length, 3, 'each part asks for its source markup (the editor caches the admission)');
    assert.ok(audio[2].ignored?.['ssml phoneme']);
    assert.deepEqual(
      pauses,
      [0, 0, 0],
      'the parts after the first open with their own break and sentence pause, so the reader adds none',
    );
  });
});
