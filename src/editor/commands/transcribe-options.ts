/**
 * The choices of Transcribe Media File: format, language, model, diarization and speaker count. The first
 * time in a workspace each is asked (a quick pick whose first item is the previous answer) and the answers
 * are remembered in the workspace's state; later runs use them without asking, until the user runs
 * "Transcribe Media File (Choose Options)…", which asks again.
 */
import * as vscode from 'vscode';
import { WHISPER_LANGUAGES } from '../../models/whisper-languages';

export type TranscriptChoice = 'srt' | 'vtt' | 'ass' | 'ttml' | 'sbv' | 'txt' | 'json';

export interface TranscribeOptions {
  format: TranscriptChoice;
  /** `auto` or a language code. */
  language: string;
  diarization: boolean;
  /** A fixed number of speakers, or undefined to let diarization decide. */
  speakerCount?: number;
  /** The installed model's name; undefined: the `stt.defaultModel` setting, else the best for the language. */
  model?: string;
}

const KEY = 'speechStudio.transcribeOptions';
const DEFAULTS: TranscribeOptions = { format: 'srt', language: 'auto', diarization: false };

export const FORMAT_EXTENSIONS: Record<TranscriptChoice, string> = {
  srt: '.srt',
  vtt: '.vtt',
  ass: '.ass',
  ttml: '.ttml',
  sbv: '.sbv',
  txt: '.txt',
  json: '.json',
};
/** JSON is the full transcript: segments, words with timings and probabilities, speakers. */
export const RENDER_FORMATS = { txt: 'txt', json: 'json-full' } as const;

/** The answers remembered in this workspace; undefined before the first answered question. */
export function rememberedOptions(state: vscode.Memento): TranscribeOptions | undefined {
  const remembered = state.get<Partial<TranscribeOptions>>(KEY);
  return remembered && { ...DEFAULTS, ...remembered };
}

export function rememberOptions(state: vscode.Memento, options: TranscribeOptions): Thenable<void> {
  return state.update(KEY, options);
}

interface Choice<T> extends vscode.QuickPickItem {
  value: T;
}

async function pick<T>(title: string, items: Choice<T>[], current: T, placeHolder?: string): Promise<T | undefined> {
  const ordered = [...items.filter((i) => i.value === current), ...items.filter((i) => i.value !== current)];
  const chosen = await vscode.window.showQuickPick(ordered, {
    title,
    placeHolder,
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  return chosen?.value;
}

function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export interface AskContext {
  /** Ask again even when the workspace remembers answers (Choose Options). */
  chooseAgain: boolean;
  /** The installed models' names: asked only when there is more than one. */
  models: readonly string[];
}

/**
 * The options for a run: `given` ones win; the rest come from the workspace's remembered answers, or, the
 * first time and with `chooseAgain`, from questions. Undefined when the user dismissed a question.
 */
export async function askTranscribeOptions(
  state: vscode.Memento,
  given: Partial<TranscribeOptions>,
  context: AskContext,
): Promise<TranscribeOptions | undefined> {
  const remembered = rememberedOptions(state);
  if (remembered && !context.chooseAgain) {
    const options = { ...remembered, ...given };
    return options.diarization ? options : { ...options, speakerCount: undefined };
  }
  const last = remembered ?? DEFAULTS;
  let questions = 0;
  const ask = <T>(...args: Parameters<typeof pick<T>>): Promise<T | undefined> => {
    questions++;
    return pick<T>(...args);
  };
  const title = 'Transcribe Media File';
  const format =
    given.format ??
    (await ask<TranscriptChoice>(
      title,
      [
        { label: 'SRT', description: 'SubRip subtitles', value: 'srt' },
        { label: 'VTT', description: 'WebVTT subtitles', value: 'vtt' },
        { label: 'ASS', description: 'Advanced SubStation Alpha subtitles (Aegisub, libass)', value: 'ass' },
        { label: 'TTML', description: 'Timed Text Markup Language (DFXP) subtitles', value: 'ttml' },
        { label: 'SBV', description: 'YouTube SubViewer subtitles', value: 'sbv' },
        { label: 'TXT', description: 'Plain text, one paragraph per segment', value: 'txt' },
        { label: 'JSON', description: 'Segments, words, timings and speakers', value: 'json' },
      ],
      last.format,
      'Format of the transcript',
    ));
  if (!format) return undefined;
  const languages = [...WHISPER_LANGUAGES].map((code) => ({
    label: languageName(code),
    description: code,
    value: code,
  }));
  languages.sort((a, b) => a.label.localeCompare(b.label));
  const language =
    given.language ??
    (await ask<string>(
      title,
      [{ label: 'Detect automatically', description: 'auto', value: 'auto' }, ...languages],
      last.language,
      'Spoken language',
    ));
  if (!language) return undefined;
  let model = given.model;
  if (!('model' in given) && context.models.length > 1) {
    const chosen = await ask<string | 0>(
      title,
      [
        {
          label: 'Best for the language',
          description: 'the stt.defaultModel setting, else the largest installed model',
          value: 0,
        },
        ...context.models.map((name) => ({ label: name, value: name })),
      ],
      last.model ?? 0,
      'Model',
    );
    if (chosen === undefined) return undefined;
    model = chosen || undefined;
  }
  const diarization =
    given.diarization ??
    (await ask<boolean>(
      title,
      [
        { label: 'One speaker', description: 'no speaker labels', value: false },
        { label: 'Label the speakers', description: 'diarization: "Speaker 1:", "Speaker 2:", …', value: true },
      ],
      last.diarization,
      'Speakers',
    ));
  if (diarization === undefined) return undefined;
  let speakerCount = given.speakerCount;
  if (diarization && !('speakerCount' in given)) {
    const counts = [2, 3, 4, 5, 6, 8, 10].map((n) => ({ label: `${n} speakers`, value: n }));
    const chosen = await ask<number>(
      title,
      [{ label: 'Find out automatically', value: 0 }, ...counts],
      last.speakerCount ?? 0,
      'How many speakers?',
    );
    if (chosen === undefined) return undefined;
    speakerCount = chosen || undefined;
  }
  const options: TranscribeOptions = {
    format,
    language,
    diarization,
    speakerCount: diarization ? speakerCount : undefined,
    ...(model ? { model } : {}),
  };
  // Options a caller passed in full (a test, another command) are not the user's answers.
  if (questions > 0) await rememberOptions(state, options);
  return options;
}
