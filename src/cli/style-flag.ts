/** `--style` of the subtitle commands: a style name or file resolved, or a UsageError with the style's own sentence. */
import { resolveStyle, StyleError, type SubtitleStyle } from '../contract/subtitle-style';
import { UsageError } from '../util/usage-error';

export function styleFlag(flag: string | undefined): SubtitleStyle {
  try {
    return resolveStyle(flag ?? 'default');
  } catch (error) {
    if (error instanceof StyleError) throw new UsageError(`--style: ${error.message}`);
    throw error;
  }
}
