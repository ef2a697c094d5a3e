/**
 * A finished transcript in OpenAI's transcription response formats: `json`, `text`, `srt`, `vtt` and
 * `verbose_json` (task, language, duration, text, segments, and words when asked). Word times are the
 * recognizer's (whisper's token timestamps) or estimated within a span (Parakeet's chunks, older
 * transcripts); the transcript's `wordTiming` says which, and the response repeats it in `timing`.
 */
import type { OpenAiTranscriptFormat } from '../contract/openapi-openai';
import { renderSrt, renderVtt } from '../subtitles/render-subtitles';
import type { Transcript, WordTiming } from '../subtitles/types';

export interface FormatOptions {
  task: 'transcribe' | 'translate';
  words: boolean;
  segments: boolean;
}

export interface FormattedTranscript {
  body: string | Record<string, unknown>;
  mediaType: string;
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** OpenAI reports languages by English name in lower case ("english"). */
export function languageName(code: string): string {
  if (code === 'und') return 'unknown';
  try {
    return (languageNames.of(code) ?? code).toLowerCase();
  } catch {
    return code;
  }
}

/** Where the transcript's word times come from, as the engine reported it; a transcript from before it reported this was estimated. */
export function wordTimesOf(transcript: Transcript): WordTiming {
  return transcript.wordTiming ?? 'estimated';
}

const WORD_TIMES_NOTES: Record<Exclude<WordTiming, 'recognizer'>, string> = {
  estimated: 'Word times are shared out of each span by character count: the recognizer gave none.',
  mixed:
    'Some word times are shared out of a longer span by character count: the recognizer timed that span, not each word.',
  aligned: 'Word times come from forced alignment of a script to the speech, not from a recognizer.',
};

export function formatTranscript(
  transcript: Transcript,
  format: OpenAiTranscriptFormat,
  options: FormatOptions,
): FormattedTranscript {
  const usage = { type: 'duration', seconds: Math.ceil(transcript.durationSeconds) };
  switch (format) {
    case 'json':
      return { body: { text: transcript.text, usage }, mediaType: 'application/json' };
    case 'text':
      return { body: `${transcript.text}\n`, mediaType: 'text/plain; charset=utf-8' };
    case 'srt':
      return { body: renderSrt(transcript), mediaType: 'text/plain; charset=utf-8' };
    case 'vtt':
      return { body: renderVtt(transcript), mediaType: 'text/plain; charset=utf-8' };
    case 'verbose_json':
      return { body: verboseJson(transcript, options, usage), mediaType: 'application/json' };
    case 'diarized_json':
      return { body: diarizedJson(transcript, usage), mediaType: 'application/json' };
  }
}

/** Labels the diarizer gave, as opposed to a known speaker's name. */
const UNNAMED_SPEAKER = /^Speaker \d+$/;

/** A, B, …, Z, AA, AB, …: OpenAI's labels for speakers without a name. */
const letterLabel = (index: number): string =>
  index < 26 ? String.fromCharCode(65 + index) : `${letterLabel(Math.floor(index / 26) - 1)}${letterLabel(index % 26)}`;

/** OpenAI's diarized shape: segments with `speaker` (a known speaker's name, else A, B, … in order of appearance). */
function diarizedJson(transcript: Transcript, usage: object): Record<string, unknown> {
  const letters = new Map<string, string>();
  const speakerLabel = (speaker: string | undefined): string => {
    if (speaker !== undefined && !UNNAMED_SPEAKER.test(speaker)) return speaker;
    const key = speaker ?? '';
    if (!letters.has(key)) letters.set(key, letterLabel(letters.size));
    return letters.get(key) as string;
  };
  return {
    task: 'transcribe',
    duration: transcript.durationSeconds,
    text: transcript.text,
    segments: transcript.segments.map((segment, index) => ({
      type: 'transcript.text.segment',
      id: `seg_${index}`,
      start: segment.start,
      end: segment.end,
      text: segment.text,
      speaker: speakerLabel(segment.speaker),
    })),
    usage,
  };
}

function verboseJson(transcript: Transcript, options: FormatOptions, usage: object): Record<string, unknown> {
  const body: Record<string, unknown> = {
    task: options.task,
    language: options.task === 'translate' ? 'english' : languageName(transcript.language),
    duration: transcript.durationSeconds,
    text: transcript.text,
  };
  if (options.segments || !options.words) {
    body.segments = transcript.segments.map((segment, id) => ({
      id,
      seek: 0,
      start: segment.start,
      end: segment.end,
      text: segment.text,
      tokens: [],
      temperature: 0,
      avg_logprob: 0,
      compression_ratio: 0,
      no_speech_prob: 0,
      ...(segment.speaker === undefined ? {} : { speaker: segment.speaker }),
    }));
  }
  if (options.words) {
    body.words = transcript.segments.flatMap((segment) =>
      segment.words.map((word) => ({ word: word.text, start: word.start, end: word.end })),
    );
  }
  body.usage = usage;
  const wordTimes = wordTimesOf(transcript);
  body.timing = {
    segments: 'recognizer',
    words: options.words ? wordTimes : null,
    ...(options.words && wordTimes !== 'recognizer' ? { note: WORD_TIMES_NOTES[wordTimes] } : {}),
  };
  return body;
}
