/**
 * Admission of an alignment job, the same for every door: the request's parts checked against the
 * contract, the language one espeak-ng can speak, the script a readable file of a known kind. The
 * script is read here once, so a file that cannot be aligned is refused before the job exists.
 */
import { invalidRequest } from '../contract/errors';
import type { SttOptions } from '../contract/types';
import type { Validators } from '../contract/validation';
import { readScript, scriptFormatOf, SCRIPT_FORMATS, type ScriptFormat } from '../subtitles/script';
import { SubtitleError } from '../subtitles/parse';
import { espeakVoiceForLanguage } from '../voices/espeak-language';
import { chooseWhisperModel } from '../models/installed-models';
import { installedSttModels } from './admission';

export interface AdmittedAlignment {
  options: SttOptions;
  scriptFormat: ScriptFormat;
  /** The script as UTF-8 text (a byte-order mark removed). */
  script: string;
}

/** Checks an alignment request's text parts and script; throws INVALID_REQUEST naming the part at fault. */
export function admitAlignment(
  validators: Validators,
  fields: Record<string, string>,
  script: { originalName: string; content: Buffer } | undefined,
): AdmittedAlignment {
  const checked = validators.alignFields(fields);
  if (!checked.ok) throw invalidRequest(checked.message);
  const language = checked.value.language ?? 'auto';
  if (language !== 'auto' && !espeakVoiceForLanguage(language)) {
    throw invalidRequest(
      `language: espeak-ng has no voice for ${language}, so a script in it cannot be aligned; use auto or a code such as en, de or fr`,
    );
  }
  if (!script)
    throw invalidRequest(
      'script: is required (a part named "script" holding a .txt, .md, .srt, .vtt, .ass, .ssa, .ttml, .dfxp or .sbv file)',
    );
  const scriptFormat = scriptFormatOf(script.originalName);
  if (!scriptFormat)
    throw invalidRequest(
      `script: must be a file named .${[...SCRIPT_FORMATS, 'dfxp'].join(', .')}, got "${script.originalName.slice(0, 100)}"`,
    );
  const text = new TextDecoder('utf-8', { fatal: false }).decode(script.content);
  if (text.includes('\uFFFD')) throw invalidRequest('script: is not UTF-8 text');
  let units;
  try {
    units = readScript(text, scriptFormat);
  } catch (error) {
    if (error instanceof SubtitleError) throw invalidRequest(`script: ${error.message}`);
    throw error;
  }
  if (units.length === 0) throw invalidRequest('script: has no words to align');
  const { cropStartSeconds, cropEndSeconds } = checked.value;
  const options: SttOptions = {
    language,
    punctuation: true,
    diarizationEnabled: false,
    speakerCountMode: 'auto',
    ...(cropStartSeconds === undefined ? {} : { cropStartSeconds }),
    ...(cropEndSeconds === undefined ? {} : { cropEndSeconds }),
  };
  return { options, scriptFormat, script: text.replace(/^\uFEFF/, '') };
}

/**
 * The whisper model that refines an alignment in `language` (`auto`: English, as the rendition reads it):
 * the preferred one when it serves the language, else the largest that does; null when none is installed.
 * Parakeet models are left out: their pieces are spans, without word times to refine with.
 */
export async function alignRecognizerModel(
  dataDir: string,
  language: string,
  preferredModel?: string,
): Promise<string | null> {
  const { models } = await installedSttModels(dataDir);
  return (
    chooseWhisperModel(models, language === 'auto' ? 'en' : language, preferredModel, { whisperOnly: true })?.path ??
    null
  );
}
