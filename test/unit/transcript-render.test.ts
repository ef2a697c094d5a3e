import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SttOptions } from '../../src/contract/types';
import { cueWords } from '../../src/subtitles/cue-text';
import { renderTranscript, type Transcript } from '../../src/subtitles/render';
import { formatTimestamp } from '../../src/subtitles/timestamps';
import { assertMonotonicCues, parseSrt, parseVtt } from '../helpers/subtitles';

const options: SttOptions = { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto' };

const plain: Transcript = {
  text: 'Hello there. General <Kenobi> & co.',
  language: 'en',
  durationSeconds: 3700,
  segments: [
    {
      start: 0.5,
      end: 2,
      text: 'Hello there.',
      words: [
        { start: 0.5, end: 1.1, text: 'Hello', probability: null },
        { start: 1.1, end: 2, text: 'there.', probability: null },
      ],
    },
    { start: 3661.25, end: 3663, text: 'General <Kenobi> & co.', words: [] },
  ],
  speakers: null,
  options,
  backend: 'whisper.cpp',
  model: 'ggml-base.bin',
};

const diarized: Transcript = {
  ...plain,
  segments: plain.segments.map((segment, i) => ({ ...segment, speaker: `Speaker ${i + 1}` })),
  speakers: ['Speaker 1', 'Speaker 2'],
  options: { ...options, diarizationEnabled: true },
};

describe('formatTimestamp', () => {
  it("writes hours, minutes, seconds and milliseconds with the format's separator", () => {
    assert.equal(formatTimestamp(3661.5, ','), '01:01:01,500');
    assert.equal(formatTimestamp(0, '.'), '00:00:00.000');
    assert.equal(formatTimestamp(59.9994, '.'), '00:00:59.999');
    assert.equal(formatTimestamp(59.9996, '.'), '00:01:00.000');
    assert.equal(formatTimestamp(360_000, ','), '100:00:00,000');
  });
});

describe('renderTranscript', () => {
  it('txt: one line per segment', () => {
    assert.deepEqual(renderTranscript(plain, 'txt'), {
      body: 'Hello there.\nGeneral <Kenobi> & co.\n',
      mediaType: 'text/plain; charset=utf-8',
    });
  });

  it('txt: "Speaker N: " in front of each segment when diarized', () => {
    assert.equal(
      renderTranscript(diarized, 'txt').body,
      'Speaker 1: Hello there.\nSpeaker 2: General <Kenobi> & co.\n',
    );
  });

  it('srt: numbered cues with comma milliseconds', () => {
    assert.deepEqual(renderTranscript(plain, 'srt'), {
      body:
        '1\n00:00:00,500 --> 00:00:02,000\nHello there.\n\n' +
        '2\n01:01:01,250 --> 01:01:03,000\nGeneral <Kenobi> & co.\n\n',
      mediaType: 'application/x-subrip; charset=utf-8',
    });
  });

  it('vtt: WEBVTT header, dot milliseconds, escaped text', () => {
    assert.deepEqual(renderTranscript(plain, 'vtt'), {
      body:
        'WEBVTT\n\n' +
        '00:00:00.500 --> 00:00:02.000\nHello there.\n\n' +
        '01:01:01.250 --> 01:01:03.000\nGeneral &lt;Kenobi&gt; &amp; co.\n\n',
      mediaType: 'text/vtt; charset=utf-8',
    });
  });

  it('srt: the speaker in brackets in front of each diarized cue, read back as its speaker', () => {
    const body = renderTranscript(diarized, 'srt').body;
    assert.equal(
      body,
      '1\n00:00:00,500 --> 00:00:02,000\n[Speaker 1] Hello there.\n\n' +
        '2\n01:01:01,250 --> 01:01:03,000\n[Speaker 2] General <Kenobi> & co.\n\n',
    );
    const named = {
      ...diarized,
      segments: diarized.segments.map((segment, i) => (i === 0 ? { ...segment, speaker: 'Ann Lee' } : segment)),
    };
    assert.deepEqual(cueWords(parseSrt(renderTranscript(named, 'srt').body)[0].lines), {
      text: 'Hello there.',
      speaker: 'Ann Lee',
    });
    // Sound descriptions in brackets are still not speakers.
    assert.deepEqual(cueWords(['[MUSIC] la la']), { text: 'la la' });
    assert.deepEqual(cueWords(['[Laughter] ha']), { text: 'ha' });
  });

  it('vtt: a voice span per cue when diarized', () => {
    assert.equal(
      renderTranscript(diarized, 'vtt').body,
      'WEBVTT\n\n' +
        '00:00:00.500 --> 00:00:02.000\n<v Speaker 1>Hello there.\n\n' +
        '01:01:01.250 --> 01:01:03.000\n<v Speaker 2>General &lt;Kenobi&gt; &amp; co.\n\n',
    );
  });

  it('json-simple: text, language, duration and segments without words', () => {
    const { body, mediaType } = renderTranscript(diarized, 'json-simple');
    assert.equal(mediaType, 'application/json');
    assert.deepEqual(JSON.parse(body), {
      text: 'Hello there. General <Kenobi> & co.',
      language: 'en',
      durationSeconds: 3700,
      segments: [
        { start: 0.5, end: 2, text: 'Hello there.', speaker: 'Speaker 1' },
        { start: 3661.25, end: 3663, text: 'General <Kenobi> & co.', speaker: 'Speaker 2' },
      ],
    });
    assert.equal('speaker' in JSON.parse(renderTranscript(plain, 'json-simple').body).segments[0], false);
  });

  it('json-full: the stored transcript as it is', () => {
    const { body, mediaType } = renderTranscript(diarized, 'json-full');
    assert.equal(mediaType, 'application/json');
    assert.deepEqual(JSON.parse(body), diarized);
  });

  it('empty transcripts render as valid empty documents', () => {
    const empty: Transcript = { ...plain, text: '', segments: [] };
    assert.equal(renderTranscript(empty, 'txt').body, '');
    assert.equal(renderTranscript(empty, 'srt').body, '');
    assert.equal(renderTranscript(empty, 'vtt').body, 'WEBVTT\n\n');
  });

  it('rejects an unknown format', () => {
    assert.throws(() => renderTranscript(plain, 'docx' as never), TypeError);
  });

  it('srt and vtt of a long, messy transcript parse back with readable, ordered cues and every word', () => {
    const transcript = messyTranscript(300);
    const srt = parseSrt(renderTranscript(transcript, 'srt').body);
    const vtt = parseVtt(renderTranscript(transcript, 'vtt').body);
    for (const cues of [srt, vtt]) {
      assertMonotonicCues(cues);
      for (const cue of cues) {
        assert.ok(cue.lines.length <= 2, `at most 2 lines: ${JSON.stringify(cue.lines)}`);
        assert.ok(cue.end - cue.start <= 7.0005, `at most 7 s: ${cue.start} → ${cue.end}`);
      }
    }
    // Each diarized SubRip cue opens with its speaker in brackets, in front of the laid-out lines.
    const unlabelled = srt.map((cue) => ({
      ...cue,
      lines: [cue.lines[0].replace(/^\[Speaker \d+\] /, ''), ...cue.lines.slice(1)],
    }));
    assert.ok(srt.every((cue) => /^\[Speaker \d+\] /.test(cue.lines[0])));
    const srtWords = unlabelled.flatMap((cue) => cue.lines.join(' ').split(' '));
    assert.ok(unlabelled.every((cue) => cue.lines.every((line) => line.length <= 42)));
    const inTimeOrder = [...transcript.segments].sort((a, b) => a.start - b.start);
    assert.deepEqual(
      srtWords,
      inTimeOrder.flatMap((segment) => segment.text.split(' ')),
    );
    const vttWords = vtt.flatMap((cue) =>
      cue.lines
        .join(' ')
        .replace(/^<v Speaker \d+>/, '')
        .split(' '),
    );
    assert.deepEqual(vttWords, srtWords);
  });
});

/** Deterministic pseudo-random segments: overlapping, zero-length, long and short ones, two speakers. */
function messyTranscript(count: number): Transcript {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const vocabulary = ['a', 'to', 'the', 'speech', 'transcription', 'extraordinarily', 'quick', 'brown', 'fox'];
  let clock = 0;
  const segments = Array.from({ length: count }, (_, i) => {
    const start = Math.round(Math.max(0, clock + (random() - 0.3) * 2) * 1000) / 1000;
    const length = random() < 0.1 ? 0 : Math.round(random() * 15 * 1000) / 1000;
    clock = start + length;
    const wordCount = 1 + Math.floor(random() * 30);
    const text = Array.from({ length: wordCount }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(
      ' ',
    );
    return { start, end: start + length, text, speaker: `Speaker ${1 + (i % 2)}`, words: [] };
  });
  return { ...diarized, segments };
}
