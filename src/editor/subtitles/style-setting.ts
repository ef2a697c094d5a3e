/**
 * The subtitle style of a file from the settings (per workspace or folder): `speechStudio.subtitles.style`
 * names a preset, `speechStudio.subtitles.limits` changes some of its values.
 */
import * as vscode from 'vscode';
import { resolveStyle, StyleError, type SubtitleStyle } from '../../contract/subtitle-style';

export const SUBTITLE_SETTINGS = 'speechStudio.subtitles';

export interface SubtitleCheckSetting {
  enabled: boolean;
  style: SubtitleStyle;
  /** Why the limits setting was not applied, when it was not. */
  invalid?: string;
}

/** Reads the settings that apply to `uri`; limits out of range are ignored (and said so), never thrown. */
export function readSubtitleCheckSetting(uri: vscode.Uri): SubtitleCheckSetting {
  const config = vscode.workspace.getConfiguration(SUBTITLE_SETTINGS, uri);
  const enabled = config.get<boolean>('check', true);
  const preset = config.get<string>('style', 'default');
  const limits = config.get<Partial<SubtitleStyle>>('limits', {});
  try {
    return { enabled, style: resolveStyle(preset, limits) };
  } catch (error) {
    if (!(error instanceof StyleError)) throw error;
    const fallback = (() => {
      try {
        return resolveStyle(preset);
      } catch {
        return resolveStyle();
      }
    })();
    return {
      enabled,
      style: fallback,
      invalid: `${SUBTITLE_SETTINGS}.${error.field === 'style' ? 'style' : `limits.${error.field}`}: ${error.message}`,
    };
  }
}
