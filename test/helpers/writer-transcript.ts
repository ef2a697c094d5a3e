/** The transcript both subtitle-writer suites lay out and write: short and long cues, a speaker, markup-like text, past an hour. */
import { DEFAULT_SUBTITLE_STYLE } from '../../src/contract/subtitle-style';
import { cueLimitsOf, layoutCues } from '../../src/subtitles/cues';
import type { Transcript } from '../../src/subtitles/types';

const segment = (start: number, end: number, text: string, speaker?: string): Transcript['segments'][number] => ({
  start,
  end,
  text,
  words: [],
  ...(speaker ? { speaker } : {}),
});

export const WRITER_TRANSCRIPT: Transcript = {
  text: '',
  language: 'en',
  durationSeconds: 30,
  speakers: ['Ann'],
  backend: 'whisper.cpp',
  model: 'test',
  wordTiming: 'estimated',
  options: { language: 'en', punctuation: true, diarizationEnabled: false, speakerCountMode: 'auto' },
  segments: [
    segment(0.5, 2.345, 'Hello, world.'),
    segment(
      3,
      11.5,
      'A long sentence that has to be laid out over more than one line and more than one cue, as the style asks.',
    ),
    segment(12.004, 13.5, 'Ampersands & 1 < 2 > 0 and {braces} stay text.', 'Ann'),
    segment(14, 15.25, 'A backslash\\Nwhich is not a break.'),
    segment(3600 + 62.125, 3600 + 64, 'Past the first hour.'),
  ],
};

/** Its cues as the default style lays them out. */
export const WRITER_CUES = layoutCues(WRITER_TRANSCRIPT.segments, cueLimitsOf(DEFAULT_SUBTITLE_STYLE)).cues;
