/** The `tts` job kind: a text spoken by one voice into an audio file in the job's folder. */
import { promises as fs } from 'node:fs';
import type { LexiconEntry, TtsRequest, TtsResult } from '../../contract/types';
import type { ExtraOutputFormat, SsmlTaskMarkup, TtsVoiceRef } from '../../engine-api/protocol';
import { entriesIn } from '../../lexicon/apply-lexicon';
import { nameFromText } from '../job-name';
import { isCount, isObject, isString, schema } from './checks';
import { isKind, type JobKindModule, type KindRecord, type NewJob } from './job-kind';

export const TTS_TEXT_FILE = 'input.txt';
/** A TTS job's lexicon entries, in its folder rather than in the store's journal (they can be megabytes). */
export const JOB_LEXICON_FILE = 'lexicon.json';

export interface TtsJobInput {
  kind: 'tts';
  options: Omit<TtsRequest, 'text'>;
  /** Characters of text; the text itself lives in the job folder, not in the store. */
  characters: number;
  voice: TtsVoiceRef;
  /** The engine writes the output while it speaks, for a reader streaming it (see TtsTask.live). */
  live?: boolean;
  /** A format the engine encodes instead of `options.outputFormat`, for a door whose protocol has it (see TtsTask.encodeAs). */
  encodeAs?: ExtraOutputFormat;
  /**
   * How many lexicon entries were found in the text at creation, kept in the job folder's `lexicon.json`
   * (JOB_LEXICON_FILE) so the store stays small: a later PUT /lexicon does not change a queued job.
   */
  lexiconEntries?: number;
  /** Records written before lexiconEntries kept the entries here, in the store. */
  lexicon?: LexiconEntry[];
  /** The text is SSML, with what admission resolved for it (see TtsTask.ssml); only the non-seed doors set it. */
  ssml?: SsmlTaskMarkup;
}

/** An admitted TTS request (admission.ts). */
export interface NewTtsJob extends NewJob {
  request: TtsRequest;
  voice: TtsJobInput['voice'];
  live?: boolean;
  /** A format the engine encodes instead of the request's outputFormat (the OpenAI door's opus and pcm). */
  encodeAs?: TtsJobInput['encodeAs'];
  /** Entries that win over the data directory's lexicon for the same text and language (the editor's workspace lexicon). */
  lexicon?: readonly LexiconEntry[];
  /** The text is SSML, admitted by admitSsml (ssml-admission.ts). */
  ssml?: TtsJobInput['ssml'];
}

/** The audio in the job's folder: the format asked for, or the one the engine encodes instead. */
const outputFile = (job: KindRecord<'tts', TtsJobInput, TtsResult>): string =>
  `output.${job.input.encodeAs ?? job.input.options.outputFormat}`;

const isTts = isKind('tts');

export const ttsKind: JobKindModule<'tts', TtsJobInput, TtsResult, NewTtsJob> = {
  kind: 'tts',
  seedKind: 'tts',
  label: 'TTS',
  noun: 'speech',
  phrase: 'a narration',
  openWith: 'player',

  async input(job, folder) {
    const { text, ...options } = job.request;
    await fs.writeFile(folder.file(TTS_TEXT_FILE), text, 'utf8');
    const lexicon = entriesIn(text, await folder.lexiconWith(job.lexicon ?? []));
    if (lexicon.length) await fs.writeFile(folder.file(JOB_LEXICON_FILE), JSON.stringify(lexicon), 'utf8');
    const input: TtsJobInput = {
      kind: 'tts',
      options,
      characters: text.length,
      voice: job.voice,
      ...(lexicon.length ? { lexiconEntries: lexicon.length } : {}),
      ...(job.live ? { live: true } : {}),
      ...(job.encodeAs ? { encodeAs: job.encodeAs } : {}),
      ...(job.ssml ? { ssml: job.ssml } : {}),
    };
    return { input, name: job.name ?? nameFromText(text) };
  },

  task(job, paths) {
    const input = job.input;
    return {
      kind: 'tts',
      textPath: paths.file(job.id, TTS_TEXT_FILE),
      outputPath: paths.file(job.id, outputFile(job)),
      options: input.options,
      voice: input.voice,
      ...(input.live ? { live: true } : {}),
      ...(input.encodeAs ? { encodeAs: input.encodeAs } : {}),
      ...(input.ssml ? { ssml: input.ssml } : {}),
      ...(input.lexiconEntries
        ? { lexiconPath: paths.file(job.id, JOB_LEXICON_FILE) }
        : input.lexicon?.length
          ? { lexicon: input.lexicon }
          : {}),
    };
  },

  outputFile,

  inputProblem(input) {
    const voice = input.voice;
    if (!isObject(input.options)) return "input: does not match the job's kind";
    if (!isCount(input.characters)) return 'input.characters: is not a count';
    if (!(isObject(voice) && isString(voice.engine) && isString(voice.engineVoiceId) && isString(voice.languageCode)))
      return 'input.voice: is not a voice';
    return undefined;
  },

  checkedInput(input) {
    // The text lives in the job's folder, not in the record; any non-empty text stands in for it.
    const checked = schema().ttsRequest({ ...input.options, text: 'text' });
    if (!checked.ok) return { problem: checked.message };
    const { text: _text, ...options } = checked.value;
    return { input: { ...input, options } };
  },

  resultOf(job) {
    return isTts(job) ? job.result : null;
  },
};
