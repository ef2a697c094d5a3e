/**
 * The line a progress notification shows for a job: its phase and percentage, without repeating a word the
 * title already says ("Transcribing talk.wav: 57%", not "Transcribing talk.wav: Transcribing (57%)").
 */

/** `heading` is what VS Code shows before the message (the notification title, or a step's label). */
export function progressMessage(heading: string, phaseText: string, percent: number): string {
  const shown = `${Math.floor(percent)}%`;
  if (!phaseText || heading.toLowerCase().startsWith(phaseText.toLowerCase())) return shown;
  return `${phaseText} (${shown})`;
}
